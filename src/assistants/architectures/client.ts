// Client delegation in process: our application backend answers GPT-Live's delegations through commentary. The
// backend is the application's own choice: the client copy's deterministic restaurant backend offline, the
// OpenAI reference backend live (live-client-backend.ts), or a user's.
import { FaultyBackend } from '../../faults/backend.ts'
import { renderConversationContext } from '../../scenarios/derived.ts'
import { type AssistantApplication, requireOfflineBehaviour } from '../application.ts'
import { restaurantApplication } from '../client/application.ts'
import type {
  ApplicationBackend,
  ApplicationToolCallback,
  ObservationEvent,
} from '../client/backend/application-backend.ts'
import { backendUsageOfEvents } from '../client/backend/observed-usage.ts'
import { OfflineApplicationBackend } from '../client/backend/offline-backend.ts'
import { runtimeToolCallback } from '../client/backend/tool-callback.ts'
import {
  ClientDelegationController,
  type CommentaryRecord,
} from '../client/delegation/client-delegation-controller.ts'
import {
  type ArchitectureController,
  type AssistantArchitecture,
  type ControllerContext,
  offlineBehaviourFor,
  parseArguments,
  scenarioApplicationOf,
} from './architecture.ts'

/** What the client-delegation side records: delegations answered, commentary and its acceptance, backend events. */
export interface ClientDelegationObservation {
  delegationIds: string[]
  commentary: CommentaryRecord[]
  /** The backend's published observations (handoffs, tool calls, completions, failures); never sent to Live. */
  events: ObservationEvent[]
}

/** The application backend that answers one scenario's delegations. */
export type ClientBackendFactory = (context: ControllerContext) => ApplicationBackend

/**
 * The application's deterministic offline backend for one scenario: its offline behaviour plays the backend
 * model, knowing the visible conversation context and the authorized initial state, and reaches the tools
 * through this scenario's runtime.
 */
export const offlineClientBackend: ClientBackendFactory = ({ visibleInput, runtime, application }) =>
  offlineBackendOf(application, visibleInput, runtimeToolCallback(runtime))

/**
 * The same backend with its tools reached through `callTool` (the dress-rehearsal server replays a live run's
 * client backend with it, where the run's own application executed the tools).
 */
export function offlineBackendOf(
  application: AssistantApplication,
  visibleInput: Pick<ControllerContext['visibleInput'], 'context' | 'initialState'>,
  callTool: ApplicationToolCallback,
): OfflineApplicationBackend {
  // The backend keeps its own copy of the state.
  const initialState = structuredClone(visibleInput.initialState)
  return new OfflineApplicationBackend({
    authorizedContext: renderConversationContext(visibleInput.context),
    callTool,
    behaviourFor: (conversationContext) =>
      requireOfflineBehaviour(application, { conversationContext, initialState }),
  })
}

/**
 * Client delegation of `application` (default: the restaurant's client copy), answered by `backendFor`'s
 * backend (default: the application's offline backend).
 */
export function clientDelegation(
  backendFor: ClientBackendFactory = offlineClientBackend,
  application: AssistantApplication = restaurantApplication(),
): AssistantArchitecture {
  return {
    name: 'client',
    application,
    createApplication: (visibleInput, facts, options) =>
      scenarioApplicationOf(application, 'client', visibleInput, facts, options),
    // The application's backend runs on our side in both modes: its answer can fail or stall offline and live.
    faultPlanes: () => ['tool', 'backend'],
    offlineBehaviour: (visibleInput) => offlineBehaviourFor(application, visibleInput),
    attach(context): ArchitectureController {
      const events: ObservationEvent[] = []
      const backend = backendFor(context)
      const controller = new ClientDelegationController({
        backend: context.faults === null ? backend : new FaultyBackend(backend, context.faults),
        sendToLive: (event) => context.session.send(event) !== null,
        emit: (event) => events.push(structuredClone(event)),
        initialItems: context.plan.input,
        ...(application.backendFailureAnswer === undefined
          ? {}
          : { failureAnswer: application.backendFailureAnswer }),
      })
      const unsubscribe = context.session.subscribe(({ event }) => controller.observe(event))
      return {
        get pending() {
          return controller.pending
        },
        wait: (options) => controller.wait(options),
        get failure() {
          return controller.error
        },
        close() {
          unsubscribe()
          return controller.close()
        },
        observation: () => ({
          architecture: 'client',
          records: {
            delegationIds: controller.delegationIds,
            commentary: controller.commentary(),
            events: structuredClone(events),
          },
        }),
        // The application's backend calls tools directly: every execution is one request.
        requestedCalls: (executions) =>
          executions.map((execution) => ({
            name: execution.name,
            arguments: parseArguments(execution.arguments),
          })),
        // What the backend published: the OpenAI backend's stream completions, the offline backend's estimate.
        backendUsage: () => backendUsageOfEvents(events),
        // Its backend's work is over once its answer went out (or the backend failed): a slow or stalled backend
        // keeps the caller waiting, as Responses delegation's pending rounds do.
        delegationFinished: (delegationId) => !controller.isRunning(delegationId),
      }
    },
  }
}
