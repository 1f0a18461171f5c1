// The outbound scrub (issue 23, point 1): what it removes, and that the real openai SDK errors of the endpoints a
// run calls — speech, the client backend's Responses call, the judge — come out of every exit clean when a
// gateway echoes the key in its status text, JSON body and headers. The whole-run check (speech and GPT-Live,
// every artifact and the console of a child Vitest) is src/vitest/secret-echo.integration.test.ts.
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { JOURNAL_RUN } from '../artifacts/rows-journal.test-helpers.ts'
import { RowsJournal } from '../artifacts/rows-journal.ts'
import { writeJsonArtifact } from '../artifacts/write.ts'
import { backendOpenAiClient } from '../assistants/client/backend/openai-client.ts'
import { captureIO } from '../cli/capture-io.ts'
import { main } from '../cli/main.ts'
import { bookingObserved, judgeBooking } from '../grading/judge/judge.test-helpers.ts'
import { judgeScenario } from '../grading/judge/judge-scenario.ts'
import { stageFailureOf } from '../phases/engine/stage.ts'
import { infrastructureErrorRow } from '../reporting/result-item.ts'
import { redactOutbound, redactText, rememberSecretValues } from './outbound-redaction.ts'
import { type SecretEchoGateway, startSecretEchoGateway } from './secret-echo-gateway.test-helpers.ts'

const CANARY = 'ECHOCANARY'
// A gateway's own token (not key-shaped) and an OpenAI-shaped key nobody configured.
const GATEWAY_TOKEN = `gw-${CANARY}-token-31d7a0`
const STRAY_KEY = `sk-proj-${CANARY}abcdefghijklmnop`

describe('redactText', () => {
  test('scrubs remembered values, OpenAI-shaped keys and Bearer/Basic credentials, and keeps the rest', () => {
    rememberSecretValues(['remembered-secret-value-1', null, 'short'])
    const text =
      'failed: remembered-secret-value-1 / sk-abcdefghijklmnopqrstu / Authorization: Bearer abc.DEF-123_xyz ' +
      '/ basic dXNlcjpwYXNzd29yZA== / short stays / max_output_tokens stays'
    expect(redactText(text)).toBe(
      'failed: [redacted] / [redacted] / Authorization: Bearer [redacted] ' +
        '/ basic [redacted] / short stays / max_output_tokens stays',
    )
  })

  test('redactOutbound copies JSON-like data with every string (keys too) scrubbed and numbers untouched', () => {
    rememberSecretValues(['another-remembered-9z'])
    const value = { error: { message: 'x another-remembered-9z y', n: 3 }, list: ['another-remembered-9z'] }
    expect(redactOutbound(value)).toEqual({
      error: { message: 'x [redacted] y', n: 3 },
      list: ['[redacted]'],
    })
    expect(value.list[0]).toBe('another-remembered-9z')
  })
})

describe('a gateway that echoes the key, for each HTTP endpoint a run calls', () => {
  let gateway: SecretEchoGateway
  let dir = ''

  beforeAll(async () => {
    gateway = await startSecretEchoGateway()
    dir = await mkdtemp(join(tmpdir(), 'live-evals-echo-'))
    // What loadSettings does for the configured credentials of a run.
    rememberSecretValues([GATEWAY_TOKEN])
  })
  afterAll(async () => {
    await gateway?.close()
    if (dir !== '') await rm(dir, { recursive: true, force: true })
  })

  const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: gateway.baseURL, maxRetries: 0 })
  const calls: Record<string, (apiKey: string) => Promise<unknown>> = {
    speech: (apiKey) =>
      client(apiKey).audio.speech.create({
        model: 'gpt-4o-mini-tts',
        voice: 'marin',
        input: 'hello',
        response_format: 'pcm',
      }),
    'client backend (Responses)': (apiKey) =>
      backendOpenAiClient({
        env: { OPENAI_RESPONSES_API_KEY: apiKey },
        baseURL: gateway.baseURL,
      }).responses.create({ model: 'backend-model', input: 'Check availability for four at 7pm.' }),
    judge: (apiKey) =>
      judgeScenario(judgeBooking(), bookingObserved(), {
        enabled: true,
        mode: 'live',
        client: client(apiKey),
        model: 'judge-model',
        reasoningEffort: 'medium',
        retry: { sleep: async () => {}, maxAttempts: 1 },
      }),
  }

  test.each(Object.keys(calls))('%s: the SDK error echoes the key, and no exit lets it out', async (name) => {
    for (const apiKey of [GATEWAY_TOKEN, STRAY_KEY]) {
      const error = await calls[name]?.(apiKey).then(
        () => null,
        (caught: unknown) => caught,
      )
      expect(error).toBeInstanceOf(Error)
      // The leak is real: the message, the body and the headers each carry the key.
      const raw = JSON.stringify({ message: (error as Error).message, ...(error as object) })
      expect(raw).toContain(apiKey)
      // Every exit: the row (journal and details), the serialized error a worker reports, the console line.
      const failure = stageFailureOf(error, 'response_collection')
      const row = infrastructureErrorRow({
        scenario_id: 'echo',
        stage: failure.stage,
        message: failure.message,
      })
      const runDir = join(dir, `${name.replace(/\W+/g, '_')}_${apiKey.slice(0, 2)}`)
      await mkdir(runDir, { mode: 0o700 })
      const journal = await RowsJournal.create(runDir, { run: JOURNAL_RUN, datasetOrder: ['echo'] })
      journal.append(row)
      journal.close()
      await writeJsonArtifact(runDir, 'details/echo.json', { row, error: { ...(error as object) } })
      for (const file of await readdir(runDir, { recursive: true })) {
        if (!file.endsWith('.json') && !file.endsWith('.jsonl')) continue
        expect(await readFile(join(runDir, file), 'utf8'), file).not.toContain(CANARY)
      }
      expect(
        JSON.stringify(redactOutbound({ ...(error as object), message: (error as Error).message })),
      ).not.toContain(CANARY)
      expect(redactText(`Scenario echo: ${failure.message}`)).not.toContain(CANARY)
    }
  })
})

describe('the live-evals command', () => {
  test('prints nothing key-shaped, whatever a verb writes', async () => {
    const io = captureIO()
    // An unknown verb is echoed back in the error: a pasted key must not be.
    await main([`sk-proj-${CANARY}abcdefghijklmnop`], io)
    expect(io.stderr()).toContain('unknown command "[redacted]"')
    expect(io.stderr()).not.toContain(CANARY)
  })
})
