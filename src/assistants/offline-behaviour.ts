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
 * Deterministic stand-in for the voice model and its delegated backend. It is built only from what the
 * assistant is allowed to see: the conversation context, the authorized initial state and the public
 * business facts. It must never receive evaluator-only data.
 */
export interface OfflineBehaviour {
  /** The tool the backend would call for this caller utterance, or null to answer directly. */
  inferToolCall(userText: string): InferredToolCall | null
  /** What the voice model says without delegating (clarifying question, refusal, direct fact). */
  directAnswer(userText: string): string
  /** What the voice model says after a tool returned `output`. */
  finalAnswer(output: JsonObject): string
}
