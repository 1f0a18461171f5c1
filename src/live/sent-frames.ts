// Sent-frame notification, split out of session.ts: the shapes describing a frame that left for the server and
// the listener set told about each one. The session owns when a frame goes out; this file owns who hears of it.
import type { ClientEvent } from './events.ts'

export interface SentClientEvent {
  eventId: string
  sentAtMs: number
  /** Receive-log position at send time; replies can only come after it. */
  seq: number
}

/** A frame as it left for the server: the exact event, when (session clock) and after how many received events. */
export interface SentLiveEvent {
  event: ClientEvent
  sentAtMs: number
  /** Receive-log position at send time; replies can only come after it. */
  seq: number
}

export type SentEventListener = (sent: SentLiveEvent) => void

/** The listeners registered through `LiveSession.onSent`, told synchronously and in order about every sent frame. */
export class SentFrameListeners {
  readonly #listeners = new Set<SentEventListener>()

  /** Registers `listener` for every frame sent from now on; returns the unsubscribe function. */
  add(listener: SentEventListener): () => void {
    this.#listeners.add(listener)
    return () => {
      this.#listeners.delete(listener)
    }
  }

  /** Whether anyone listens (a sender can then skip building what only listeners would read). */
  get listening(): boolean {
    return this.#listeners.size > 0
  }

  notify(event: ClientEvent, sent: { sentAtMs: number; seq: number }): void {
    // Audio appends are most of the frames; with nobody listening they cost nothing more.
    if (this.#listeners.size === 0) return
    const notice: SentLiveEvent = { event, ...sent }
    for (const listener of this.#listeners) listener(notice)
  }
}
