// Seeded tool-plane faults (issue 22): a profile (config/fault-profiles.ts) decides, for the nth call of each tool,
// whether it times out (fails after the runtime's wait), errors, comes back empty, returns plausible but wrong
// data, or answers late. The draw depends only on the seed, the rule, the tool and n (faults/draws.ts), so the
// same seed gives the same faults whatever the call ids or the timing. What the model receives looks like a real backend failure; only the
// execution record (evaluator side) says a fault was injected.
import { z } from 'zod'
import {
  DEFAULT_TOOL_TIMEOUT_S,
  type FaultProfile,
  type FaultRule,
  TOOL_FAULT_KINDS,
  type ToolFaultRule,
} from '../../config/fault-profiles.ts'
import { FaultDraws } from '../../faults/draws.ts'
import type { JsonObject } from '../offline-behaviour.ts'
import { deepCopy, isJsonObject } from './json.ts'

export const InjectedFaultSchema = z.strictObject({
  kind: z.enum(TOOL_FAULT_KINDS),
  profile: z.string(),
  /** Which call of this tool it was (0-based), the position the draw used. */
  call_index: z.int().nonnegative(),
  /** `slow`: the seconds added before the real result; `timeout`: the seconds waited before the call failed. */
  delay_s: z.number().optional(),
  /** `wrong_data`: the output paths that were altered (empty when the output had nothing to alter). */
  changed: z.array(z.string()).optional(),
})
export type InjectedFault = z.infer<typeof InjectedFaultSchema>

const isToolRule = (rule: FaultRule): rule is ToolFaultRule =>
  (TOOL_FAULT_KINDS as readonly string[]).includes(rule.kind)

/** One session's tool-plane draws; counts calls per tool so the nth call of a tool always gets the same fault. */
export class FaultInjector {
  readonly #draws: FaultDraws

  constructor(profile: FaultProfile | FaultDraws) {
    this.#draws = profile instanceof FaultDraws ? profile : new FaultDraws(profile)
  }

  /** The fault for the next call of `tool`, or null; the first tool rule naming it whose draw hits wins. */
  draw(tool: string): { rule: ToolFaultRule; fault: InjectedFault } | null {
    const drawn = this.#draws.next(
      tool,
      (rule): rule is ToolFaultRule =>
        isToolRule(rule) && (rule.tools.includes('*') || rule.tools.includes(tool)),
    )
    if (drawn === null) return null
    const { rule, index } = drawn
    const fault: InjectedFault = { kind: rule.kind, profile: this.#draws.profile.name, call_index: index }
    if (rule.kind === 'slow') fault.delay_s = rule.delay_s ?? 1
    if (rule.kind === 'timeout') fault.delay_s = rule.delay_s ?? DEFAULT_TOOL_TIMEOUT_S
    return { rule, fault }
  }
}

/** The `{ok: false, error}` a failing backend would give; it names no fault profile (the model must not know). */
export function faultFailureOutput(kind: 'timeout' | 'error'): JsonObject {
  return kind === 'timeout'
    ? { ok: false, error: 'The backend did not answer in time (request timed out).' }
    : { ok: false, error: 'The backend failed to process the request (internal server error).' }
}

/**
 * Plausible but wrong: the first boolean is flipped, else the first number is moved by one, depth first in key
 * order. The shape stays the same so nothing but a check of the content can tell.
 */
export function wrongData(output: JsonObject): { output: JsonObject; changed: string[] } {
  const copy = deepCopy(output)
  const path = alterFirst(copy, '')
  return { output: copy, changed: path === null ? [] : [path] }
}

function alterFirst(value: JsonObject | unknown[], prefix: string): string | null {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((item, index) => [String(index), item])
    : Object.entries(value)
  for (const [key, item] of entries) {
    const path = prefix === '' ? key : `${prefix}.${key}`
    const target = value as Record<string, unknown>
    if (key === 'ok') continue // flipping ok would turn the answer into a failure, not wrong data
    if (typeof item === 'boolean') {
      target[key] = !item
      return path
    }
    if (typeof item === 'number') {
      target[key] = item + 1
      return path
    }
    if (Array.isArray(item) || isJsonObject(item)) {
      const inner = alterFirst(item as JsonObject | unknown[], path)
      if (inner !== null) return inner
    }
  }
  return null
}
