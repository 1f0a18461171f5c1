// The application behind the assistant under test: its prompts, its tools with their implementation over a
// per-scenario state, the business facts it may show, and (for offline runs) a scripted voice behaviour.
// It is the seat for a user's own voice agent; our restaurant (Juniper Table) is the bundled example, in two
// independent copies (responses/application.ts, client/application.ts), built through the same seat.
import type { JsonObject, OfflineBehaviour } from './offline-behaviour.ts'
import type { FunctionToolDefinition } from './runtime/tool-definitions.ts'
import type { ToolExecutor } from './runtime/tool-executor.ts'

export interface OfflineBehaviourContext {
  /** The scenario's visible conversation context: the summary, then `role: text` history lines. */
  conversationContext: string
  /** The application state the assistant is authorized to read. */
  initialState: JsonObject
}

export interface AssistantApplication {
  /** Names the application in errors and results. */
  readonly name: string
  /** The GPT-Live voice instructions (the authorized context is appended per scenario). */
  readonly voicePrompt: string
  /** The delegated backend's instructions (the authorized context is appended per scenario). */
  readonly backendPrompt: string
  /** The function tools, in the definitions-file shape `{type: "function", name, description, parameters}`. */
  readonly tools: readonly FunctionToolDefinition[]
  /**
   * The business facts the assistant may see. `facts` are the executor's whole facts (private overrides
   * included; default: the application's own); what this returns must hold none of the private part.
   */
  publicFacts(facts?: JsonObject): JsonObject
  /**
   * Client delegation: what GPT-Live is given to say when the application's backend fails on a delegation (it
   * throws, answers blank or misses its deadline); null says nothing. Absent: the harness's BACKEND_FAILURE_ANSWER.
   */
  readonly backendFailureAnswer?: string | null
  /** A fresh executor over one scenario's initial state (deep-copied: it never shares state). */
  createExecutor(options: { initialState: JsonObject; facts?: JsonObject }): ToolExecutor
  /**
   * Offline runs only: the deterministic stand-in for the voice model and its backend (which caller text gets
   * which reply and tool call), built from the visible input only. Without it, an offline run says so.
   */
  offlineBehaviour?(context: OfflineBehaviourContext): OfflineBehaviour
  /**
   * True when `offlineBehaviour` is its author's own scripted rules (defineAssistant's `offline.rules`), not the
   * bundled example's: a broken offline RUN self-check then points at those rules, which stood in for the model.
   */
  readonly offlineRules?: boolean
}

/** The behaviour an offline run needs, or an error that says what to add. */
export function requireOfflineBehaviour(
  application: AssistantApplication,
  context: OfflineBehaviourContext,
): OfflineBehaviour {
  if (application.offlineBehaviour === undefined) {
    throw new Error(
      `The assistant application "${application.name}" has no offline behaviour, so it cannot run offline: ` +
        'give it `offline` rules (which caller text gets which reply and tool call), or run live with LIVE_EVALS_MODE=live.',
    )
  }
  return application.offlineBehaviour(context)
}
