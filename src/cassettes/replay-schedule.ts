// When a replay delivers what the recording received: the recording's one order (`seq`, over every frame both ways,
// every HTTP request and every HTTP answer) played on the replay's virtual media clock.
//
// A received item (a frame, an HTTP answer) is *due* once everything the recording sent before it has been heard
// now (matched, or given up by a lenient replay), and due items go out in the recorded order, at the moments the
// recording allows:
// - while the media clock synchronises before a frame (one of its round trips is waiting): all of them;
// - when the harness sends anything but audio (a command, a tool result, an HTTP request): at once, as the service
//   answers what it is sent.
// Audio alone releases nothing: what the recording received after frame k goes out when the clock synchronises
// before frame k+1, which is when the recording's harness had it, whatever the wall clock does now.
//
// A round trip (src/live/round-trip.ts, not part of any recording) is answered once its session has been given
// everything the recording received before that session's next recorded frame, and the harness has sent on it what
// the recording sent before that frame (a tool result, a delegation's answer), which it does in reaction to what
// it was just given. If that does not come within HOLD_LIMIT_MS (the harness changed), the wait ends with a
// divergence naming what is missing, and the recording's sends before the frame are given up so the replay can go on.

import type { Cassette, CassetteFrame, HttpExchange } from './schema.ts'

/** The index of the first value above `bound` in an ascending array (its length when there is none). */
function firstAbove(values: readonly number[], bound: number): number {
  let low = 0
  let high = values.length
  while (low < high) {
    const middle = (low + high) >> 1
    if ((values[middle] as number) > bound) high = middle
    else low = middle + 1
  }
  return low
}

/** How long a round trip waits for what the recording sent before the next frame (wall clock; a bound). */
export const HOLD_LIMIT_MS = 5_000

export type SendKind = 'append' | 'other' | 'http'

export interface ScheduledSend {
  seq: number
  channel: string
  kind: SendKind
  /** "session.commentary.append", "POST /v1/responses": names it in a divergence. */
  message: string
}

export interface ScheduledItem {
  seq: number
  channel: string
}

interface WaitingRoundTrip {
  channel: string
  answer: () => void
  timer: NodeJS.Timeout
}

export interface ScheduleHooks {
  /** Delivers one due item (a frame to its socket, an answer to its request). */
  deliver(item: ScheduledItem): void
  /** A round trip gave up waiting: what the recording sent before the frame and the harness did not. */
  missing(channel: string, sends: readonly ScheduledSend[]): void
}

export class ReplaySchedule {
  readonly #sends: ScheduledSend[]
  readonly #items: ScheduledItem[]
  readonly #hooks: ScheduleHooks
  readonly #heard = new Set<number>()
  /** Index of the first send not yet heard: every send before it was. */
  #frontier = 0
  /** Index of the first item not yet delivered. */
  #next = 0
  readonly #waiting: WaitingRoundTrip[] = []
  /** Each channel's recorded audio frames (seq, in order). */
  readonly #frames = new Map<string, number[]>()
  /** Everything recorded but audio frames (seq, in order): what makes a gap between two frames not quiet. */
  readonly #events: number[]
  #stopped = false

