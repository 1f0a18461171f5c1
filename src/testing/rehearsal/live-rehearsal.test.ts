// The dress rehearsal end to end: the bundled CRAWL and WALK suites run in a child Vitest with LIVE_EVALS_MODE=live
// and nothing but the environment the rehearsal server prints, so every scenario takes the live code path
// (text-to-speech through the SDK, real-time pacing, GPT-Live sessions of both architectures, the client backend
// on the Responses API, the judge) against the rehearsal server, and passes with the tools the scenario expects.
// A handful of scenarios per phase, all at once: the audio is paced in real time. The run is the shared run
// `rehearsal` (live-fixture/rehearsal-run.test-helpers.ts), whose third project fault-rehearsal.test.ts reads:
// one Vitest start for the phases and the faults.
import { readdir, readFile } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import type { ResultsDocument } from '../../reporting/result-schema.ts'
import { loadDataset } from '../../scenarios/index.ts'
import { resultsDocumentsIn } from '../../vitest/child-vitest.test-helpers.ts'
import {
  REHEARSAL_WAIT_MS,
  type SharedChildRun,
  sharedChildRun,
} from '../../vitest/shared-child-run.test-helpers.ts'
import { SCRIPTED_JUDGMENT_RATIONALE } from './judge-players.ts'
import {
  CRAWL,
  CRAWL_IDS,
  FAULTS_DATASET,
  LIVE_SPEECH_CACHE,
  WALK,
  WALK_IDS,
} from './live-fixture/rehearsal-run.test-helpers.ts'

let run: SharedChildRun = { code: null, output: '', dir: '' }
/** The two phases' documents (not the fault project's), by run directory name. */
const documents = new Map<string, ResultsDocument>()

beforeAll(async () => {
  run = await sharedChildRun('rehearsal')
  for (const [name, document] of await resultsDocumentsIn(join(run.dir, 'results'))) {
    if (basename(document.run.dataset) !== FAULTS_DATASET) documents.set(name, document)
  }
}, REHEARSAL_WAIT_MS + 10_000)

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
    // Each phase's two runs print their own counts; the run's closing line counts every project's tests.
    // With the fault project's six tests, three of which fail on purpose (fault-rehearsal.test.ts): the booking
    // in both architectures, and Responses refusing the stall rule.
    expect(run.output, run.output.slice(-4000)).toContain(
      `${(CRAWL_IDS.length + WALK_IDS.length) * 2 + 3} passed, 3 failed`,
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
          await readFile(join(run.dir, 'results', name, row.artifacts.details ?? ''), 'utf8'),
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
  const cached = (await readdir(join(run.dir, LIVE_SPEECH_CACHE))).filter((name) => name.endsWith('.pcm'))
  expect(cached).toHaveLength(CRAWL_IDS.length)
})
