// A replay that re-grades (replay.regrade): the recorded conversation is played through the live code path exactly
// as in any replay (src/cassettes/replaying.ts), so today's observation code and graders see the service's recorded
// answers; only two things differ, both because a re-grade exists to apply changed grading:
// - the scenario may differ from the one recorded: its evaluator-only part (expected answer, criteria, tools,
//   state) is what a rubric change edits, so the cassette is not refused for it. What the assistant or the caller
//   hear cannot change unnoticed: a changed instruction, history or caller text diverges from the recording.
// - the judge is answered by the recording alone (judge-answers.ts), outside the conversation's matching.
// The row's `regrade` extension says which cassette was re-graded, whether the scenario changed, and whether the
// judge's answers were reused or why they were not.
import type { RegradeRowExtension } from '../../reporting/extensions/regrade.ts'
import type { LoadedCassette } from '../files.ts'
import { jsonHash } from '../hashes.ts'
import { type CassetteRedaction, redactJson, redactString } from '../redaction.ts'
import type { HttpBody } from '../schema.ts'
import type { CassetteScope } from '../scope.ts'
import { isJudgeRequest, RecordedJudgeAnswers } from './judge-answers.ts'

export class RegradeReplay {
  readonly #id: string
  readonly #scenarioChanged: boolean
  readonly #answers: RecordedJudgeAnswers
  readonly #redaction: CassetteRedaction

  constructor(loaded: LoadedCassette, scenario: unknown, redaction: CassetteRedaction) {
    this.#id = loaded.cassette.header.id
    this.#scenarioChanged = loaded.cassette.header.scenario_hash !== jsonHash(scenario)
    this.#answers = new RecordedJudgeAnswers(loaded.cassette.http, loaded.files)
    this.#redaction = redaction
  }

  /** The replay's scope, with the judge's requests answered from the recording instead of the replay server. */
  scope(inner: CassetteScope): CassetteScope {
    return {
      tap: inner.tap,
      fetch: async (input, init) => {
        const url = new URL(input instanceof Request ? input.url : String(input))
        const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase()
        const text = await bodyText(input, init)
        const json = parseJson(text)
        if (!isJudgeRequest(method, url.pathname, json)) return inner.fetch(input, init)
        // Compared as the recording was kept: redacted the same way.
        const body: HttpBody =
          json === undefined
            ? { content_type: 'application/json', text: redactString(text ?? '', this.#redaction) }
            : {
                content_type: 'application/json',
                json: redactJson(json, this.#redaction) as HttpBody['json'],
              }
        const path = redactString(`${url.pathname}${url.search}`, this.#redaction)
        const answer = this.#answers.answer(method, path, body)
        return new Response(answer.body, {
          status: answer.status,
          headers: answer.contentType === null ? {} : { 'content-type': answer.contentType },
        })
      },
    }
  }

  extension(): RegradeRowExtension {
    const { reused, refusals } = this.#answers
    return {
      cassette: this.#id,
      scenario_changed: this.#scenarioChanged,
      judge: refusals.length > 0 ? 'not_rejudged' : reused > 0 ? 'reused' : 'not_run',
      judge_requests_reused: reused,
      reason: refusals[0] ?? null,
    }
  }
}

async function bodyText(input: string | URL | Request, init?: RequestInit): Promise<string | null> {
  const body = init?.body
  if (typeof body === 'string') return body
  if (body instanceof Uint8Array) return Buffer.from(body).toString('utf8')
  if (body instanceof ArrayBuffer) return Buffer.from(body).toString('utf8')
  if (body === undefined && input instanceof Request) return input.clone().text()
  return null
}

function parseJson(text: string | null): unknown {
  if (text === null) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
