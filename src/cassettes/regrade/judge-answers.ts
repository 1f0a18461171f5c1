// The judge of a re-grade (replay.regrade, `live-evals grade --cassettes`): answered from the cassette alone.
// Today's judge request gets the recorded answer only when a recorded judge request equals it (the same match
// by meaning as every replayed request: volatile ids aside, everything compared exactly); otherwise it is
// refused with an API error of type JUDGE_NOT_RECORDED naming what changed, which the judge stages turn into
// not-judged grades (src/grading/judge/not-judged.ts). Never a made-up score, never the network.
//
// Judge requests are told from the conversation's own by what they are: the Responses judge's structured format
// (`semantic_judgment`) or the Decisions API, which only the judge uses. They never reach the replay server, so a
// changed rubric is a grading change, not a divergence of the conversation.
import { JUDGE_DECISION_SCHEMA_NAME } from '../../grading/judge/decision-schema.ts'
import { JUDGE_NOT_RECORDED } from '../../grading/judge/not-judged.ts'
import { audioBytes } from '../files.ts'
import { describeDifference, firstDifference } from '../match.ts'
import type { HttpBody, HttpExchange } from '../schema.ts'

export interface JudgeAnswer {
  status: number
  contentType: string | null
  body: Uint8Array | string | null
}

/** A request of the semantic judge (the Responses judge's structured format, or any Decisions request). */
export function isJudgeRequest(method: string, path: string, json: unknown): boolean {
  if (method !== 'POST') return false
  const pathname = path.split('?')[0] ?? ''
  if (pathname.endsWith('/decisions')) return true
  if (!pathname.endsWith('/responses')) return false
  const format = (json as { text?: { format?: { name?: unknown } } } | null)?.text?.format
  return format?.name === JUDGE_DECISION_SCHEMA_NAME
}

const requestValue = (body: HttpBody): unknown => body.json ?? body.text ?? null

/** How many leading characters two texts share (the closest recorded request is the one sharing the most). */
function sharedPrefix(left: string, right: string): number {
  let at = 0
  while (at < left.length && at < right.length && left[at] === right[at]) at++
  return at
}

export class RecordedJudgeAnswers {
  readonly #unused: HttpExchange[]
  readonly #files: ReadonlyMap<string, Uint8Array>
  /** Judge requests answered from the recording. */
  reused = 0
  /** Why each refused judge request had no recorded answer, in order. */
  readonly refusals: string[] = []

  constructor(exchanges: readonly HttpExchange[], files: ReadonlyMap<string, Uint8Array>) {
    this.#unused = exchanges.filter((exchange) =>
      isJudgeRequest(exchange.method, exchange.path, exchange.request.json ?? null),
    )
    this.#files = files
  }

  /** The recorded answer to an equal recorded request, or the refusal that says what differs. */
  answer(method: string, path: string, body: HttpBody): JudgeAnswer {
    const now = requestValue(body)
    const candidates = this.#unused.filter((exchange) => exchange.method === method && exchange.path === path)
    const equal = candidates.find((exchange) => firstDifference(requestValue(exchange.request), now) === null)
    if (equal !== undefined) {
      this.#unused.splice(this.#unused.indexOf(equal), 1)
      this.reused += 1
      return this.#recorded(equal)
    }
    const reason = this.#whyNotRecorded(method, path, candidates, now)
    this.refusals.push(reason)
    return {
      status: 409,
      contentType: 'application/json',
      body: JSON.stringify({ error: { message: reason, type: JUDGE_NOT_RECORDED, code: null, param: null } }),
    }
  }

  #whyNotRecorded(method: string, path: string, candidates: readonly HttpExchange[], now: unknown): string {
    if (candidates.length === 0) {
      return (
        `the recording holds no judge answer for ${method} ${path} (its judge did not run, answered from the ` +
        'judge cache, or was asked fewer times); a re-grade never asks the network'
      )
    }
    const text = JSON.stringify(now) ?? ''
    let closest = candidates[0] as HttpExchange
    let best = -1
    for (const candidate of candidates) {
      const shared = sharedPrefix(JSON.stringify(requestValue(candidate.request)) ?? '', text)
      if (shared > best) {
        best = shared
        closest = candidate
      }
    }
    const difference = firstDifference(requestValue(closest.request), now)
    const what = difference === null ? 'it differs' : describeDifference(difference)
    return `today's judge request differs from the recorded one (${what}); a re-grade never asks the network`
  }

  #recorded(exchange: HttpExchange): JudgeAnswer {
    const { response } = exchange
    let body: JudgeAnswer['body'] = null
    if (response.audio !== undefined) body = audioBytes(this.#files, response.audio)
    else if (response.json !== undefined) body = JSON.stringify(response.json)
    else if (response.text !== undefined) body = response.text
    return { status: exchange.status, contentType: response.content_type, body }
  }
}
