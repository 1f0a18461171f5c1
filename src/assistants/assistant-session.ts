// The assistant under test for one scenario: a GPT-Live session configured from the assistant plan only, this
// scenario's own application (executor + tool runtime over a deep copy of the authorized initial state), and
// the delegation controller of the chosen architecture. The evaluator drives it with caller audio and reads
// back the event stream, the tool executions, the final state and the delegation records.
import type { ReceivedLiveEvent, SessionConfig, SessionStartedEvent } from '../live/index.ts'
import { type LiveEndpointSettingsInput, LiveSession } from '../live/index.ts'
import type { LiveSessionOutcome } from '../live/outcome.ts'
import { renderConversationContext } from '../scenarios/derived.ts'
import type { AssistantVisibleInput } from '../scenarios/visible.ts'
import type { HeardUtterance, OfflineLiveServer, OfflineSessionScript } from '../testing/live-server/index.ts'
import type { ApplicationBackend, ObservationEvent } from './client/backend/application-backend.ts'
import { restaurantOfflineBackend } from './client/backend/offline-backend.ts'
import { runtimeToolCallback } from './client/backend/tool-callback.ts'
import {
  ClientDelegationController,
  type CommentaryRecord,
} from './client/delegation/client-delegation-controller.ts'
import { RestaurantOfflineBehaviour as ClientOfflineBehaviour } from './client/offline/restaurant-offline-behaviour.ts'
import { RestaurantTools as ClientRestaurantTools } from './client/tools/restaurant-tools.ts'
import type { DelegationWaitOptions } from './delegation-lifecycle.ts'
import {
  type Architecture,
  type AssistantModels,
  type AssistantPlan,
  buildAssistantPlan,
  buildSessionStart,
  type SessionStartOptions,
} from './frontend/index.ts'
import type { JsonObject, OfflineBehaviour } from './offline-behaviour.ts'
import {
  ResponsesDelegationController,
  type ResponsesDelegationObservation,
} from './responses/delegation/index.ts'
import { RestaurantOfflineBehaviour as ResponsesOfflineBehaviour } from './responses/offline/restaurant-offline-behaviour.ts'
import { RestaurantTools as ResponsesRestaurantTools } from './responses/tools/restaurant-tools.ts'
import type { ToolExecutionRecord } from './runtime/tool-executor.ts'
import { ToolRuntime } from './runtime/tool-runtime.ts'

/**
 * The controller contract both architectures share (see delegation-lifecycle.ts): pending work, waiting for
 * it, closing once, and a serializable record of what it observed.
 */
export interface DelegationController {
  readonly pending: number
  wait(options?: DelegationWaitOptions): Promise<void>
  close(): Promise<void>
  observation(): unknown
}

/** What a client-delegation controller is built from: the started session, this scenario's tools and plan. */
export interface ClientControllerContext {
  session: LiveSession
  runtime: ToolRuntime
  plan: AssistantPlan
  visibleInput: AssistantVisibleInput
  clock: () => number
}

/** What the client-delegation side records: delegations answered, commentary and its acceptance, backend events. */
export interface ClientDelegationObservation {
  delegationIds: string[]
  commentary: CommentaryRecord[]
  /** The backend's published observations (handoffs, tool calls, completions, failures); never sent to Live. */
  events: ObservationEvent[]
}

export interface ClientDelegationHandle extends DelegationController {
  observation(): ClientDelegationObservation
}
export type ClientControllerFactory = (context: ClientControllerContext) => ClientDelegationHandle

/**
 * The in-process client controller (src/assistants/client/delegation) over a backend of your choice, fed by
 * the session's events and answering with `session.commentary.append`.
 */
