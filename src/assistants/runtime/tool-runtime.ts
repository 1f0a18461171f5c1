// Runs the model's tool calls against one application executor for one session. Calls run on a later
// tick so a session's receive loop is never blocked; each call_id runs at most once (GPT-Live may
// deliver the same function call twice); invalid or denied calls become failed records whose
// `{ok: false, error}` output goes back to the model; the ordered log of every execution, completed
// and failed, is what graders read.
import { setImmediate as nextMacrotask, setTimeout as sleep } from 'node:timers/promises'
import type { FaultProfile } from '../../config/fault-profiles.ts'
import { SessionFaults } from '../../faults/session.ts'
import type { JsonObject } from '../offline-behaviour.ts'
import { FaultInjector, faultFailureOutput, type InjectedFault, wrongData } from './faults.ts'
import { deepCopy, isJsonObject } from './json.ts'
import { type FunctionToolDefinition, toolMutates } from './tool-definitions.ts'
import { ToolArgumentError, type ToolExecutionRecord, type ToolExecutor } from './tool-executor.ts'

/** A function call as the model made it; `arguments` is usually the JSON string from the wire. */
export interface ToolCallRequest {
  callId: string
  name: string
  arguments: unknown
}

/** What one call produced: its record and the `function_call_output` payload for the model. */
export interface ToolCallResult {
  record: ToolExecutionRecord
  /** `record.output` as the JSON string GPT-Live expects in `function_call_output.output`. */
  outputJson: string
}

/** Thrown (as a rejection) when an executor fails with something other than a ToolArgumentError. */
export class ToolExecutionError extends Error {
  override name = 'ToolExecutionError'
}

export interface ToolRuntimeOptions {
  /**
   * A seeded fault profile (`execution.faults`): a session's SessionFaults (its draws, and its timers so a slow
   * call waits on the call's clock), or a bare profile (wall-clock waits). Null or absent runs every call as it is.
   */
  faults?: SessionFaults | FaultProfile | null
}

export class ToolRuntime {
  readonly #executor: ToolExecutor
  readonly #faults: FaultInjector | null
  readonly #wait: (ms: number) => Promise<void>
  readonly #calls = new Map<string, Promise<ToolCallResult>>()
  readonly #log: ToolExecutionRecord[] = []
  #inFlight = 0

  constructor(executor: ToolExecutor, options: ToolRuntimeOptions = {}) {
    this.#executor = executor
    const faults = options.faults ?? null
    this.#faults =
      faults === null ? null : new FaultInjector(faults instanceof SessionFaults ? faults.draws : faults)
    this.#wait = faults instanceof SessionFaults ? (ms) => faults.timers.wait(ms) : (ms) => sleep(ms)
  }

  get definitions(): readonly FunctionToolDefinition[] {
    return this.#executor.definitions
  }

