// The assistant under test for one scenario: a GPT-Live session configured from the assistant plan only, this
// scenario's own application (executor + tool runtime over a deep copy of the authorized initial state), and
// the delegation controller of its architecture (src/assistants/architectures: one object per architecture).
// The evaluator drives it with caller audio and reads back the event stream, the tool executions, the final
// state and the delegation records.

import type { SessionFaults } from '../faults/session.ts'
import type { ReceivedLiveEvent, SessionConfig, SessionStartedEvent } from '../live/index.ts'
import { type LiveEndpointSettingsInput, LiveSession } from '../live/index.ts'
import type { LiveSessionOutcome } from '../live/outcome.ts'
import type { ObservedResponseUsage } from '../reporting/consumption.ts'
import type { AssistantVisibleInput } from '../scenarios/visible.ts'
import type { HeardUtterance, OfflineLiveServer, OfflineSessionScript } from '../testing/live-server/index.ts'
import type {
  ApplicationView,
  ArchitectureController,
  AssistantArchitecture,
  DelegationObservation,
  RequestedCall,
  ScenarioApplication,
} from './architectures/index.ts'
import type { DelegationWaitOptions } from './delegation-lifecycle.ts'
import {
  type Architecture,
  type AssistantModels,
  type AssistantPlan,
  buildAssistantPlan,
  buildSessionStart,
  type SessionStartOptions,
} from './frontend/index.ts'
import type { JsonObject } from './offline-behaviour.ts'

export interface AssistantConnection {
  /** OPENAI_API_KEY live; offline, the token registerOfflineAssistant returned. */
  apiKey: string
  baseURL?: string
  allowInsecureLoopback?: boolean
  startTimeoutMs?: number
  closeTimeoutMs?: number
}

export interface OpenAssistantOptions {
  visibleInput: AssistantVisibleInput
  architecture: AssistantArchitecture
  models: AssistantModels
  connection: AssistantConnection
  /**
   * The application's business facts, private overrides included: the executor decides with all of them, the
   * assistant sees only the public part. Default: the architecture's own facts.json.
   */
  facts?: JsonObject
  /**
   * This scenario's application, built beforehand with `architecture.createApplication` (so an evaluator can
   * hold the very state the assistant changes). Default: a fresh one. It must be built for this scenario and
   * architecture, serves one session only, and carries its own facts (do not also pass `facts`).
   */
  application?: ScenarioApplication
  sessionStart?: SessionStartOptions
  /** Session clock in milliseconds; stamps events and records. Defaults to `performance.now()`. */
  clock?: () => number
  /** Aborting shuts the session down locally (synthetic, never a provider failure). */
  signal?: AbortSignal
  /** false: the session's log keeps output audio as its size only (LiveSessionOptions.keepOutputAudio). */
  keepOutputAudio?: boolean
}

// Applications already given to a session: a second session on the same one would share its state.
const applicationsInUse = new WeakSet<ScenarioApplication>()

/**
 * Refuses an application that is not this scenario's, not this architecture's, or not fresh; the message says
 * which and what to do.
 */
export function checkScenarioApplication(
  application: ScenarioApplication,
  scenarioId: string,
  architecture: Architecture,
): void {
  const problem =
    application.scenarioId !== scenarioId
      ? `it was built for scenario ${application.scenarioId}`
      : application.architecture !== architecture
        ? `it is the ${application.architecture} copy, not the ${architecture} one`
        : applicationsInUse.has(application) || application.runtime.executions().length > 0
          ? 'another session already used it'
          : null
  if (problem !== null) {
    throw new Error(
      `Scenario ${scenarioId}: the application given to the ${architecture} assistant cannot be used: ${problem}; ` +
        'build a fresh one per session with architecture.createApplication(visibleInput).',
    )
  }
}

export interface AssistantUnderTest {
  readonly architecture: Architecture
  readonly plan: AssistantPlan
  /** Exactly what was sent as `session.start`'s session. */
  readonly sessionConfig: SessionConfig
  readonly started: SessionStartedEvent
  readonly session: LiveSession
  /** Sends caller audio (PCM16 24 kHz mono); false once the session is closing or over. */
  sendAudio(pcm: Int16Array): boolean
  /** Every received event, in order, from the first; ends when the session ends. */
  events(): AsyncGenerator<ReceivedLiveEvent, void, undefined>
  readonly tools: ApplicationView
  /** The session's fault profile at work (evaluator-side; application.faults); null when clean. */
  readonly faults: SessionFaults | null
  /** The architecture's serializable record of the delegations (for the details JSON). */
  delegations(): DelegationObservation
  /** The tool calls the backend asked for, in request order. */
  requestedCalls(): RequestedCall[]
  /** Backend usage per backend response (unknown as null). */
  backendUsage(): (ObservedResponseUsage | null)[]
  /** Whether the backend's work for a delegation is over. */
  delegationFinished(delegationId: string): boolean
  /** Resolves once no delegated work is pending; rejects with the controller's retained error. */
  waitForDelegatedWork(options?: DelegationWaitOptions): Promise<void>
  /** The controller's retained error (what waitForDelegatedWork would reject with at once), or null. */
  delegationFailure(): Error | null
  /** Closes the controller, then the session; once. Never rejects: the outcome says how the session ended. */
  close(): Promise<LiveSessionOutcome>
}

