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
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import {
  DEFAULT_TURN_TAKING,
  type ScriptedLine,
  type TurnTakingRules,
} from '../../phases/run/offline-caller.ts'
import type { HeardUtterance } from '../live-server/index.ts'
import type { Listening } from './caller-listener.ts'
import type { PlayedSession, SessionVoice } from './players.ts'
import { lineAfterHearing, type RehearsalCaller } from './run-caller.ts'

export class RehearsalCallerTurns implements PlayedSession {
  readonly behaviour: OfflineBehaviour
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
  }

  spoke(): void {
    this.#said += 1
    this.#speaking = true
  }

  stoppedSpeaking(interval: { startMs: number; endMs: number }): void {
    this.#speaking = false
    const line = this.#caller.lines[this.#said - 1]
    this.#lastLine = { line, endMs: interval.endMs }
    if (line?.action !== 'BACKCHANNEL') this.#anchorMs = interval.endMs
  }

  listening(now: Listening): void {
    if (this.#speaking) return
    const next = this.#caller.lines[this.#said]
    if (next === undefined) return
    const talking = now.talkingSinceMs
    if (next.action === 'INTERRUPT' && talking !== null && talking >= this.#anchorMs) {
      if (now.nowMs - talking >= this.#rules.bargeInAfterMs) this.#say(next)
      return
    }
    const last = this.#lastLine
    if (last?.line?.action !== 'BACKCHANNEL' || talking !== null) return
    const quietSinceMs = Math.max(last.endMs, now.lastSoundEndMs ?? 0)
    if (now.nowMs - quietSinceMs >= this.#rules.replyQuietMs + this.#rules.callerGapMs) this.#say(next)
  }

  #say(line: ScriptedLine): void {
    this.#speaking = true
    this.#voice.say(line.text)
  }

  #reply(heard: string): string | null {
    if (this.#speaking) return null
    const utterance = this.#heard
    // Speech that began before its last line ended is what it talked over (it barged in): no turn to answer.
    if (utterance !== null && utterance.text === heard && utterance.startMs < this.#anchorMs) return null
    const line = lineAfterHearing(this.#caller, heard, this.#said)
    if (line !== null) this.#speaking = true
    return line
  }
}
