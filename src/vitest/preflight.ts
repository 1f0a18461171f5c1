// Before the first scenario of a live run, one cheap request per endpoint the run needs: a GPT-Live session opened
// and closed with each GPT-Live model the run uses (every model of execution.models, and RUN's caller model unless
// replay.caller plays the caller from a recording), and the model lookup (`GET /models/{model}`, free) on the HTTP
// API for text-to-speech and the Responses API. A wrong key or a dead endpoint then stops the run with one
// message naming the URL, what answered and the variable to change, instead of failing every scenario after its
// own deadline.
// Only an unreachable endpoint and a refused key (401, 403, 429) stop the run: any other answer (a 404 from a
// proxy that has no model list) proves the address and the key work, and the scenarios report the rest.
import OpenAI, { APIConnectionError, APIError } from 'openai'
import { HarnessConfigError, type PhaseSettings } from '../config/index.ts'
import { modelsSetting, modelsToEvaluate } from '../config/live-models.ts'
import { type LivePreflightProblem, networkCode, preflightLiveSession } from '../live/preflight.ts'
import { architecturesToEvaluate } from './settings.ts'

/** Long enough for a healthy service, short enough that a black hole stops the run within seconds. */
export const PREFLIGHT_TIMEOUT_MS = 5_000

interface HttpCheck {
  /** What the run uses the endpoint for, as the message names it. */
  purpose: string
  apiKey: string
  /** The variable that holds `apiKey`. */
  keyVariable: string
  model: string
}

interface Problem extends LivePreflightProblem {
  purpose: string
  keyVariable: string
  addressVariable: string
  /** A GPT-Live model the endpoint refused, and the setting that names it. */
  model?: LiveModelUse
}

/** A GPT-Live model the run opens sessions with, and the setting (and variable) that chose it. */
export interface LiveModelUse {
  model: string
  setting: string
}

/**
 * Every GPT-Live model a live run of these settings opens sessions with, once each: the models under test, then
 * RUN's simulated caller's when it is another. With replay.caller the caller's session is played from a cassette
 * by a loopback replay server (src/cassettes/caller), so no session with the caller's model is opened.
 */
export function liveModelsFor(settings: PhaseSettings): LiveModelUse[] {
  const setting = modelsSetting(settings)
  const uses = modelsToEvaluate(settings).map((model) => ({ model, setting }))
  const callerIsLive = settings.phase === 'run' && settings.replay.caller === null
  if (callerIsLive && !uses.some((use) => use.model === settings.simulation.simulator_model)) {
    uses.push({
      model: settings.simulation.simulator_model,
      setting: 'simulation.simulator_model (LIVE_EVALS_SIMULATOR_MODEL)',
    })
  }
  return uses
}

/** The HTTP API checks a live run of these settings needs, one per distinct key. */
export function httpChecksFor(settings: PhaseSettings): HttpCheck[] {
  const key = settings.credentials.openai_api_key
  if (key === null) return []
  const checks: HttpCheck[] = []
  if (settings.phase === 'crawl') {
    checks.push({
      purpose: 'text-to-speech',
      apiKey: key,
      keyVariable: 'OPENAI_API_KEY',
      model: settings.models.tts_model,
    })
  }
  const clientBackend =
    architecturesToEvaluate(settings).includes('client') && settings.assistant.endpoint === null
  const responsesKey = settings.credentials.responses_api_key
  if (clientBackend && responsesKey !== null && responsesKey !== key) {
    checks.push({
      purpose: 'the Responses API (client backend)',
      apiKey: responsesKey,
      keyVariable: 'OPENAI_RESPONSES_API_KEY',
      model: settings.models.backend_model,
    })
  }
  const usesMainKey =
    settings.grading.enabled || settings.phase === 'run' || (clientBackend && responsesKey === null)
  if (usesMainKey) {
    checks.push({
      purpose: 'the Responses API',
      apiKey: key,
      keyVariable: 'OPENAI_API_KEY',
      model: settings.models.backend_model,
    })
  }
  return checks
}

