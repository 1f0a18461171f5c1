// No credential leaves the process when an upstream error echoes it (issue 23, point 1). The fixture project runs
// live in a child Vitest against a gateway (src/config/secret-echo-gateway.test-helpers.ts) that quotes the
// Authorization header back in its status text, JSON error body and headers, and on GPT-Live in its error event
// and close reason. Once the preflight itself is refused (the run stops before any scenario); then, with the
// preflight let through, once the text-to-speech call is refused and once speech passes and the GPT-Live session is.
// The API key is deliberately not key-shaped (a gateway's own token): only the configured-secret redaction can
// catch it. Every file of both runs (results, rows journal, details, junit, report) and the console are scanned.
// The Responses backend and the judge are covered at the same boundary in src/config/outbound-redaction.test.ts.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type SecretEchoGateway, startSecretEchoGateway } from '../config/secret-echo-gateway.test-helpers.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from './child-vitest.test-helpers.ts'

const CANARY = 'LEAKCANARY'
const API_KEY = `gw-${CANARY}-api-0a1b2c3d4e5f`
const RESPONSES_KEY = `sk-${CANARY}-responses-9f8e7d6c5b4a`
const CLIENT_TOKEN = `tok-${CANARY}-client-55aa66bb`

interface EchoRun {
  run: ChildRun
  files: string[]
  gateway: SecretEchoGateway
}

type EchoCase = 'preflight' | 'speech' | 'session'

const runs: Record<EchoCase, EchoRun | null> = { preflight: null, speech: null, session: null }

async function filesUnder(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { recursive: true, withFileTypes: true })
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name))
}

async function echoRun(name: EchoCase): Promise<EchoRun> {
  const gateway = await startSecretEchoGateway({
    admitPreflight: name !== 'preflight',
    ...(name === 'session' ? { passThrough: ['/v1/audio/speech'] } : {}),
  })
  const scratchSpace = await scratch()
  const runDir = scratchSpace.dir
  const config = join(runDir, 'crawl-live.toml')
  await writeFile(
    config,
    [
      '[dataset]',
      `path = ${JSON.stringify(join(import.meta.dirname, 'fixtures/tiny-dataset.json'))}`,
      '[execution]',
      'response_timeout_seconds = 2.0',
      '[audio]',
      `cache_dir = ${JSON.stringify(join(runDir, 'speech-cache'))}`,
      '',
    ].join('\n'),
  )
  const reports = join(runDir, 'reports')
  const run = await runVitest(
    [
      'run',
      '--config',
      FIXTURE_CONFIG,
      '--reporter=default',
      '--reporter=junit',
      '--reporter=json',
      `--outputFile.junit=${join(reports, 'junit.xml')}`,
      `--outputFile.json=${join(reports, 'report.json')}`,
    ],
    {
      ...scratchSpace.env,
      LIVE_EVALS_CONFIG: config,
      LIVE_EVALS_MODE: 'live',
      OPENAI_API_KEY: API_KEY,
      OPENAI_RESPONSES_API_KEY: RESPONSES_KEY,
      OPENAI_CLIENT_ASSISTANT_TOKEN: CLIENT_TOKEN,
      OPENAI_LIVE_ENDPOINT: gateway.baseURL,
      OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK: '1',
      OPENAI_BASE_URL: gateway.baseURL,
    },
  )
  return {
    run,
    files: [
      ...(await filesUnder(join(runDir, 'results')).catch(() => [])),
      ...(await filesUnder(reports).catch(() => [])),
    ],
    gateway,
  }
}

beforeAll(async () => {
  runs.preflight = await echoRun('preflight')
  runs.speech = await echoRun('speech')
  runs.session = await echoRun('session')
}, 4 * SPAWN_TIMEOUT_MS)

afterAll(async () => {
  const all = [runs.preflight, runs.speech, runs.session]
  await Promise.all(all.map((run) => run?.gateway.close()))
  for (const run of all) {
    const root = run?.files[0]?.split('/results/')[0]
    if (root !== undefined) await rm(root, { recursive: true, force: true })
  }
})

function ran(run: EchoRun | null): EchoRun {
  if (run === null) throw new Error('the run did not happen')
  return run
}

describe('a gateway that echoes the key to the preflight', () => {
  test('the run stops before any scenario, and its message holds no configured credential', () => {
    const { run, gateway } = ran(runs.preflight)
    expect(run.code).not.toBe(0)
    expect(gateway.seen.some((line) => line.startsWith('GET /v1/models/'))).toBe(true)
    expect(gateway.seen).not.toContain('POST /v1/audio/speech')
    expect(run.output.includes(CANARY), run.output).toBe(false)
  })
})

describe.each(['speech', 'session'] as const)('a gateway that echoes the key (%s refused)', (name) => {
  test('the refused endpoint was reached and every scenario failed on it', async () => {
    const { run, gateway } = ran(runs[name])
    expect(run.output).toContain('0 passed, 4 failed')
    if (name === 'speech') expect(gateway.seen).toContain('POST /v1/audio/speech')
    else expect(gateway.seen.some((line) => line.endsWith('(upgrade)'))).toBe(true)
    const results = ran(runs[name]).files.filter((file) => file.endsWith('/results.json'))
    expect(results).toHaveLength(2)
    const refused: { error: { message: string } | null }[] = []
    for (const file of results) {
      const document = JSON.parse(await readFile(file, 'utf8')) as {
        results: { status: string; error: { stage: string; message: string } | null }[]
      }
      const stage = name === 'speech' ? 'audio_synthesis' : 'session_start'
      for (const row of document.results) {
        expect(row.status).toBe('infrastructure_error')
        // The first refusal stops the run: scenarios that start after it fail at `connection` (run-stop.ts).
        expect([stage, 'connection']).toContain(row.error?.stage)
      }
      refused.push(...document.results.filter((row) => row.error?.stage === stage))
    }
    // The first refusal is still explained (in whichever architecture's run met it); only the credential is gone.
    expect(refused.length).toBeGreaterThan(0)
    for (const row of refused) expect(row.error?.message).toContain('[redacted]')
  })

  test('no artifact, report or console line holds any configured credential', async () => {
    const { run, files } = ran(runs[name])
    const kinds = new Set(files.map((file) => file.split('/').pop()?.replace(/^.*\./, '')))
    // results.json, rows.jsonl, details and events, report.html, junit.xml, the json report.
    for (const kind of ['json', 'jsonl', 'html', 'xml']) expect(kinds).toContain(kind)
    for (const file of files) {
      const text = await readFile(file, 'latin1')
      expect(text.includes(CANARY), file).toBe(false)
    }
    expect(run.output.includes(CANARY), run.output).toBe(false)
    expect(run.output).toContain('[redacted]')
  })
})
