// What the offline voice model remembers of its own session: each caller utterance it acted on and each of
// its own utterances as far as its output transcript went out (a yield cuts one short), in time order,
// handed to the behaviour as the earlier turns. Only what crossed the call is here: the hearing oracle's
// words and the model's own speech, never evaluator data. It also keeps what a yield withdrew before it
// was said, for the model to say at its next turn.
import type { SpokenTurn } from '../../assistants/offline-behaviour.ts'
import type { SaidUtterance } from './speech.ts'

export class VoiceMemory {
  /** Each entry's text is read when the turns are handed over, so a growing utterance counts as said so far. */
  readonly #turns: Array<{ role: SpokenTurn['role']; said: { text: string } }> = []
  #withheld: string[] = []

  /** The caller's utterance the model is about to act on. */
  heard(text: string): void {
    this.#turns.push({ role: 'user', said: { text } })
  }

  /** One of the model's utterances began to go out; `said.text` grows as its captions go out. */
  startedSaying(said: SaidUtterance): void {
    this.#turns.push({ role: 'assistant', said })
  }

  /** The conversation so far, oldest first (utterances cut before their first word are left out). */
  turns(): SpokenTurn[] {
    return this.#turns
      .filter((turn) => turn.said.text.length > 0)
      .map((turn) => ({ role: turn.role, text: turn.said.text }))
  }

  /** Utterances a yield withdrew before the model said any of them. */
  withhold(texts: readonly string[]): void {
    this.#withheld.push(...texts)
  }

  /** What is still to be said from earlier yields (and is no longer withheld). */
  takeWithheld(): string[] {
    return this.#withheld.splice(0)
  }
}
