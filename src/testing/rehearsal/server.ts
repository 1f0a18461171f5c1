// The dress-rehearsal server: one loopback port that answers everything a live run calls, so
// `LIVE_EVALS_MODE=live` runs its whole live code path (text-to-speech, real-time pacing, the GPT-Live sessions of
// both architectures, the client backend on the Responses API, the judge) without a key or the internet:
// - `/v1/live/sessions`: the strict offline GPT-Live server; each session's behaviour is chosen from its
//   instructions by the cast (players.ts), and it hears the caller's audio by content (caller-listener.ts);
// - `POST /v1/audio/speech`: the deterministic synthetic voice, remembered so that it is recognised when streamed;
// - `POST /v1/responses`: the players' answers (the client backend replayed through the offline backend, the
//   judge's scripted judgment); `POST /v1/decisions`: the Decisions judge's.
// Answers come from the bundled assistant's offline behaviours, the ones an offline run uses.
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import type { LoadedScenario } from '../../scenarios/index.ts'
import { type OfflineLiveServer, type SessionDirector, startOfflineLiveServer } from '../live-server/index.ts'
import type { ParsedSessionConfig } from '../live-server/session-config-schema.ts'
import { decisionsRoute } from '../responses-server/decisions-route.ts'
import { responsesRoute } from '../responses-server/responses-route.ts'
import { openAiRouteHandler } from '../responses-server/server.ts'
import { speechRoute } from '../responses-server/speech-route.ts'
import { assistantPlayers } from './assistant-players.ts'
import { CallerListener } from './caller-listener.ts'
import { loadRehearsalDatasets } from './datasets.ts'
import { decisionsJudgePlayer, responsesJudgePlayer } from './judge-players.ts'
import type { Cast, PlayedSession } from './players.ts'
import { runCallerPlayer, runObserverPlayer } from './run-players.ts'
import { SpeechCatalogue } from './speech-catalogue.ts'

/** The API key the printed environment carries: the server takes any, and a real one should never be sent here. */
export const REHEARSAL_API_KEY = 'rehearsal-any-key'

export interface RehearsalServerOptions {
  /** Dataset files whose scenarios are rehearsed (validated; recordings read). */
  datasets: readonly string[]
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number
  /**
   * More players, asked before the built-in ones (a phase's own: RUN's caller, observer, caller backend). Each
   * is built with the loaded scenarios and the server's speech catalogue.
   */
  players?: (context: RehearsalContext) => Partial<Cast>
  /** Called for a session no player recognises (it hears, and never speaks). */
  onUnknownSession?: (config: ParsedSessionConfig) => void
}

/** What a player is built with. */
export interface RehearsalContext {
  scenarios: readonly LoadedScenario[]
  /** What the server recognises in caller audio; a player may teach it more. */
  catalogue: SpeechCatalogue
}

export interface RehearsalServer {
  /** http://127.0.0.1:PORT/v1: the openai client's baseURL, and the GPT-Live endpoint. */
  readonly baseURL: string
  /** ws://127.0.0.1:PORT/v1/live/sessions */
  readonly url: string
  readonly port: number
  /** The environment a live run needs to use this server (OPENAI_BASE_URL, OPENAI_LIVE_ENDPOINT, …). */
  readonly env: Readonly<Record<string, string>>
  readonly scenarios: readonly LoadedScenario[]
  readonly catalogue: SpeechCatalogue
  /** The GPT-Live side (stats, limits). */
  readonly live: OfflineLiveServer
  /**
   * What each RUN caller session of a scenario heard and decided (run-caller-turns.ts), in the order the sessions
   * started: for the message of a call that ran to its time limit.
   */
  callerJournals(scenarioId: string): string[][]
  /** Drops every connection and stops listening. Safe to call more than once. */
  close(): Promise<void>
}

/**
 * Starts a rehearsal server for `datasets`. Throws a DatasetValidationError naming each file, scenario and field
 * for a broken dataset, and the listen error when the port cannot be bound.
 */
