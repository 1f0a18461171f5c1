// The dress rehearsal end to end: the bundled CRAWL and WALK suites run in one child Vitest with LIVE_EVALS_MODE=live
// and nothing but the environment the rehearsal server prints, so every scenario takes the live code path
// (text-to-speech through the SDK, real-time pacing, GPT-Live sessions of both architectures, the client backend
// on the Responses API, the judge) against this in-process server, and passes with the tools the scenario
// expects. A handful of scenarios per phase, all at once: the audio is paced in real time. Both phases are projects
// of one child Vitest (live-fixture/vitest.config.ts), one start instead of two.
import { readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { type ResultsDocument, ResultsDocumentSchema } from '../../reporting/result-schema.ts'
import { loadDataset } from '../../scenarios/index.ts'
import {
  type ChildRun,
  ROOT,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../../vitest/child-vitest.test-helpers.ts'
import { SCRIPTED_JUDGMENT_RATIONALE } from './judge-players.ts'
import { type RehearsalServer, startRehearsalServer } from './server.ts'

const CRAWL = join(ROOT, 'scenarios/crawl/restaurant.json')
const WALK = join(ROOT, 'scenarios/walk/restaurant.json')
/** The CRAWL and WALK projects, each on its config.toml in the folder REHEARSAL_CONFIG_DIR names. */
const CONFIG = 'src/testing/rehearsal/live-fixture/vitest.config.ts'
/** A booking, a cancellation, a clarifying question and a direct answer: in two architectures, 8 sessions at once. */
const CRAWL_IDS = [
  'crawl_001_booking_complete_request',
  'crawl_013_cancel_authorized_r100',
  'crawl_016_clarify_missing_name',
  'crawl_020_hours',
]
/** A booking, an availability check, a cancellation and a direct answer, each under an acoustic condition. */
const WALK_IDS = [
  'walk_001_booking_complete_request_noisy',
  'walk_009_availability_open_slot_packet_loss',
  'walk_013_cancel_authorized_r100_echo',
  'walk_020_hours_telephony',
]

let server: RehearsalServer
let dir = ''
let run: ChildRun = { code: null, output: '' }
/** Each run's documents, by run directory name. */
const documents = new Map<string, ResultsDocument>()

const toml = (lines: string[]) => `${lines.join('\n')}\n`

beforeAll(async () => {
  server = await startRehearsalServer({ datasets: [CRAWL, WALK] })
  const scratchSpace = await scratch()
  dir = scratchSpace.dir
  const settings = (dataset: string, extra: string[]) =>
    toml(['[dataset]', `path = ${JSON.stringify(dataset)}`, '[execution]', 'concurrency = 8', ...extra])
  await writeFile(
    join(dir, 'crawl.toml'),
    settings(CRAWL, ['[audio]', `cache_dir = ${JSON.stringify(join(dir, 'speech-cache'))}`]),
  )
  await writeFile(join(dir, 'walk.toml'), settings(WALK, []))
  // A scenario id of one phase names no test of the other, so one pattern selects both phases' scenarios.
  run = await runVitest(['run', '--config', CONFIG, '-t', [...CRAWL_IDS, ...WALK_IDS].join('|')], {
    ...scratchSpace.env,
    ...server.env,
    LIVE_EVALS_MODE: 'live',
    REHEARSAL_CONFIG_DIR: dir,
  })
  const results = join(dir, 'results')
  for (const name of await runDirectoriesIn(results)) {
    const text = await readFile(join(results, name, 'results.json'), 'utf8')
    documents.set(name, ResultsDocumentSchema.parse(JSON.parse(text)))
  }
}, 2 * SPAWN_TIMEOUT_MS)

afterAll(async () => {
  await server?.close()
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

/** The scenario's required tool calls, as the dataset gives them. */
async function expectedTools(dataset: string): Promise<Map<string, { name: string; arguments: object }[]>> {
  const loaded = await loadDataset(dataset)
  return new Map(
    loaded.scenarios.map((scenario) => [
      scenario.id,
      scenario.expected.tools.required.map((tool) => ({ name: tool.name, arguments: tool.arguments })),
    ]),
  )
}

describe.each([
  { phase: 'crawl' as const, ids: CRAWL_IDS, dataset: CRAWL },
  { phase: 'walk' as const, ids: WALK_IDS, dataset: WALK },
])('live $phase against the rehearsal server', ({ phase, ids, dataset }) => {
  test('passes every scenario in both architectures, as a live run', () => {
    // The run's closing line counts both phases; each phase's two runs print their own counts.
    expect(run.output, run.output.slice(-4000)).toContain(
      `${(CRAWL_IDS.length + WALK_IDS.length) * 2} passed, 0 failed`,
    )
    const unit = phase === 'crawl' ? 'examples' : 'recordings'
    const completed = `Completed ${ids.length}/${ids.length} valid ${unit}; ${ids.length} passed; 0 failed;`
    expect(run.output.split('\n').filter((line) => line.includes(completed))).toHaveLength(2)
    const names = [...documents.keys()].filter((name) => name.startsWith(`${phase}_`)).sort()
    expect(names.map((name) => name.replace(/_\d{8}_\d{6}_\d{3}Z$/, ''))).toEqual([
      `${phase}_live_client`,
      `${phase}_live_responses`,
    ])
    for (const name of names) {
      const document = documents.get(name)
      expect(document?.run.execution_mode).toBe('live')
      expect(document?.results.map((row) => row.scenario_id).sort()).toEqual([...ids].sort())
      for (const row of document?.results ?? []) {
        expect(row.status, `${name} ${row.scenario_id}`).toBe('passed')
        expect(row.observability?.provenance).toMatchObject({ execution_mode: 'live', clock: 'real_time' })
      }
    }
  })

  test('every scenario ran the tools it expects, and the judge answered through the live judge path', async () => {
    const expected = await expectedTools(dataset)
    for (const [name, document] of documents) {
      if (!name.startsWith(`${phase}_`)) continue
      for (const row of document.results) {
        const details = JSON.parse(
          await readFile(join(dir, 'results', name, row.artifacts.details ?? ''), 'utf8'),
        ) as {
          observation: { tool_executions: { name: string; arguments: object; status: string }[] }
          semantic_judge: unknown
        }
        const executed = details.observation.tool_executions
        const wanted = expected.get(row.scenario_id) ?? []
        expect(
          executed.map((tool) => tool.name),
          `${name} ${row.scenario_id}`,
        ).toEqual(wanted.map((tool) => tool.name))
        executed.forEach((tool, index) => {
          expect(tool.status).toBe('completed')
          expect(tool.arguments).toMatchObject(wanted[index]?.arguments ?? {})
        })
        expect(JSON.stringify(details.semantic_judge)).toContain(SCRIPTED_JUDGMENT_RATIONALE)
      }
    }
  })
})

test('CRAWL asked the rehearsal server for its speech (nothing was cached before)', async () => {
  const cached = (await readdir(join(dir, 'speech-cache'))).filter((name) => name.endsWith('.pcm'))
  expect(cached).toHaveLength(CRAWL_IDS.length)
})
