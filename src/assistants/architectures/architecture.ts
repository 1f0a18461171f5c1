// The assistant under test as one object per delegation architecture. Everything that differs between Responses
// delegation, in-process client delegation (and, later, the remote client endpoint) lives behind this seat, so
// the session, the phases and the graders never branch on the architecture's name.
import type { FaultPlane } from '../../config/fault-profiles.ts'
import type { ScenarioFaultProfile } from '../../faults/scenario-profile.ts'
import { SessionFaults } from '../../faults/session.ts'
import type { LiveSession } from '../../live/index.ts'
import type { ObservedResponseUsage } from '../../reporting/consumption.ts'
import { renderConversationContext } from '../../scenarios/derived.ts'
import type { AssistantVisibleInput } from '../../scenarios/visible.ts'
import type { OfflineServerFaults } from '../../testing/live-server/script.ts'
import { type AssistantApplication, requireOfflineBehaviour } from '../application.ts'
import type { DelegationWaitOptions } from '../delegation-lifecycle.ts'
import type { Architecture, AssistantPlan } from '../frontend/index.ts'
import type { JsonObject, OfflineBehaviour } from '../offline-behaviour.ts'
import type { ResponsesDelegationObservation } from '../responses/delegation/index.ts'
import type { ToolExecutionRecord } from '../runtime/tool-executor.ts'
import { ToolRuntime } from '../runtime/tool-runtime.ts'
import type { ClientDelegationObservation } from './client.ts'

/** What an evaluator reads of a scenario's application. */
export interface ApplicationView {
  /** Every execution, completed and failed, in the order they finished. */
  executions(): ToolExecutionRecord[]
  /** How many executions so far (executions().length, without the copy). */
  executionCount(): number
  /** The application state now. */
  snapshot(): JsonObject
  /** The state the scenario started from (a copy). */
  readonly initialState: JsonObject
}

/**
 * One scenario's isolated application: the architecture's own executor over a deep copy of the authorized
 * initial state, and the tool runtime the assistant's calls go through.
 */
export interface ScenarioApplication extends ApplicationView {
  readonly scenarioId: string
  readonly architecture: Architecture
  readonly runtime: ToolRuntime
  /**
   * The scenario's fault profile at work in this application's session (evaluator-side: its draws, timers and
   * the log of what it injected); null when the scenario runs clean.
   */
  readonly faults: SessionFaults | null
}

/** How a scenario's application is built beyond its visible input. */
export interface ApplicationOptions {
  /** The scenario's fault profile (faults/scenario-profile.ts); null or absent: clean. */
  faults?: ScenarioFaultProfile | null
}

/** What a controller is attached to: the (not yet started) session, this scenario's tools and plan. */
export interface ControllerContext {
  session: LiveSession
  /** The application behind the assistant (its tools, prompts, offline behaviour). */
  application: AssistantApplication
  runtime: ToolRuntime
  plan: AssistantPlan
  visibleInput: AssistantVisibleInput
  clock: () => number
  /** The session's faults (evaluator-side), for an architecture that injects the backend's; null when clean. */
  faults: SessionFaults | null
}

/** Each architecture's record of its delegations, tagged with the architecture's name. */
export type DelegationObservation =
  | { architecture: 'responses'; records: ResponsesDelegationObservation }
  | { architecture: 'client'; records: ClientDelegationObservation }

/** A tool call the backend asked for, arguments parsed (an unparsable string is `{}`). */
export interface RequestedCall {
  name: string
  arguments: Record<string, unknown>
}

/**
 * The delegation side of one session. It shares the lifecycle of delegation-lifecycle.ts (pending work,
 * waiting for it, closing once) and answers, in the architecture's own terms, what the evaluator observes.
 */