export function clientControllerWith(
  backendFor: (context: ClientControllerContext) => ApplicationBackend,
): ClientControllerFactory {
  return (context) => {
    const events: ObservationEvent[] = []
    const controller = new ClientDelegationController({
      backend: backendFor(context),
      sendToLive: (event) => context.session.send(event) !== null,
      emit: (event) => events.push(structuredClone(event)),
      initialItems: context.plan.input,
    })
    const unsubscribe = context.session.subscribe(({ event }) => controller.observe(event))
    return {
      get pending() {
        return controller.pending
      },
      wait: (options) => controller.wait(options),
      close() {
        unsubscribe()
        return controller.close()
      },
      observation: () => ({
        delegationIds: controller.delegationIds,
        commentary: controller.commentary(),
        events: structuredClone(events),
      }),
    }
  }
}

/**
 * The client copy's deterministic restaurant backend for one scenario: it knows the visible conversation
 * context and the authorized initial state, and reaches the tools through this scenario's runtime.
 */
export function offlineClientBackend({ visibleInput, runtime }: ClientControllerContext): ApplicationBackend {
  return restaurantOfflineBackend({
    authorizedContext: renderConversationContext(visibleInput.context),
    // The backend keeps its own copy of the state.
    initialState: visibleInput.initialState,
    callTool: runtimeToolCallback(runtime),
  })
}

/** Offline client delegation: the client copy's deterministic restaurant backend on this scenario's tools. */
export const offlineClientController: ClientControllerFactory = clientControllerWith(offlineClientBackend)

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
  architecture: Architecture
  models: AssistantModels
  connection: AssistantConnection
  /**
   * The application's business facts, private overrides included: the executor decides with all of them, the
   * assistant sees only the public part. Default: the architecture's own facts.json.
   */
  facts?: JsonObject
  /**
   * This scenario's application, built beforehand with createScenarioApplication (so an evaluator can hold the
   * very state the assistant changes). Default: a fresh one. It must be built for this scenario and
   * architecture, serves one session only, and carries its own facts (do not also pass `facts`).
   */
  application?: ScenarioApplication
  /** Client delegation only: builds the application's controller (required for `architecture: 'client'`). */
  clientController?: ClientControllerFactory
  sessionStart?: SessionStartOptions
  /** Session clock in milliseconds; stamps events and records. Defaults to `performance.now()`. */
  clock?: () => number
  /** Aborting shuts the session down locally (synthetic, never a provider failure). */
  signal?: AbortSignal
}

/** What an evaluator reads of a scenario's application. */
export interface ApplicationView {
  /** Every execution, completed and failed, in the order they finished. */
  executions(): ToolExecutionRecord[]
  /** The application state now. */
  snapshot(): JsonObject
  /** The state the scenario started from (a copy). */
  readonly initialState: JsonObject
}

/**
 * One scenario's isolated application: the architecture's own restaurant executor over a deep copy of the
 * authorized initial state, and the tool runtime the assistant's calls go through.
 */
export interface ScenarioApplication extends ApplicationView {
  readonly scenarioId: string
  readonly architecture: Architecture
  readonly runtime: ToolRuntime
}

/**
 * A fresh application for one scenario in `architecture`'s own copy. `facts` are the application's business
 * facts, private overrides included (default: that copy's facts.json).
 */
export function createScenarioApplication(
  visibleInput: Pick<AssistantVisibleInput, 'scenarioId' | 'initialState'>,
  architecture: Architecture,
  facts?: JsonObject,
): ScenarioApplication {
  const initialState = structuredClone(visibleInput.initialState)
  // The executor deep-copies both, so it never shares state with this view or with the caller's facts.
  const executorOptions = { initialState, facts }
  const executor =
    architecture === 'responses'
      ? new ResponsesRestaurantTools(executorOptions)
      : new ClientRestaurantTools(executorOptions)
  const runtime = new ToolRuntime(executor)
  return {
    scenarioId: visibleInput.scenarioId,
    architecture,
    runtime,
    executions: () => runtime.executions(),
    snapshot: () => runtime.snapshot(),
    initialState,
  }
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
        'build a fresh one per session with createScenarioApplication(visibleInput, architecture).',
    )
  }
}

export type DelegationObservation =
  | { architecture: 'responses'; records: ResponsesDelegationObservation }
  | { architecture: 'client'; records: ClientDelegationObservation }

