// When a replay delivers what the recording received: the recording's one order (`seq`, over every frame both ways,
// every HTTP request and every HTTP answer) played on the replay's virtual media clock.
//
// A received item is *due* once the recording's audio before it has been sent now (the media clock has reached its
// place), and what it answers has been heard now (matched, or given up by a lenient replay): for a session's frame,
// everything the recording sent on that session before it; for an HTTP answer, its own request. Nothing else holds
// it: a session hears only its own socket and an HTTP server only its request, so an unrelated request the harness
// makes later now (the judge's requests queue behind a limiter) never holds up another answer. Each channel's items
// go out in the recorded order, at the moments the recording allows:
// - while the media clock synchronises before a frame (one of its round trips is waiting): every due item;
// - when the harness sends anything but audio (a command, a tool result, an HTTP request): every due item at once,
//   as the service answers what it is sent.
// Audio alone releases nothing: what the recording received after frame k goes out when the clock synchronises
// before frame k+1, which is when the recording's harness had it, whatever the wall clock does now.
//
// A client on the real-time clock (a replayed caller talking to a live assistant, src/cassettes/caller) never
// synchronises: there each item goes out as soon as what the recording sent before it on its own channel was heard.
//
// A round trip (src/live/round-trip.ts, not part of any recording) is answered once its session has been given
// everything the recording received on it before the session's next recorded frame, and the harness has sent what
// the recording sent before that frame on the session (a tool result, a delegation's answer) and over HTTP (a
// backend round after a tool ran, an observer question), which it does in reaction to what it was just given or
// after the previous frame. So the harness's own work lands between the same frames as in the recording (a tool
// that completed before a frame is dated at that frame's step, as recorded). If that does not come within
// HOLD_LIMIT_MS (the harness changed), the wait ends with a divergence naming what is missing, which is given up so
// the replay can go on.
import type { Cassette, CassetteFrame, HttpExchange } from './schema.ts'

/** How long a round trip waits for what the recording sent before the next frame (wall clock; a bound). */
export const HOLD_LIMIT_MS = 5_000

export type SendKind = 'append' | 'other' | 'http'

export interface ScheduledSend {
  seq: number
  /** A session's label, or one HTTP exchange's own channel. */
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

/** Ascending seqs with a pointer to the first one not yet passed (heard, delivered). */
class Cursor {
  readonly seqs: number[] = []
  index = 0

  /** The first seq not passed yet; Infinity when all were. */
  get head(): number {
    return this.index < this.seqs.length ? (this.seqs[this.index] as number) : Number.POSITIVE_INFINITY
  }

  advance(passed: (seq: number) => boolean): void {
    while (this.index < this.seqs.length && passed(this.seqs[this.index] as number)) this.index += 1
  }
}

const cursorOf = (cursors: Map<string, Cursor>, channel: string): Cursor => {
  let cursor = cursors.get(channel)
  if (cursor === undefined) {
    cursor = new Cursor()
    cursors.set(channel, cursor)
  }
  return cursor
}

/** How the client's media clock runs: virtual (it synchronises before frames) or real time (it never does). */
export type ScheduleClock = 'virtual' | 'real_time'

export class ReplaySchedule {
  readonly #hooks: ScheduleHooks
  readonly #realTime: boolean
  readonly #sends = new Map<number, ScheduledSend>()
  readonly #heard = new Set<number>()
  readonly #delivered = new Set<number>()
  /** Every recorded audio frame, all sessions: the media clock's position is the first one not heard. */
  readonly #audio = new Cursor()
  /** Every recorded HTTP request, all exchanges. */
  readonly #requests = new Cursor()
  /** Per channel: its audio frames, its other sends, its items. */
  readonly #frames = new Map<string, Cursor>()
  readonly #commands = new Map<string, Cursor>()
  readonly #received = new Map<string, Cursor>()
  readonly #items: ScheduledItem[]
  /** Index of the first item (all channels) not delivered yet. */
  #firstUndelivered = 0
  /** Everything recorded but audio frames (seq, in order): what makes a gap between two frames not quiet. */
  readonly #events: number[]
  readonly #waiting: WaitingRoundTrip[] = []
  #stopped = false

