// The session timeline of the offline server. Its only clock is the caller audio it has received: every
// timestamp it emits (transcripts, offset_ms, appended acks) and every scheduled action is placed on that
// clock, so the same frames produce the same events whatever the wall clock did.

export type TimelineAction = () => void

/** `output` work (speech already decided) drains at close; `listening` work (hearing, decisions) is dropped. */
export type TimelineWork = 'output' | 'listening'

interface Scheduled {
  atMs: number
  seq: number
  work: TimelineWork
  action: TimelineAction
}

export class AudioClockTimeline {
  readonly #bytesPerSecond: number
  #receivedBytes = 0
  #seq = 0
  #agenda: Scheduled[] = []
  #running = false
  #stopped = false

  /** `sampleRateHz` of 16-bit mono PCM. */
  constructor(sampleRateHz: number) {
    this.#bytesPerSecond = sampleRateHz * 2
  }

  /** Milliseconds of caller audio received so far (whole milliseconds, rounded down). */
  get nowMs(): number {
    return Math.floor((this.#receivedBytes * 1000) / this.#bytesPerSecond)
  }

  /** Exact received-audio duration in seconds (for usage). */
  get receivedSeconds(): number {
    return this.#receivedBytes / this.#bytesPerSecond
  }

  /** Records received audio and runs everything that became due, in time order (ties in scheduling order). */
  receive(byteCount: number): void {
    this.#receivedBytes += byteCount
    this.runDue()
  }

  /**
   * Runs `action` once the clock reaches `atMs` (immediately, on the next `runDue`, if it already has).
   * Ties run in scheduling order, except that `ahead` puts the action before everything else due at the
   * same instant (what happens at an instant must be seen before output that starts at it).
   */
  schedule(atMs: number, work: TimelineWork, action: TimelineAction, ahead = false): void {
    const entry = { atMs, seq: this.#seq++, work, action }
    let index = this.#agenda.length
    const after = (other: number) => (ahead ? other >= atMs : other > atMs)
    while (index > 0 && after(this.#agenda[index - 1]?.atMs ?? 0)) index--
    this.#agenda.splice(index, 0, entry)
  }

  /** Runs due actions; actions may schedule more, which run in the same pass when already due. */
  runDue(): void {
    if (this.#running) return
    this.#running = true
    try {
      while (!this.#stopped) {
        const next = this.#agenda[0]
        if (next === undefined || next.atMs > this.nowMs) break
        this.#agenda.shift()
        next.action()
      }
    } finally {
      this.#running = false
    }
  }

  /** Removes everything still scheduled and returns the `output` work, in time order (drained at close). */
  takePendingOutput(): TimelineAction[] {
    const pending = this.#agenda.filter((entry) => entry.work === 'output').map((entry) => entry.action)
    this.#agenda = []
    return pending
  }

  /** Nothing scheduled runs any more (the session ended). */
  stop(): void {
    this.#stopped = true
    this.#agenda = []
  }
}
