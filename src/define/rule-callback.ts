// Runs one callback of a defineAssistant offline rule. A callback that throws is a bug in the author's spec file:
// the error names the assistant, the rule (its index and `when`), the callback, what it was given, the thrown
// message and where it was thrown, so the author can fix it without opening the run's event log.
import { OfflineRuleError } from '../assistants/offline-rule-error.ts'

export interface RuleCallbackSite {
  assistant: string
  /** The rule's index in `offline.rules`. */
  index: number
  when: unknown
  /** The callback as its author wrote it: `answer(output)`, `call.arguments(callerText, earlier)`, … */
  callback: string
  /** What the callback was given, shown in the message (the caller's words, the tool's output). */
  given: unknown
}

const GIVEN_LIMIT = 200

export function runRuleCallback<T>(site: RuleCallbackSite, run: () => T): T {
  try {
    return run()
  } catch (error) {
    throw new OfflineRuleError(ruleErrorMessage(site, error), { cause: error })
  }
}

function ruleErrorMessage(site: RuleCallbackSite, error: unknown): string {
  const thrown = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
  const frame = error instanceof Error ? throwSite(error.stack) : null
  const hint = refusedOutputHint(site)
  return (
    `assistant "${site.assistant}", offline.rules[${site.index}] (when ${describeWhen(site.when)}): ` +
    `${site.callback} threw ${thrown}${frame === null ? '' : ` (${frame})`}, given ${shown(site.given)}. ` +
    `This is a bug in your offline rule, not a failure of live-evals: fix the callback in your spec file.${hint}`
  )
}

/** A refused call reaches `answer` as `{ ok: false, error }`: the trap the README's examples guard against. */
function refusedOutputHint(site: RuleCallbackSite): string {
  const given = site.given as { ok?: unknown } | null
  if (!site.callback.startsWith('answer') || given?.ok !== false) return ''
  return ' The tool refused the call, so its output is { ok: false, error }: check output.ok before reading it.'
}

function describeWhen(when: unknown): string {
  if (typeof when === 'string') return JSON.stringify(when)
  if (when instanceof RegExp) return String(when)
  return 'a function'
}

function shown(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > GIVEN_LIMIT ? `${text.slice(0, GIVEN_LIMIT)}…` : text
}

/** The first stack frame outside Node's own code: where the callback threw. */
function throwSite(stack: string | undefined): string | null {
  for (const line of (stack ?? '').split('\n').slice(1, 12)) {
    const frame = line.trim()
    if (frame.startsWith('at ') && !frame.includes('node:')) return frame
  }
  return null
}