async function checkHttp(check: HttpCheck): Promise<Problem | null> {
  // The SDK's own base URL (OPENAI_BASE_URL, else the OpenAI API): the one the scenarios' clients use.
  const client = new OpenAI({ apiKey: check.apiKey, maxRetries: 0, timeout: PREFLIGHT_TIMEOUT_MS })
  const url = `${client.baseURL.replace(/\/$/, '')}/models/${encodeURIComponent(check.model)}`
  const blamed = (status: string, blame: LivePreflightProblem['blame']): Problem => ({
    url,
    status,
    blame,
    purpose: check.purpose,
    keyVariable: check.keyVariable,
    addressVariable: 'OPENAI_BASE_URL',
  })
  try {
    await client.models.retrieve(check.model)
    return null
  } catch (error) {
    if (error instanceof APIConnectionError) {
      const code = networkCode(error)
      const status = error.message.includes('timed out')
        ? `no answer within ${PREFLIGHT_TIMEOUT_MS / 1000} s`
        : code === 'ECONNREFUSED'
          ? 'connection refused (ECONNREFUSED)'
          : `cannot connect${code === null ? '' : ` (${code})`}`
      return blamed(status, 'address')
    }
    if (error instanceof APIError && [401, 403, 429].includes(error.status ?? 0)) {
      const code = typeof error.code === 'string' ? ` ${error.code}` : ''
      return blamed(`HTTP ${error.status}${code}`, 'credentials')
    }
    return null
  }
}

/**
 * One session per GPT-Live model, all at once. A refused key or a dead address is the endpoint's problem, the same
 * for every model, so it is said once; a refused model is said per model, naming the setting that chose it.
 */
async function checkLive(settings: PhaseSettings, apiKey: string): Promise<Problem[]> {
  const endpoint = settings.connection.live_endpoint
  const checked = await Promise.all(
    liveModelsFor(settings).map(async (use) => ({
      use,
      problem: await preflightLiveSession({
        apiKey,
        ...(endpoint === null ? {} : { baseURL: endpoint }),
        allowInsecureLoopback: settings.connection.live_allow_insecure_loopback,
        model: use.model,
        timeoutMs: PREFLIGHT_TIMEOUT_MS,
      }),
    })),
  )
  const problems = checked.flatMap(({ use, problem }): Problem[] =>
    problem === null
      ? []
      : [
          {
            ...problem,
            purpose: 'GPT-Live',
            keyVariable: 'OPENAI_API_KEY',
            addressVariable: 'OPENAI_LIVE_ENDPOINT',
            ...(problem.blame === 'model' ? { model: use } : {}),
          },
        ],
  )
  const endpointProblem = problems.find((problem) => problem.blame !== 'model')
  return endpointProblem === undefined ? problems : [endpointProblem]
}

function problemLine(problem: Problem): string {
  if (problem.blame === 'settings') {
    return `live preflight: ${problem.purpose} at ${problem.url} was not dialled: ${problem.status}`
  }
  if (problem.model !== undefined) {
    return (
      `live preflight: GPT-Live at ${problem.url} refused the model ${JSON.stringify(problem.model.model)} ` +
      `(${problem.status}); check ${problem.model.setting}`
    )
  }
  const advice =
    problem.blame === 'credentials'
      ? `the key was refused: check ${problem.keyVariable}`
      : problem.blame === 'address'
        ? `nothing usable answers there: check ${problem.addressVariable}`
        : `check ${problem.addressVariable} and ${problem.keyVariable}`
  return `live preflight: ${problem.purpose} at ${problem.url} answered ${problem.status}; ${advice}`
}

/**
 * Checks every endpoint a live run of these settings needs, all at once; throws one HarnessConfigError listing
 * each endpoint that failed. Offline runs (and live runs without a key, refused earlier) check nothing.
 */
export async function assertLiveEndpointsAnswer(settings: PhaseSettings): Promise<void> {
  const apiKey = settings.credentials.openai_api_key
  // A replay (src/cassettes) answers from loopback replay servers; no endpoint of the settings is reached.
  if (settings.execution.mode !== 'live' || apiKey === null || settings.replay.enabled) return
  const [live, http] = await Promise.all([
    checkLive(settings, apiKey),
    Promise.all(httpChecksFor(settings).map(checkHttp)),
  ])
  const problems = [...live, ...http.filter((problem): problem is Problem => problem !== null)]
  if (problems.length > 0) throw new HarnessConfigError(problems.map(problemLine))
}
