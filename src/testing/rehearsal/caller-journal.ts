// What the rehearsal's RUN caller heard and why it spoke or stayed quiet, in order, on its received-audio clock.
// A call that runs to its time limit in a recording is a rehearsal caller that stayed quiet; the journal says by
// which rule (still speaking, talked over, a hold), so a flake in a full unit run explains itself. Bounded: a
// call that never ends keeps its last entries, which are the ones that tell.

/** The most entries kept per caller session. */
const MAX_ENTRIES = 60

export class CallerJournal {
  readonly #entries: string[] = []
  #dropped = 0

  /** One entry, `atMs` on the session's received-audio clock. */
  note(atMs: number, text: string): void {
    this.#entries.push(`${atMs} ${text}`)
    if (this.#entries.length > MAX_ENTRIES) {
      this.#entries.shift()
      this.#dropped += 1
    }
  }

  /** The entries, oldest first, after a line saying how many older ones were dropped (if any). */
  lines(): string[] {
    return this.#dropped === 0
      ? [...this.#entries]
      : [`(${this.#dropped} earlier entries dropped)`, ...this.#entries]
  }
}