  constructor(
    sends: readonly ScheduledSend[],
    items: readonly ScheduledItem[],
    hooks: ScheduleHooks,
    clock: ScheduleClock = 'virtual',
  ) {
    this.#hooks = hooks
    this.#realTime = clock === 'real_time'
    const ordered = [...sends].sort((a, b) => a.seq - b.seq)
    for (const send of ordered) {
      this.#sends.set(send.seq, send)
      if (send.kind === 'append') {
        this.#audio.seqs.push(send.seq)
        cursorOf(this.#frames, send.channel).seqs.push(send.seq)
      } else {
        cursorOf(this.#commands, send.channel).seqs.push(send.seq)
        if (send.kind === 'http') this.#requests.seqs.push(send.seq)
      }
    }
    this.#items = [...items].sort((a, b) => a.seq - b.seq)
    for (const item of this.#items) cursorOf(this.#received, item.channel).seqs.push(item.seq)
    this.#events = [
      ...ordered.filter((send) => send.kind !== 'append').map((send) => send.seq),
      ...this.#items.map((item) => item.seq),
    ].sort((a, b) => a - b)
  }

  /** The recorded send `seq` was heard now (matched, or consumed as the closest one); its kind decides what follows. */
  heard(seq: number): void {
    const send = this.#sends.get(seq)
    if (send === undefined || this.#stopped) return
    this.#heard.add(seq)
    const passed = (candidate: number) => this.#heard.has(candidate)
    if (send.kind === 'append') {
      this.#audio.advance(passed)
      cursorOf(this.#frames, send.channel).advance(passed)
    } else {
      cursorOf(this.#commands, send.channel).advance(passed)
      if (send.kind === 'http') this.#requests.advance(passed)
    }
    if (this.#realTime || send.kind !== 'append' || this.#waiting.length > 0) this.#deliverDue()
    this.#answerReady()
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

  /**
   * Whether the recording had nothing but audio between `channel`'s frame number `framesSent` (its last one sent
   * now) and the next, and nothing before that is still owed: then no round trip is needed before the next frame.
   */
  quietBeforeFrame(channel: string, framesSent: number): boolean {
    const frames = this.#frames.get(channel)?.seqs
    if (frames === undefined || framesSent >= frames.length) return false
    const next = frames[framesSent] as number
    const owed = this.#items[this.#firstUndelivered]
    if (owed !== undefined && owed.seq < next) return false
    const previous = framesSent === 0 ? Number.NEGATIVE_INFINITY : (frames[framesSent - 1] as number)
    const after = firstAbove(this.#events, previous)
    return after >= this.#events.length || (this.#events[after] as number) > next
  }

  /** Nothing more is delivered or answered (a strict replay's first divergence, the end of the replay). */
  stop(): void {
    this.#stopped = true
    for (const waiting of this.#waiting.splice(0)) clearTimeout(waiting.timer)
  }

  #due(item: ScheduledItem): boolean {
    // Real time, the media clock's position is the session's own audio.
    const audio = this.#realTime ? cursorOf(this.#frames, item.channel).head : this.#audio.head
    return item.seq < audio && item.seq < cursorOf(this.#commands, item.channel).head
  }

  /** Delivers, in the recorded order, every due item whose channel has nothing earlier still waiting. */
  #deliverDue(): void {
    const blocked = new Set<string>()
    for (let index = this.#firstUndelivered; index < this.#items.length && !this.#stopped; index++) {
      const item = this.#items[index] as ScheduledItem
      // Past the media clock's position nothing is due.
      if (!this.#realTime && item.seq > this.#audio.head) break
      if (this.#delivered.has(item.seq) || blocked.has(item.channel)) continue
      if (!this.#due(item)) {
        blocked.add(item.channel)
        continue
      }
      this.#delivered.add(item.seq)
      cursorOf(this.#received, item.channel).advance((seq) => this.#delivered.has(seq))
      this.#hooks.deliver(item)
    }
    while (
      this.#firstUndelivered < this.#items.length &&
      this.#delivered.has((this.#items[this.#firstUndelivered] as ScheduledItem).seq)
    ) {
      this.#firstUndelivered += 1
    }
  }

  /** Whether `channel` has had everything before its next recorded frame, both ways, and the HTTP requests. */
  #ready(channel: string): boolean {
    const cut = cursorOf(this.#frames, channel).head
    if (cut === Number.POSITIVE_INFINITY) return true
    return (
      cursorOf(this.#received, channel).head > cut &&
      cursorOf(this.#commands, channel).head > cut &&
      this.#requests.head > cut
    )
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
    const cut = cursorOf(this.#frames, waiting.channel).head
    const commands = cursorOf(this.#commands, waiting.channel)
    const unheard = (cursor: Cursor) =>
      cursor.seqs.slice(cursor.index).filter((seq) => seq < cut && !this.#heard.has(seq))
    const missing = [...unheard(commands), ...unheard(this.#requests)]
      .sort((a, b) => a - b)
      .map((seq) => this.#sends.get(seq) as ScheduledSend)
    this.#hooks.missing(waiting.channel, missing)
    const passed = (seq: number) => this.#heard.has(seq)
    for (const send of missing) {
      this.#heard.add(send.seq)
      cursorOf(this.#commands, send.channel).advance(passed)
    }
    this.#requests.advance(passed)
    this.#deliverDue()
    this.#answerReady()
    // Still not ready (an item it waits for never became due): answer anyway; what is missing was named.
    if (this.#waiting.includes(waiting)) {
      this.#waiting.splice(this.#waiting.indexOf(waiting), 1)
      waiting.answer()
    }
  }
}

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

export type ScheduledWhat =
  | { type: 'frame'; frame: CassetteFrame }
  | { type: 'answer'; exchange: HttpExchange }

/** The channel of one HTTP exchange: its request and its answer, and nothing else. */
export const httpChannelOf = (exchange: HttpExchange): string => `http ${exchange.seq}`

/** The cassette's sends and received items in one schedule; `deliver` is told which frame or answer is due. */
export function scheduleOfCassette(
  cassette: Cassette,
  hooks: {
    deliver(item: ScheduledItem, what: ScheduledWhat): void
    missing(channel: string, sends: readonly ScheduledSend[]): void
  },
  clock: ScheduleClock = 'virtual',
): ReplaySchedule {
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
    const channel = httpChannelOf(exchange)
    sends.push({ seq: exchange.seq, channel, kind: 'http', message: `${exchange.method} ${exchange.path}` })
    items.push({ seq: exchange.answered_seq, channel })
    what.set(exchange.answered_seq, { type: 'answer', exchange })
  }
  return new ReplaySchedule(
    sends,
    items,
    { deliver: (item) => hooks.deliver(item, what.get(item.seq) as ScheduledWhat), missing: hooks.missing },
    clock,
  )
}