export async function startRehearsalServer(options: RehearsalServerOptions): Promise<RehearsalServer> {
  const catalogue = new SpeechCatalogue()
  const scenarios = await loadRehearsalDatasets(options.datasets, catalogue)
  const context: RehearsalContext = { scenarios, catalogue }
  const assistant = assistantPlayers(scenarios)
  const extra = options.players?.(context) ?? {}
  const runCaller = runCallerPlayer(scenarios)
  const cast: Cast = {
    // RUN's caller is found by its brief before any assistant (run-players.ts); its sessions are no assistant's.
    sessions: [...(extra.sessions ?? []), runCaller, assistant.session],
    responses: [...(extra.responses ?? []), runObserverPlayer, assistant.clientBackend, responsesJudgePlayer],
    decisions: [...(extra.decisions ?? []), decisionsJudgePlayer],
  }

  const director: SessionDirector = {
    direct({ config, hear, speechStarted, say }) {
      let played: PlayedSession | null = null
      let behaviour: OfflineBehaviour | undefined
      for (const player of cast.sessions) {
        played = player.play?.(config, { say }) ?? null
        behaviour = played?.behaviour ?? player.behaviourFor(config) ?? undefined
        if (behaviour !== undefined) break
      }
      if (behaviour === undefined) options.onUnknownSession?.(config)
      const listener = new CallerListener(
        catalogue,
        (utterance) => {
          played?.heard(utterance)
          hear(utterance)
        },
        speechStarted,
      )
      return {
        ...(behaviour === undefined ? {} : { behaviour }),
        receiveAudio: (samples) => {
          listener.receive(samples)
          played?.listening(listener.listening)
        },
        // Its own voice is known speech too (a simulated caller hears the assistant it talks to by it).
        spoke: (text, samples) => {
          catalogue.add(samples, { text, speech: null }, { synthesised: true })
          played?.spoke(text)
        },
        stoppedSpeaking: (interval) => played?.stoppedSpeaking(interval),
      }
    },
  }

  const http = openAiRouteHandler({
    record: false,
    routes: {
      'POST /v1/audio/speech': speechRoute({
        synthesize(request) {
          const samples = syntheticSpeech(request.input)
          catalogue.add(samples, { text: request.input, speech: null }, { synthesised: true })
          return samples
        },
      }),
      'POST /v1/responses': responsesRoute({
        async respond(request) {
          for (const player of cast.responses) {
            const answer = await player.answer(request)
            if (answer === null) continue
            return typeof answer === 'string'
              ? { fault: 'invalid_request', message: `${player.name}: ${answer}` }
              : answer
          }
          return {
            fault: 'invalid_request',
            message:
              'The rehearsal server has no answer for this request: its instructions belong to no rehearsed ' +
              'scenario and it is no judge request. Start the server with the dataset of this run (--dataset).',
          }
        },
      }),
      'POST /v1/decisions': decisionsRoute({
        respond(request) {
          for (const player of cast.decisions) {
            const answer = player.answer(request)
            if (answer !== null) return answer
          }
          return { fault: 'invalid_request', message: 'The rehearsal server has no answer for this request.' }
        },
      }),
    },
  })

  const live = await startOfflineLiveServer({
    ...(options.port === undefined ? {} : { port: options.port }),
    acceptAnyToken: true,
    director,
    httpHandler: (request, response) => http.handle(request, response),
  })
  const port = Number(new URL(live.baseURL).port)
  return {
    baseURL: live.baseURL,
    url: live.url,
    port,
    env: {
      OPENAI_BASE_URL: live.baseURL,
      OPENAI_LIVE_ENDPOINT: live.baseURL,
      OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: 'true',
      OPENAI_API_KEY: REHEARSAL_API_KEY,
    },
    scenarios,
    catalogue,
    live,
    callerJournals: (scenarioId) => runCaller.journals(scenarioId),
    close: () => live.close(),
  }
}