export interface AssistantUnderTest {
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
  delegations(): DelegationObservation
  /** Resolves once no delegated work is pending; rejects with the controller's retained error. */
  waitForDelegatedWork(options?: DelegationWaitOptions): Promise<void>
  /** Closes the controller, then the session; once. Never rejects: the outcome says how the session ended. */
  close(): Promise<LiveSessionOutcome>
}

export async function openAssistantUnderTest(options: OpenAssistantOptions): Promise<AssistantUnderTest> {
  const { visibleInput, architecture } = options
  if (architecture === 'client' && options.clientController === undefined) {
    throw new Error(
      `Scenario ${visibleInput.scenarioId}: client delegation needs a clientController factory (the ` +
        'application controller of src/assistants/client/delegation); pass one, or use architecture "responses".',
    )
  }
  if (options.application !== undefined && options.facts !== undefined) {
    throw new Error(
      `Scenario ${visibleInput.scenarioId}: pass the business facts to createScenarioApplication, not beside a ` +
        'pre-built application (its executor already decides with its own facts).',
    )
  }
  // The plan keeps a public copy and the executor its own copy: neither aliases the caller's facts.
  const { facts } = options
  const plan = buildAssistantPlan(visibleInput, {
    architecture,
    models: options.models,
    ...(facts === undefined ? {} : { facts }),
  })
  const sessionConfig = buildSessionStart(plan, options.sessionStart)
  // Each scenario gets its own application: a fresh executor over its own copy of the state, either built
  // here or handed in by the evaluator that wants to read it.
  const application = options.application ?? createScenarioApplication(visibleInput, architecture, facts)
  checkScenarioApplication(application, visibleInput.scenarioId, architecture)
  applicationsInUse.add(application)
  const { runtime } = application
  const clock = options.clock ?? (() => performance.now())
  const endpoint: LiveEndpointSettingsInput = { ...options.connection }
  const session = new LiveSession(endpoint, {
    clock,
    ...(options.signal === undefined ? {} : { signal: options.signal }),
  })
  // Attached before start so no delegation event can slip past it.
  const responsesController =
    architecture === 'responses' ? new ResponsesDelegationController(session, runtime, { clock }) : null
  const controller: DelegationController =
    responsesController ??
    (options.clientController as ClientControllerFactory)({
      session,
      runtime,
      plan,
      visibleInput,
      clock,
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
    plan,
    sessionConfig,
    started,
    session,
    sendAudio: (pcm) => session.appendAudio(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)),
    events: () => session.events(),
    tools: {
      executions: () => application.executions(),
      snapshot: () => application.snapshot(),
      initialState: structuredClone(application.initialState),
    },
    delegations: () =>
      responsesController !== null
        ? { architecture: 'responses', records: responsesController.observation() }
        : { architecture: 'client', records: (controller as ClientDelegationHandle).observation() },
    waitForDelegatedWork: (waitOptions) => controller.wait(waitOptions),
    close() {
      closing ??= controller.close().then(() => session.close())
      return closing
    },
  }
}

/** The assistant-owned offline behaviour of an architecture, built from the visible input only. */
function offlineBehaviourFor(visible: AssistantVisibleInput, architecture: Architecture): OfflineBehaviour {
  // The behaviour copies the state itself.
  const options = {
    conversationContext: renderConversationContext(visible.context),
    initialState: visible.initialState,
  }
  return architecture === 'responses'
    ? new ResponsesOfflineBehaviour(options)
    : new ClientOfflineBehaviour(options)
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
  architecture: Architecture,
  hearing: HeardUtterance[],
  extra: Pick<OfflineSessionScript, 'faults' | 'acknowledgement'> = {},
): string {
  const token = offlineSessionToken(server, `${visibleInput.scenarioId}-${architecture}`)
  server.registerSession(token, {
    hearing,
    behaviour: offlineBehaviourFor(visibleInput, architecture),
    ...extra,
  })
  return token
}
