// The rehearsal's RUN caller as one session plays it: its turn-taking, from what it hears. It says the offline
// caller's plan (run-caller.ts) by the offline caller's rules (offline-caller.ts DEFAULT_TURN_TAKING), which a
// live caller following its brief keeps too:
// - it answers the assistant's speech that began after its own last line (not a backchannel) ended, one line per
//   turn, never while a line of its own is under way; speech it talked over (it barged in) is no turn to answer;
// - an `interrupt` line cuts in once the assistant has been talking for bargeInAfterMs since that line, instead
//   of waiting for the end (a short "one moment" is not what it cuts into);
// - after a backchannel of its own it leaves the assistant a reply's worth of quiet (replyQuietMs + callerGapMs):
//   an assistant that answers the "mm-hmm" is heard and answered; one that rightly stays quiet hears the caller's
//   next line, as a caller on a phone goes on.
// What it decides it knows only from the call: the brief's plan, the sound and the words it heard, its own voice.
// It keeps a journal of what it heard and why it spoke or stayed quiet (CallerJournal), which a test prints when a
// call ran to its time limit: a call that stalls says which rule kept the caller quiet.
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import {
  DEFAULT_TURN_TAKING,
  type ScriptedLine,
  type TurnTakingRules,
} from '../../phases/run/offline-caller.ts'
import type { HeardUtterance } from '../live-server/index.ts'
import { CallerJournal } from './caller-journal.ts'
import type { Listening } from './caller-listener.ts'
import type { PlayedSession, SessionVoice } from './players.ts'
import { lineAfterHearing, type RehearsalCaller } from './run-caller.ts'

export class RehearsalCallerTurns implements PlayedSession {
  readonly behaviour: OfflineBehaviour
  /** What it heard and decided, on its received-audio clock. */
  readonly journal = new CallerJournal()
  readonly #caller: Pick<RehearsalCaller, 'lines' | 'backchannels'>
  readonly #voice: SessionVoice
  readonly #rules: TurnTakingRules
  /** Lines it said (or began to say), in plan order. */
  #said = 0
  /** A line of its own is decided or going out. */
  #speaking = false
  /** End of its last line that asks for a reply (a backchannel asks for none); the assistant's answer starts after. */
  #anchorMs = 0
  /** Its last line that ended: what it was and when it ended. */
  #lastLine: { line: ScriptedLine | undefined; endMs: number } | null = null
  /** Its received-audio clock as of the last chunk it heard (ms), for the journal. */
  #nowMs = 0
  /** The utterance the session is about to act on (heard() comes just before the session asks the behaviour). */
  #heard: HeardUtterance | null = null

  constructor(
    caller: Pick<RehearsalCaller, 'lines' | 'backchannels'>,
    voice: SessionVoice,
    rules: TurnTakingRules = DEFAULT_TURN_TAKING,
  ) {
    this.#caller = caller
    this.#voice = voice
    this.#rules = rules
    const reply = (heard: string) => this.#reply(heard)
    this.behaviour = {
      reasonedReply: reply,
      inferToolCall: () => null,
      directAnswer: (heard) => reply(heard) ?? 'Mm-hmm.',
      finalAnswer: () => 'Okay.',
    }
  }

  /** How many of its lines it said so far. */
  get saidCount(): number {
    return this.#said
  }

  heard(utterance: HeardUtterance): void {
    this.#heard = utterance
    this.journal.note(this.#nowMs, `heard "${utterance.text}" [${utterance.startMs}-${utterance.endMs}]`)
  }

  spoke(text: string): void {
    this.#said += 1
    this.#speaking = true
    this.journal.note(this.#nowMs, `says line ${this.#said}: "${text}"`)
  }

  stoppedSpeaking(interval: { startMs: number; endMs: number }): void {
    this.#speaking = false
    const line = this.#caller.lines[this.#said - 1]
    this.#lastLine = { line, endMs: interval.endMs }
    if (line?.action !== 'BACKCHANNEL') this.#anchorMs = interval.endMs
    this.journal.note(this.#nowMs, `line ${this.#said} went out [${interval.startMs}-${interval.endMs}]`)
  }

  listening(now: Listening): void {
    this.#nowMs = now.nowMs
    if (this.#speaking) return
    const next = this.#caller.lines[this.#said]
    if (next === undefined) return
    const talking = now.talkingSinceMs
    if (next.action === 'INTERRUPT' && talking !== null && talking >= this.#anchorMs) {
      if (now.nowMs - talking >= this.#rules.bargeInAfterMs) this.#say(next, 'barges in')
      return
    }
    const last = this.#lastLine
    if (last?.line?.action !== 'BACKCHANNEL' || talking !== null) return
    const quietSinceMs = Math.max(last.endMs, now.lastSoundEndMs ?? 0)
    if (now.nowMs - quietSinceMs >= this.#rules.replyQuietMs + this.#rules.callerGapMs)
      this.#say(next, 'goes on after its backchannel')
  }

  #say(line: ScriptedLine, why: string): void {
    this.#speaking = true
    this.journal.note(this.#nowMs, why)
    this.#voice.say(line.text)
  }

  #reply(heard: string): string | null {
    const utterance = this.#heard
    const atMs = this.#nowMs
    if (this.#speaking) {
      this.journal.note(atMs, 'stays quiet: a line of its own is decided or going out')
      return null
    }
    // Speech that began before its last line ended is what it talked over (it barged in): no turn to answer.
    if (utterance !== null && utterance.text === heard && utterance.startMs < this.#anchorMs) {
      this.journal.note(atMs, `stays quiet: it talked over that (its last line ended at ${this.#anchorMs})`)
      return null
    }
    const line = lineAfterHearing(this.#caller, heard, this.#said)
    if (line === null) {
      this.journal.note(
        atMs,
        `stays quiet: a hold, a backchannel or nothing left to say (${this.#said} said)`,
      )
      return null
    }
    // Its session speaks the line after a reasoning round; a journal with no "says" after this lost it.
    this.#speaking = true
    this.journal.note(atMs, `answers with line ${this.#said + 1}`)
    return line
  }
}