export async function openAssistantUnderTest(options: OpenAssistantOptions): Promise<AssistantUnderTest> {
  const { visibleInput, architecture } = options
  if (options.application !== undefined && options.facts !== undefined) {
    throw new Error(
      `Scenario ${visibleInput.scenarioId}: pass the business facts to createApplication, not beside a ` +
        'pre-built application (its executor already decides with its own facts).',
    )
  }
  // The plan keeps a public copy and the executor its own copy: neither aliases the caller's facts.
  const { facts } = options
  const plan = buildAssistantPlan(visibleInput, {
    architecture: architecture.name,
    application: architecture.application,
    models: options.models,
    ...(facts === undefined ? {} : { facts }),
  })
  const sessionConfig = buildSessionStart(plan, options.sessionStart)
  // Each scenario gets its own application: a fresh executor over its own copy of the state, either built
  // here or handed in by the evaluator that wants to read it.
  const application = options.application ?? architecture.createApplication(visibleInput, facts)
  checkScenarioApplication(application, visibleInput.scenarioId, architecture.name)
  applicationsInUse.add(application)
  const { runtime } = application
  const clock = options.clock ?? (() => performance.now())
  // The faults of this session are dated on its clock (evaluator-side; the session never sees them).
  application.faults?.useClock(clock)
  const endpoint: LiveEndpointSettingsInput = { ...options.connection }
  const session = new LiveSession(endpoint, {
    clock,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
    ...(options.keepOutputAudio === undefined ? {} : { keepOutputAudio: options.keepOutputAudio }),
  })
  // Attached before start so no delegation event can slip past it.
  const controller: ArchitectureController = architecture.attach({
    session,
    application: architecture.application,
    runtime,
    plan,
    visibleInput,
    clock,
    faults: application.faults,
  })

  let started: SessionStartedEvent
  try {
    started = await session.start(sessionConfig)
  } catch (error) {
    await controller.close()
    await session.dispose()
    throw error
  }

  // A session that ends on its own (server close, transport failure) ends its delegated work too, so no wait
  // outlives the session; unpublished rounds then surface as the controller's retained error.
  void session.outcome.then(() => controller.close())
  let closing: Promise<LiveSessionOutcome> | null = null
  return {
    architecture: architecture.name,
    plan,
    sessionConfig,
    started,
    session,
    sendAudio: (pcm) => session.appendAudio(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)),
    events: () => session.events(),
    tools: {
      executions: () => application.executions(),
      executionCount: () => application.executionCount(),
      snapshot: () => application.snapshot(),
      initialState: structuredClone(application.initialState),
    },
    faults: application.faults,
    delegations: () => controller.observation(),
    requestedCalls: () => controller.requestedCalls(application.executions()),
    backendUsage: () => controller.backendUsage(),
    delegationFinished: (delegationId) => controller.delegationFinished(delegationId),
    waitForDelegatedWork: (waitOptions) => controller.wait(waitOptions),
    delegationFailure: () => controller.failure,
    close() {
      // A fault still holding work back would hold the close too: the call is over, so it lets go.
      application.faults?.timers.release()
      closing ??= controller.close().then(() => session.close())
      return closing
    },
  }
}

// Registrations per server and scenario: the n-th session of one scenario and architecture on one server gets
// the same token in every run, so the server's session and event ids (derived from the token) are reproducible
// whatever order concurrent scenarios connect in.
const registrations = new WeakMap<object, Map<string, number>>()

function offlineSessionToken(server: object, key: string): string {
  const counts = registrations.get(server) ?? new Map<string, number>()
  registrations.set(server, counts)
  const n = (counts.get(key) ?? 0) + 1
  counts.set(key, n)
  return `offline-${key}-${n}`
}

/**
 * Offline mode: registers a fresh session with the offline GPT-Live server (what the caller says, and the
 * assistant's offline behaviour built from the visible input) and returns the bearer token to connect with.
 */
export function registerOfflineAssistant(
  server: Pick<OfflineLiveServer, 'registerSession'>,
  visibleInput: AssistantVisibleInput,
  architecture: AssistantArchitecture,
  hearing: HeardUtterance[],
  extra: Pick<OfflineSessionScript, 'faults' | 'acknowledgement'> & {
    /** The session's fault profile: what the server must inject for this architecture (its backend model's). */
    sessionFaults?: SessionFaults | null
  } = {},
): string {
  const { sessionFaults, ...script } = extra
  const token = offlineSessionToken(server, `${visibleInput.scenarioId}-${architecture.name}`)
  const backendFaults = sessionFaults == null ? undefined : architecture.offlineServerFaults?.(sessionFaults)
  server.registerSession(token, {
    hearing,
    behaviour: architecture.offlineBehaviour(visibleInput),
    ...script,
    ...(backendFaults === undefined ? {} : { backendFaults }),
  })
  return token
}