  constructor(sends: readonly ScheduledSend[], items: readonly ScheduledItem[], hooks: ScheduleHooks) {
    this.#sends = [...sends].sort((a, b) => a.seq - b.seq)
    this.#items = [...items].sort((a, b) => a.seq - b.seq)
    this.#hooks = hooks
    for (const send of this.#sends) {
      if (send.kind !== 'append') continue
      const frames = this.#frames.get(send.channel) ?? []
      frames.push(send.seq)
      this.#frames.set(send.channel, frames)
    }
    this.#events = [
      ...this.#sends.filter((send) => send.kind !== 'append').map((send) => send.seq),
      ...this.#items.map((item) => item.seq),
    ].sort((a, b) => a - b)
  }

  /**
   * Whether the recording had nothing but audio between `channel`'s frame number `framesSent` (its last one sent
   * now) and the next, and nothing before that is still owed: then no round trip is needed before the next frame.
   */
  quietBeforeFrame(channel: string, framesSent: number): boolean {
    const frames = this.#frames.get(channel)
    if (frames === undefined || framesSent >= frames.length) return false
    const next = frames[framesSent] as number
    if (this.#next < this.#items.length && (this.#items[this.#next] as ScheduledItem).seq < next) return false
    const previous = framesSent === 0 ? Number.NEGATIVE_INFINITY : (frames[framesSent - 1] as number)
    const after = firstAbove(this.#events, previous)
    return after >= this.#events.length || (this.#events[after] as number) > next
  }

  /** The recorded send `seq` was heard now (matched, or consumed as the closest one); its kind decides what follows. */
  heard(seq: number, kind: SendKind): void {
    this.#heard.add(seq)
    this.#advance(kind !== 'append' || this.#waiting.length > 0)
  }

  /** A round trip of `channel`'s media clock: answered once the recording's order allows (see the header). */
  roundTrip(channel: string, answer: () => void): void {
    if (this.#stopped) return
    const waiting: WaitingRoundTrip = {
      channel,
      answer,
      timer: setTimeout(() => this.#giveUp(waiting), HOLD_LIMIT_MS),
    }
    this.#waiting.push(waiting)
    this.#deliverDue()
    this.#answerReady()
  }

  /** Nothing more is delivered or answered (a strict replay's first divergence, the end of the replay). */
  stop(): void {
    this.#stopped = true
    for (const waiting of this.#waiting.splice(0)) clearTimeout(waiting.timer)
  }

  /** Moves the frontier past every heard send, delivers what is due (when allowed) and answers round trips. */
  #advance(deliver: boolean): void {
    while (this.#frontier < this.#sends.length && this.#heard.has(this.#seqAt(this.#frontier))) {
      this.#frontier += 1
    }
    if (deliver) this.#deliverDue()
    this.#answerReady()
  }

  #seqAt(index: number): number {
    return (this.#sends[index] as ScheduledSend).seq
  }

  /** The seq of the first send not yet heard (Infinity when all were). */
  get #frontierSeq(): number {
    return this.#frontier < this.#sends.length ? this.#seqAt(this.#frontier) : Number.POSITIVE_INFINITY
  }

  #deliverDue(): void {
    while (!this.#stopped && this.#next < this.#items.length) {
      const item = this.#items[this.#next] as ScheduledItem
      if (item.seq > this.#frontierSeq) return
      this.#next += 1
      this.#hooks.deliver(item)
    }
  }

  /** The recording's next audio frame on `channel` not yet heard: what a round trip there comes before. */
  #cut(channel: string): number {
    for (let index = this.#frontier; index < this.#sends.length; index++) {
      const send = this.#sends[index] as ScheduledSend
      if (send.channel === channel && send.kind === 'append' && !this.#heard.has(send.seq)) return send.seq
    }
    return Number.POSITIVE_INFINITY
  }

  /** What `channel` still waits for before its next frame: its undelivered items and its unheard sends. */
  #ready(channel: string): boolean {
    const cut = this.#cut(channel)
    if (cut === Number.POSITIVE_INFINITY) return true
    for (let index = this.#next; index < this.#items.length; index++) {
      const item = this.#items[index] as ScheduledItem
      if (item.seq > cut) break
      if (item.channel === channel) return false
    }
    return this.#missingBefore(channel, cut).length === 0
  }

  #missingBefore(channel: string, cut: number): ScheduledSend[] {
    const missing: ScheduledSend[] = []
    for (let index = this.#frontier; index < this.#sends.length; index++) {
      const send = this.#sends[index] as ScheduledSend
      if (send.seq > cut) break
      if (send.channel === channel && send.kind !== 'append' && !this.#heard.has(send.seq)) missing.push(send)
    }
    return missing
  }

  #answerReady(): void {
    for (const waiting of [...this.#waiting]) {
      if (this.#stopped) return
      if (!this.#ready(waiting.channel)) continue
      this.#waiting.splice(this.#waiting.indexOf(waiting), 1)
      clearTimeout(waiting.timer)
      waiting.answer()
    }
  }

  /** The harness did not send what the recording sent before the frame: say so, give it up, and go on. */
  #giveUp(waiting: WaitingRoundTrip): void {
    if (this.#stopped || !this.#waiting.includes(waiting)) return
    const cut = this.#cut(waiting.channel)
    // Everything unheard before the frame, on any channel: the items of this one wait on all of it.
    const unheard = this.#sends
      .slice(this.#frontier)
      .filter((send) => send.seq < cut && !this.#heard.has(send.seq))
    const own = unheard.filter((send) => send.channel === waiting.channel)
    this.#hooks.missing(waiting.channel, own.length > 0 ? own : unheard)
    for (const send of unheard) this.#heard.add(send.seq)
    this.#advance(true)
    // Still not ready (nothing was missing but an item never became due): answer anyway, the divergence is named.
    if (this.#waiting.includes(waiting)) {
      this.#waiting.splice(this.#waiting.indexOf(waiting), 1)
      waiting.answer()
    }
  }
}

export type ScheduledWhat =
  | { type: 'frame'; frame: CassetteFrame }
  | { type: 'answer'; exchange: HttpExchange }

/** The cassette's sends and received items in one schedule; `deliver` is told which frame or answer is due. */
export function scheduleOfCassette(
  cassette: Cassette,
  hooks: {
    deliver(item: ScheduledItem, what: ScheduledWhat): void
    missing(channel: string, sends: readonly ScheduledSend[]): void
  },
) {
  const sends: ScheduledSend[] = []
  const items: ScheduledItem[] = []
  const what = new Map<number, ScheduledWhat>()
  for (const session of cassette.sessions) {
    for (const frame of session.frames) {
      const type = String(frame.event.type)
      if (frame.direction === 'sent') {
        const kind = type === 'session.input_audio.append' ? 'append' : 'other'
        sends.push({ seq: frame.seq, channel: session.label, kind, message: type })
      } else {
        items.push({ seq: frame.seq, channel: session.label })
        what.set(frame.seq, { type: 'frame', frame })
      }
    }
  }
  for (const exchange of cassette.http) {
    sends.push({
      seq: exchange.seq,
      channel: 'http',
      kind: 'http',
      message: `${exchange.method} ${exchange.path}`,
    })
    items.push({ seq: exchange.answered_seq, channel: 'http' })
    what.set(exchange.answered_seq, { type: 'answer', exchange })
  }
  return new ReplaySchedule(sends, items, {
    deliver: (item) => hooks.deliver(item, what.get(item.seq) as ScheduledWhat),
    missing: hooks.missing,
  })
}