export interface ArchitectureController {
  readonly pending: number
  wait(options?: DelegationWaitOptions): Promise<void>
  /** The retained failure a wait() would reject with at once, or null; read without waiting. */
  readonly failure: Error | null
  close(): Promise<void>
  /** A serializable record of what it observed (delegations, requested calls, commentary, backend events). */
  observation(): DelegationObservation
  /** The tool calls the backend asked for, in request order, one per call. */
  requestedCalls(executions: readonly ToolExecutionRecord[]): RequestedCall[]
  /** Usage of the backend model per backend response, unknown as null (never the judge's). */
  backendUsage(): (ObservedResponseUsage | null)[]
  /** Whether the backend's work for this delegation is over (answered, and its tool results published). */
  delegationFinished(delegationId: string): boolean
}

export interface AssistantArchitecture {
  readonly name: Architecture
  /** The application this architecture serves (the restaurant by default, or a user's own). */
  readonly application: AssistantApplication
  /** A fresh application for one scenario; `facts` include private overrides (default: the copy's own). */
  createApplication(
    visibleInput: Pick<AssistantVisibleInput, 'scenarioId' | 'initialState'>,
    facts?: JsonObject,
    options?: ApplicationOptions,
  ): ScenarioApplication
  /**
   * The fault planes the harness can inject into this architecture in a mode (the audio transport is the
   * harness's own and always reachable): a plane missing here makes a profile with rules on it refuse to run.
   */
  faultPlanes(mode: 'offline' | 'live'): readonly Exclude<FaultPlane, 'transport'>[]
  /** Why the planes faultPlanes leaves out are out of reach, when the architecture can say better than its name. */
  readonly faultReachNote?: string
  /**
   * Offline: what the offline GPT-Live server must inject for this architecture (Responses delegation's backend
   * model is played there); nothing for an architecture whose backend runs on our side.
   */
  offlineServerFaults?(faults: SessionFaults): OfflineServerFaults
  /** The assistant-owned offline voice behaviour, built from the visible input only. */
  offlineBehaviour(visibleInput: AssistantVisibleInput): OfflineBehaviour
  /** Called before `session.start`, so no delegation event can slip past the controller. */
  attach(context: ControllerContext): ArchitectureController
}

/**
 * A fresh scenario application: the application's executor over a deep copy of the authorized initial state,
 * behind the tool runtime. The executor deep-copies both state and facts, so it shares nothing.
 */
export function scenarioApplicationOf(
  application: AssistantApplication,
  architecture: Architecture,
  visibleInput: Pick<AssistantVisibleInput, 'scenarioId' | 'initialState'>,
  facts?: JsonObject,
  options: ApplicationOptions = {},
): ScenarioApplication {
  const initialState = structuredClone(visibleInput.initialState)
  const faults = sessionFaultsOf(options)
  const runtime = new ToolRuntime(
    application.createExecutor({ initialState, ...(facts === undefined ? {} : { facts }) }),
    { faults },
  )
  return {
    scenarioId: visibleInput.scenarioId,
    architecture,
    runtime,
    faults,
    executions: () => runtime.executions(),
    executionCount: () => runtime.executionCount(),
    snapshot: () => runtime.snapshot(),
    initialState,
  }
}

/** A fresh SessionFaults for one application's session, or null when the scenario runs clean. */
export function sessionFaultsOf(options: ApplicationOptions): SessionFaults | null {
  const chosen = options.faults ?? null
  return chosen === null ? null : new SessionFaults(chosen.profile, chosen.source)
}

/** The application's offline voice behaviour for one scenario, built from its visible input only. */
export function offlineBehaviourFor(
  application: AssistantApplication,
  visibleInput: AssistantVisibleInput,
): OfflineBehaviour {
  return requireOfflineBehaviour(application, {
    conversationContext: renderConversationContext(visibleInput.context),
    initialState: visibleInput.initialState,
  })
}

/** Arguments as graders compare them: an object, or `{}` when the backend sent something unparsable. */
export function parseArguments(raw: unknown): Record<string, unknown> {
  if (typeof raw === 'object' && raw !== null && !Array.isArray(raw)) return raw as Record<string, unknown>
  if (typeof raw !== 'string') return {}
  try {
    const parsed: unknown = JSON.parse(raw)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}
