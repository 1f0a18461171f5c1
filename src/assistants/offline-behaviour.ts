// The contract between an assistant's deterministic offline behaviour and whoever plays the voice
// model offline (the offline GPT-Live server, the offline client backend). Each backend architecture
// implements it in its own self-contained copy; nothing here knows about restaurants.

/** A JSON object as tools receive and return it. */
export type JsonObject = { [key: string]: unknown }

/** A tool call the offline model decided to make. */
export interface InferredToolCall {
  name: string
  arguments: JsonObject
}

/**
 * One earlier turn of the conversation as the assistant itself perceived it: what it heard the caller say
 * (`user`) and what it said (`assistant`). Only what crossed the call; never evaluator data.
 */
export interface SpokenTurn {
  role: 'user' | 'assistant'
  text: string
}

/**
 * Deterministic stand-in for the voice model and its delegated backend. It is built only from what the
 * assistant is allowed to see: the conversation context, the authorized initial state and the public
 * business facts. It must never receive evaluator-only data.
 *
 * `earlier` is the conversation before the current utterance, oldest first (empty on a first turn). It is
 * optional so that a behaviour written for single utterances (one argument) keeps working; whoever plays the
 * voice model always passes it.
 */
export interface OfflineBehaviour {
  /** The tool the backend would call for this caller utterance, or null to answer directly. */
  inferToolCall(userText: string, earlier?: readonly SpokenTurn[]): InferredToolCall | null
  /** What the voice model says without delegating (clarifying question, refusal, direct fact). */
  directAnswer(userText: string, earlier?: readonly SpokenTurn[]): string
  /** What the voice model says after a tool returned `output`. */
  finalAnswer(output: JsonObject): string
  /**
   * Optional, for a voice model without tools whose reasoning backend decides every reply (the simulated caller
   * a dress rehearsal plays): what it says after hearing `userText`, or null to keep listening. When present it
   * replaces the three methods above for turn-taking: with Responses delegation each reply is a backend round
   * whose message the voice model speaks, without an acknowledgement.
   */
  reasonedReply?(userText: string, earlier?: readonly SpokenTurn[]): string | null
  /**
   * Optional: what the voice model says while delegated work keeps the caller waiting (every few seconds of a
   * slow or stalled backend); absent, it waits in silence.
   */
  progressUpdate?(): string
  /** Optional: what the voice model says when its delegated backend failed; absent, it says nothing. */
  backendFailed?(): string
}
