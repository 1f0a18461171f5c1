// The HTTP side of a replay: each request an openai client makes now is answered with the recorded exchange of
// the same method and path whose request body equals it (so requests sent at once, like judge repetitions, may
// arrive in any order); when none equals it, the first unused one of that method and path is the closest, and
// the difference is a divergence. A request the recording never made is a divergence too. The recorded answer goes
// out when the replay's schedule reaches it (replay-schedule.ts), where the recording received it.
import type { DivergenceLog } from './divergences.ts'
import { audioBytes } from './files.ts'
import { firstDifference } from './match.ts'
import type { HttpBody, HttpExchange } from './schema.ts'

export interface HttpAnswer {
  status: number
  contentType: string | null
  body: Uint8Array | string | null
}

/** A request now: the recorded exchange that answers it (when the schedule reaches it), or a refusal at once. */
export type HttpMatch = { type: 'recorded'; exchange: HttpExchange } | { type: 'refused'; answer: HttpAnswer }

export class HttpReplay {
  readonly #unused: HttpExchange[]
  readonly #files: ReadonlyMap<string, Uint8Array>
  readonly #divergences: DivergenceLog
  readonly #counts = new Map<string, number>()

  constructor(
    exchanges: readonly HttpExchange[],
    files: ReadonlyMap<string, Uint8Array>,
    divergences: DivergenceLog,
  ) {
    this.#unused = [...exchanges]
    this.#files = files
    this.#divergences = divergences
  }

  /** Matches one request; `strict` refuses (500) a diverging one instead of serving the closest recording. */
  match(method: string, path: string, body: HttpBody, turn: number, strict: boolean): HttpMatch {
    const key = `${method} ${path}`
    const ordinal = (this.#counts.get(key) ?? 0) + 1
    this.#counts.set(key, ordinal)
    const message = `${key} #${ordinal}`
    const candidates = this.#unused.filter((exchange) => exchange.method === method && exchange.path === path)
    const equal = candidates.find(
      (exchange) => firstDifference(requestValue(exchange.request), requestValue(body)) === null,
    )
    if (equal !== undefined) return this.#take(equal)
    const closest = candidates[0]
    if (closest === undefined) {
      const divergence = this.#divergences.add(
        'http',
        turn,
        message,
        null,
        'the recording made no such request',
      )
      return { type: 'refused', answer: refusal(divergence.text) }
    }
    const difference = firstDifference(requestValue(closest.request), requestValue(body))
    const divergence = this.#divergences.add(
      'http',
      turn,
      message,
      difference === null ? null : { ...difference, path: `request.${difference.path}` },
    )
    return strict ? { type: 'refused', answer: refusal(divergence.text) } : this.#take(closest)
  }

  #take(exchange: HttpExchange): HttpMatch {
    this.#unused.splice(this.#unused.indexOf(exchange), 1)
    return { type: 'recorded', exchange }
  }

  /** The recorded answer of an exchange, as it goes out. */
  answerOf(exchange: HttpExchange): HttpAnswer {
    const { response } = exchange
    let body: HttpAnswer['body'] = null
    if (response.audio !== undefined) body = audioBytes(this.#files, response.audio)
    else if (response.json !== undefined) body = JSON.stringify(response.json)
    else if (response.text !== undefined) body = response.text
    return { status: exchange.status, contentType: response.content_type, body }
  }
}

function requestValue(body: HttpBody): unknown {
  return body.json ?? body.text ?? body.audio?.sha256 ?? null
}

function refusal(message: string): HttpAnswer {
  return {
    status: 500,
    contentType: 'application/json',
    body: JSON.stringify({ error: { message: `live-evals replay: ${message}`, type: 'replay_divergence' } }),
  }
}