  /** Whether a tool changes the application: its declaration, else the read-verb rule (toolMutates). */
  mutates(name: string): boolean {
    return toolMutates(name, this.#definition(name)?.mutates)
  }

  /** Calls accepted but not finished yet. */
  get pending(): number {
    return this.#inFlight
  }

  /**
   * Run a call on a later tick. A call_id seen before returns the first call's result and runs
   * nothing. The promise rejects only for executor bugs (ToolExecutionError), never for bad calls.
   */
  run(request: ToolCallRequest): Promise<ToolCallResult> {
    const existing = this.#calls.get(request.callId)
    if (existing) return existing
    // Copy now: the caller may reuse its request object while we wait for the next tick.
    const call: ToolCallRequest = { ...request, arguments: deepCopy(request.arguments) }
    this.#inFlight += 1
    const result = this.#runLater(call).finally(() => {
      this.#inFlight -= 1
    })
    this.#calls.set(call.callId, result)
    return result
  }

  /** Every execution so far, completed and failed, in the order they finished (a deep copy). */
  executions(): ToolExecutionRecord[] {
    return deepCopy(this.#log)
  }

  /** How many executions so far: executions().length without copying them (the call loops ask every step). */
  executionCount(): number {
    return this.#log.length
  }

  /** Wait until every accepted call has finished (rejections included). */
  async settled(): Promise<void> {
    await Promise.allSettled([...this.#calls.values()])
  }

  /** The application state now (a deep copy). */
  snapshot(): JsonObject {
    return this.#executor.snapshot()
  }

  async #runLater(call: ToolCallRequest): Promise<ToolCallResult> {
    await nextMacrotask()
    const parsed = parseArguments(call.arguments)
    if (!parsed.ok)
      return this.#record(call.callId, call.name, call.arguments, 'failed', failure(parsed.error))
    const args = dropNullOptionals(parsed.value, this.#definition(call.name))
    const drawn = this.#faults?.draw(call.name) ?? null
    const fault = drawn?.fault
    // A timeout, an error or an empty answer never reaches the application: its state does not change. A timeout
    // first costs the wait before the runtime gives up (on the call's clock), as a backend that never answers does;
    // a slow call the same wait before its real answer.
    if (fault?.kind === 'timeout' || fault?.kind === 'slow') await this.#wait((fault.delay_s ?? 0) * 1000)
    if (fault?.kind === 'timeout' || fault?.kind === 'error')
      return this.#record(call.callId, call.name, args, 'failed', faultFailureOutput(fault.kind), fault)
    if (fault?.kind === 'empty') return this.#record(call.callId, call.name, args, 'completed', {}, fault)
    try {
      let output = deepCopy(await this.#executor.execute(call.name, deepCopy(args), call.callId))
      if (fault?.kind === 'wrong_data') {
        const altered = wrongData(output)
        output = altered.output
        fault.changed = altered.changed
      }
      return this.#record(call.callId, call.name, args, 'completed', output, fault)
    } catch (error) {
      if (error instanceof ToolArgumentError) {
        return this.#record(call.callId, call.name, args, 'failed', failure(error.message), fault)
      }
      const reason = error instanceof Error ? error.message : String(error)
      throw new ToolExecutionError(
        `Tool ${call.name} (call_id ${call.callId}) crashed in the application executor: ${reason}. ` +
          'This is a bug in the executor, not a bad model call; fix the executor.',
        { cause: error },
      )
    }
  }

  #definition(name: string): FunctionToolDefinition | undefined {
    return this.#executor.definitions.find((definition) => definition.name === name)
  }

  #record(
    callId: string,
    name: string,
    args: unknown,
    status: ToolExecutionRecord['status'],
    output: JsonObject,
    fault?: InjectedFault,
  ): ToolCallResult {
    const record: ToolExecutionRecord = { call_id: callId, name, arguments: args, status, output }
    if (fault !== undefined) record.fault = deepCopy(fault)
    this.#log.push(deepCopy(record))
    return { record, outputJson: JSON.stringify(output) }
  }
}

function failure(error: string): JsonObject {
  return { ok: false, error }
}

type Parsed = { ok: true; value: unknown } | { ok: false; error: string }

function parseArguments(raw: unknown): Parsed {
  if (typeof raw !== 'string') return { ok: true, value: raw }
  try {
    return { ok: true, value: JSON.parse(raw) }
  } catch (error) {
    return { ok: false, error: `Tool arguments are not valid JSON: ${(error as Error).message}` }
  }
}

/**
 * GPT-Live's nullable optional properties let the model send `"seating": null` for "not given"; the
 * executor treats absence as "not given", so those keys go. Required keys keep their null and fail
 * validation as the executor decides.
 */
function dropNullOptionals(args: unknown, definition: FunctionToolDefinition | undefined): unknown {
  if (!isJsonObject(args) || definition === undefined) return args
  const required = new Set(definition.parameters.required ?? [])
  const kept: JsonObject = {}
  for (const [key, value] of Object.entries(args)) {
    if (value === null && !required.has(key)) continue
    kept[key] = value
  }
  return kept
}
