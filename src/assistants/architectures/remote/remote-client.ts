// Client delegation answered by a separately deployed application (contract: shared/spec/client-endpoint.md).
// The architecture is still `client` to GPT-Live and to the graders: the same voice prompt, the same offline
// voice behaviour, the same delegation events. What differs is where the application runs: the service owns
// the backend, the tools and the state, so this scenario application only observes (its executions and
// snapshots are the service's evidence) and the controller is the remote connector. The architecture says so
// itself (`variant`, `toolEvidence`), so results can keep such a run apart from the in-process one: comparing
// them is not an architecture-only comparison, because the application itself may differ.
import type { AssistantApplication } from '../../application.ts'
import { restaurantApplication } from '../../client/application.ts'
import type { ObservationEvent } from '../../client/backend/application-backend.ts'
import { backendUsageOfEvents } from '../../client/backend/observed-usage.ts'
import { ToolRuntime } from '../../runtime/tool-runtime.ts'
import {
  type ArchitectureController,
  type AssistantArchitecture,
  offlineBehaviourFor,
  parseArguments,
  type RequestedCall,
  type ScenarioApplication,
  sessionFaultsOf,
} from '../architecture.ts'
import type { ClientDelegationObservation } from '../client.ts'
import { sessionConfigureFor } from './configure.ts'
import { RemoteClientConnector, type RemoteConnectorOptions } from './connector.ts'
import { settleAfterReplies, startAfter } from './session-hooks.ts'
import { type InitialStateSource, RemoteToolObserver } from './tool-observer.ts'

/** The run label/tag suffix of a remote run, apart from the in-process `client`. */
export const REMOTE_CLIENT_VARIANT = 'client_remote'
/** Where a remote run's tool executions and states come from. */
export const REMOTE_TOOL_EVIDENCE = 'remote_service'

export interface RemoteClientOptions
  extends Pick<
    RemoteConnectorOptions,
    'endpoint' | 'token' | 'allowInsecureLoopback' | 'openAiKeys' | 'heartbeatIntervalMs' | 'connection'
  > {
  /** Send the scenario's initial state and summary in `session.configure` (the service must accept them). */
  sendScenarioState: boolean
  /**
   * The application GPT-Live fronts: its voice prompt, tool definitions (for the plan) and offline voice
   * behaviour. Default: the restaurant's client copy, which the reference service runs too.
   */
  application?: AssistantApplication
}

/** What a remote run records beside the in-process client observation. */
export interface RemoteClientObservation extends ClientDelegationObservation {
  toolEvidence: typeof REMOTE_TOOL_EVIDENCE
  /** 'service' when the initial state is the service's `session.ready` state. */
  initialStateSource: InitialStateSource
}

export interface RemoteClientArchitecture extends AssistantArchitecture {
  readonly name: 'client'
  readonly variant: typeof REMOTE_CLIENT_VARIANT
  readonly toolEvidence: typeof REMOTE_TOOL_EVIDENCE
}

export function remoteClientDelegation(options: RemoteClientOptions): RemoteClientArchitecture {
  const application = options.application ?? restaurantApplication()
  // Each scenario application's observer, found again by the runtime the session hands to attach().
  const observers = new WeakMap<ToolRuntime, RemoteToolObserver>()
  return {
    name: 'client',
    variant: REMOTE_CLIENT_VARIANT,
    toolEvidence: REMOTE_TOOL_EVIDENCE,
    application,
    // Private facts stay with the service that owns the application; nothing of them is needed here.
    createApplication(visibleInput, _facts, options = {}): ScenarioApplication {
      const observer = new RemoteToolObserver(application.tools, visibleInput.initialState)
      const runtime = new ToolRuntime(observer)
      observers.set(runtime, observer)
      return {
        scenarioId: visibleInput.scenarioId,
        architecture: 'client',
        runtime,
        // The service runs the tools and the backend, out of reach (faultPlanes below); the line is ours.
        faults: sessionFaultsOf(options),
        executions: () => [...observer.executions],
        executionCount: () => observer.executions.length,
        snapshot: () => observer.snapshot(),
        get initialState() {
          return observer.initialState
        },
      }
    },
    offlineBehaviour: (visibleInput) => offlineBehaviourFor(application, visibleInput),
    // Its tools and backend run in the separately deployed service, out of the harness's reach.
    faultPlanes: () => [],
    faultReachNote:
      'its tools and backend run in the separately deployed client assistant (assistant.endpoint), out of the harness’s reach',
    attach(context): ArchitectureController {
      const observer = observers.get(context.runtime)
      if (observer === undefined) {
        throw new Error(
          `Scenario ${context.visibleInput.scenarioId}: the remote client assistant needs the application built ` +
            'by its own createApplication (its tools run in the service, not here).',
        )
      }
      const events: ObservationEvent[] = []
      const connector = new RemoteClientConnector({
        ...options,
        configure: () =>
          sessionConfigureFor(context.plan.input, context.visibleInput, {
            sendScenarioState: options.sendScenarioState,
          }),
        sendToLive: (event) => context.session.send(event) !== null,
        emit: (event) => events.push(structuredClone(event)),
        observer,
      })
      startAfter(context.session, () => connector.start())
      settleAfterReplies(context.session, connector)
      const unsubscribe = context.session.subscribe(({ event }) => {
        try {
          connector.observe(event)
        } catch {
          // Retained and reported once by the connector; wait() rethrows it. A Live listener must not throw.
        }
      })
      return {
        get pending() {
          return connector.pending
        },
        wait: (waitOptions) => connector.wait(waitOptions),
        get failure() {
          return connector.failure
        },
        close() {
          unsubscribe()
          return connector.close()
        },
        observation: () => {
          const records: RemoteClientObservation = {
            delegationIds: connector.delegationIds,
            commentary: connector.commentary(),
            events: structuredClone(events),
            toolEvidence: REMOTE_TOOL_EVIDENCE,
            initialStateSource: observer.initialStateSource,
          }
          return { architecture: 'client', records }
        },
        requestedCalls: () => requestedCallsOf(events),
        backendUsage: () => backendUsageOfEvents(events),
        // Pending runs until the service's valid completion (or the connector's failure).
        delegationFinished: (delegationId) => !connector.isPending(delegationId),
      }
    },
  }
}

/** The service's `tool.called` events, one per call_id, in order. */
function requestedCallsOf(events: readonly ObservationEvent[]): RequestedCall[] {
  const seen = new Set<string>()
  const calls: RequestedCall[] = []
  for (const event of events) {
    if (event.type !== 'tool.called' || typeof event.name !== 'string') continue
    const callId = typeof event.call_id === 'string' && event.call_id !== '' ? event.call_id : null
    if (callId !== null) {
      if (seen.has(callId)) continue
      seen.add(callId)
    }
    calls.push({ name: event.name, arguments: parseArguments(event.arguments) })
  }
  return calls
}
