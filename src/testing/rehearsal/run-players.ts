// RUN's players for the dress-rehearsal server (players.ts): the GPT-Live caller session (run-caller.ts) and the
// completion observer's Responses requests (run-observer.ts). The assistant under test is the single-turn
// assistant player's (the same plan, the same offline behaviour an offline RUN uses), and each session hears the
// other through the harness's relay by content (caller-listener.ts; the server catalogues what every session
// says), and the caller takes its turns from what it hears (run-caller-turns.ts). The caller's reasoning backend is no HTTP request: as on the service, a caller session configured with
// Responses delegation runs its backend inside the session, so its rounds are the session's own (run-caller.ts).
import type { LoadedScenario } from '../../scenarios/index.ts'
import type { CallerJournal } from './caller-journal.ts'
import type { ResponsesPlayer, SessionPlayer } from './players.ts'
import { callerBehaviour, type RehearsalCaller, RehearsalCallerCast } from './run-caller.ts'
import { RehearsalCallerTurns } from './run-caller-turns.ts'
import { observerAnswer } from './run-observer.ts'

/** Caller sessions whose journal is kept per caller: a recording's both architectures, with trials to spare. */
const JOURNALS_PER_CALLER = 8

/** RUN's caller player, and the journal of each caller session it played (run-caller-turns.ts). */
export interface RunCallerPlayer extends SessionPlayer {
  /**
   * The journal of each session that played the scenario's caller, in the order they started; none: []. A caller
   * brief two scenarios share is one caller (run-caller.ts), so its journals are both scenarios' calls.
   */
  journals(scenarioId: string): string[][]
}

/** The simulated caller of every RUN scenario of the rehearsal, found from the brief its session starts with. */
export function runCallerPlayer(scenarios: readonly LoadedScenario[]): RunCallerPlayer {
  const cast = new RehearsalCallerCast(scenarios)
  const played = new Map<RehearsalCaller, CallerJournal[]>()
  return {
    name: 'RUN caller',
    behaviourFor(config) {
      const caller = cast.identify(config.instructions)
      return caller === null ? null : callerBehaviour(caller)
    },
    // Played with its turn-taking (run-caller-turns.ts): it barges in and goes on after its backchannel.
    play(config, voice) {
      const caller = cast.identify(config.instructions)
      if (caller === null) return null
      const turns = new RehearsalCallerTurns(caller, voice)
      // A long-lived server (live-evals offline-server) keeps the latest few per caller, not every call's.
      played.set(caller, [...(played.get(caller) ?? []), turns.journal].slice(-JOURNALS_PER_CALLER))
      return turns
    },
    journals: (scenarioId) =>
      cast
        .callersOf(scenarioId)
        .flatMap((caller) => (played.get(caller) ?? []).map((journal) => journal.lines())),
  }
}

/** The completion observer's structured requests (text format `completion_decision`), judged from their evidence. */
export const runObserverPlayer: ResponsesPlayer = {
  name: 'RUN completion observer',
  answer: (request) => observerAnswer(request) ?? null,
}
