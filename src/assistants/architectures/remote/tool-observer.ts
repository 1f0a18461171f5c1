// The evaluator's read-only view of a remote application's tools (contract §4). The service executes every
// tool and reports the evidence with its events: each `tool.completed`/`tool.failed` carries the execution
// record and the whole state after the call. The observer keeps the latest state and the records, so graders
// read the service's own evidence through the same ToolExecutor seat as an in-process application; it never
// runs anything itself.
import type { JsonObject } from '../../offline-behaviour.ts'
import { deepCopy, isJsonObject } from '../../runtime/json.ts'
import type { FunctionToolDefinition } from '../../runtime/tool-definitions.ts'
import {
  type ToolExecutionRecord,
  type ToolExecutor,
  toolExecutionRecordSchema,
} from '../../runtime/tool-executor.ts'
import { ClientAssistantProtocolError } from './errors.ts'

export const REMOTE_EXECUTION_MESSAGE = 'Application tools must execute inside the remote assistant'

/** Where the graded initial state came from: the service's `session.ready`, or the scenario file. */
export type InitialStateSource = 'service' | 'scenario'

export class RemoteExecutionError extends Error {
  override name = 'RemoteExecutionError'
  constructor() {
    super(REMOTE_EXECUTION_MESSAGE)
  }
}

export class RemoteToolObserver implements ToolExecutor {
  readonly definitions: readonly FunctionToolDefinition[]
  readonly #records: ToolExecutionRecord[] = []
  #initialState: JsonObject
  #state: JsonObject
  #initialStateSource: InitialStateSource = 'scenario'

  /** `scenarioState` stands in until the service reports its own (it is what a service given it starts from). */
  constructor(definitions: readonly FunctionToolDefinition[], scenarioState: JsonObject) {
    this.definitions = definitions
    this.#initialState = deepCopy(scenarioState)
    this.#state = deepCopy(scenarioState)
  }

  get executions(): readonly ToolExecutionRecord[] {
    return deepCopy(this.#records)
  }

  execute(): never {
    throw new RemoteExecutionError()
  }

  snapshot(): JsonObject {
    return deepCopy(this.#state)
  }

  /** The state the session started from (a copy). */
  get initialState(): JsonObject {
    return deepCopy(this.#initialState)
  }

  get initialStateSource(): InitialStateSource {
    return this.#initialStateSource
  }

  /** The service's state at `session.ready`: the graded initial state, since the service owns the state. */
  started(serviceState: JsonObject | undefined): void {
    if (serviceState === undefined) return
    this.#initialState = deepCopy(serviceState)
    this.#state = deepCopy(serviceState)
    this.#initialStateSource = 'service'
  }

  /**
   * One inner event of the service: an object `application_state` replaces the state; an object
   * `tool_execution` is appended unless a record with the same non-empty call_id is already there. A record
   * that does not have the record's shape is a protocol error (it could not be graded).
   */
  observe(event: JsonObject): void {
    if (isJsonObject(event.application_state)) this.#state = deepCopy(event.application_state)
    const execution = event.tool_execution
    if (!isJsonObject(execution)) return
    const parsed = toolExecutionRecordSchema.safeParse(execution)
    if (!parsed.success) throw new ClientAssistantProtocolError('tool_execution is not an execution record')
    const record = parsed.data
    const duplicate =
      record.call_id !== null &&
      record.call_id !== '' &&
      this.#records.some((known) => known.call_id === record.call_id)
    if (!duplicate) this.#records.push(deepCopy(record))
  }
}
