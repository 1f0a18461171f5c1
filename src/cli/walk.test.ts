// live-evals walk generate-audio: the command line over the generator. OpenAI text-to-speech goes to the
// loopback test server (OPENAI_BASE_URL); espeak-ng runs only where Debian's package is installed.
import { readFile, rm, writeFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { readMonoWavFile } from '../audio/wav.ts'
import { espeakVersion } from '../phases/walk/speech/espeak.ts'
import { crawlRow, temporaryFolder, writeDataset } from '../phases/walk/walk.test-helpers.ts'
import { loadDataset } from '../scenarios/index.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'
import { captureIO } from './capture-io.ts'
import { main } from './main.ts'
import { runWith } from './walk.ts'

let server: ResponsesServer
let cacheDir = ''
beforeAll(async () => {
  server = await startResponsesServer()
  cacheDir = await temporaryFolder()
})
afterAll(async () => {
  await server.close()
  await rm(cacheDir, { recursive: true, force: true })
})

async function walk(argv: string[], env: Record<string, string | undefined> = {}) {
  const io = captureIO()
  const code = await runWith(argv, io, env)
  return { code, stdout: io.stdout(), stderr: io.stderr() }
}

const LIVE = () => ({ LIVE_EVALS_MODE: 'live', OPENAI_API_KEY: 'test', OPENAI_BASE_URL: server.baseURL })

async function oneRowDataset() {
  const row = await crawlRow('crawl_020_hours')
  row.input.recordings = [{ id: 'take', path: 'audio/take.wav', condition: 'echo', metadata: {} }]
  return writeDataset([row])
}

describe('live-evals walk', () => {
  it('explains itself: --help exits 0, no or an unknown subcommand exits 2', async () => {
    expect(await walk(['--help'])).toMatchObject({
      code: 0,
      stdout: expect.stringContaining('generate-audio'),
    })
    expect(await walk(['generate-audio', '--help'])).toMatchObject({ code: 0 })
    expect(await walk([])).toMatchObject({ code: 2, stderr: expect.stringContaining('Usage') })
    expect((await walk(['make-audio'])).stderr).toContain('unknown subcommand "make-audio"')
    const io = captureIO()
    expect(await main(['walk', 'generate-audio', '--help'], io)).toBe(0)
    expect(io.stdout()).toContain('Usage: live-evals walk generate-audio <dataset.json>')
  })

  it('refuses a command line it cannot use, with the reason, exit 2', async () => {
    const cases: [string[], RegExp][] = [
      [['generate-audio'], /expected one <dataset.json> \(or --data FILE\); got 0/],
      [['generate-audio', 'a.json', '--engine', 'festival'], /--engine must be one of espeak, openai/],
      [['generate-audio', 'a.json', '--seed=-3'], /--seed must be a whole number/],
      [['generate-audio', 'a.json', '--noise-rms', 'loud'], /--noise-rms needs a number/],
      [['generate-audio', 'a.json', '--pitch', '2'], /Unknown option '--pitch'/],
    ]
    for (const [argv, reason] of cases) {
      const result = await walk(argv)
      expect(result.code, argv.join(' ')).toBe(2)
      expect(result.stderr).toMatch(reason)
    }
  })

  it('live mode records with OpenAI text-to-speech, fills the dataset, and says what it wrote', async () => {
    const file = await oneRowDataset()
    const result = await walk(
      ['generate-audio', file, '--seed', '12', '--echo-decay', '0.5', '--cache-dir', cacheDir],
      LIVE(),
    )
    expect(result, result.stderr).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toContain(`${file}: 1 scenario(s); 1 recording(s) written, 0 kept`)
    const [scenario] = (await loadDataset(file)).scenarios
    const recording = scenario?.input.recordings[0]
    expect(recording?.metadata.generation).toMatchObject({
      engine: 'openai',
      tts_model: 'gpt-4o-mini-tts',
      seed: 12,
      condition: 'echo',
      effects: { echo_decay: 0.5, echo_delay_ms: 120 },
    })
    await readMonoWavFile(join(dirname(file), 'audio', 'take.wav'))
    expect(server.requestsTo('POST', '/v1/audio/speech').length).toBeGreaterThan(0)
  })

  it('an unknown condition exits 2 naming the valid ones, with the usage; a bad dataset exits 1 naming the file', async () => {
    const file = await oneRowDataset()
    const bad = await walk(['generate-audio', file, '--condition', 'underwater'], LIVE())
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(
      /--condition: Unknown acoustic condition "underwater"; valid conditions are clean.*\n\nUsage: live-evals walk generate-audio /,
    )
    const broken = join(dirname(file), 'broken.json')
    await writeFile(broken, '{"schema_version": "1.0", "scenarios": [{"id": "x"}]}')
    const invalid = await walk(['generate-audio', broken, '--cache-dir', cacheDir], LIVE())
    expect(invalid.code).toBe(1)
    expect(invalid.stderr).toContain(broken)
  })

  it('live mode without a key says how to record offline', async () => {
    const file = await oneRowDataset()
    const result = await walk(['generate-audio', file, '--engine', 'openai'], {})
    expect(result.code).toBe(1)
    expect(result.stderr).toMatch(/OPENAI_API_KEY is required.*--engine espeak/)
    expect(JSON.parse(await readFile(file, 'utf8')).scenarios[0].input.recordings[0].metadata).toEqual({})
  })

  it('offline, espeak-ng records by default (skipped without espeak-ng)', async (context) => {
    if ((await espeakVersion()) === null)
      context.skip('espeak-ng is not installed (apt-get install -y espeak-ng)')
    const file = await oneRowDataset()
    const result = await walk(['generate-audio', file], { LIVE_EVALS_MODE: 'offline' })
    expect(result, result.stderr).toMatchObject({ code: 0 })
    const [scenario] = (await loadDataset(file)).scenarios
    expect(scenario?.input.recordings[0]?.metadata.generation).toMatchObject({
      engine: 'espeak-ng',
      voice: 'en-us',
      rate_wpm: 160,
    })
  })
})
