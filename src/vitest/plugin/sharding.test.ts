// Sharded runs end to end, offline, in child Vitest processes: the fixture project runs five scenarios of the
// bundled CRAWL dataset for both architectures, once whole and then split 2 ways (each shard its own process,
// with a blob report), and `vitest --merge-reports` of the split must write results.json files whose rows and
// summary equal the whole run's. Only run.id may differ (rows carry no timestamps; the offline clock is virtual,
// so latencies are deterministic). The split is merged twice from the same blobs: on "another machine" (a
// results folder of its own) and where its shards ran; the refusals reuse the split's folder and blobs, so each
// child Vitest run here (seconds of CPU each) checks something no other run does.
import { copyFile, mkdir, readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { runExtensionLines } from '../../../reporters/run-extension-lines.ts'
import { type ResultsDocument, ResultsDocumentSchema } from '../../reporting/result-schema.ts'
import {
  type ChildRun,
  FIXTURE_CONFIG,
  lines,
  ROOT,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../child-vitest.test-helpers.ts'

const ARCHITECTURES = ['responses', 'client'] as const
const DATASET_ENV = {
  LIVE_EVALS_DATASET: join(ROOT, 'scenarios/crawl/restaurant.json'),
  LIVE_EVALS_MAX_EXAMPLES: '5',
}

async function readResults(file: string): Promise<ResultsDocument> {
  return ResultsDocumentSchema.parse(JSON.parse(await readFile(file, 'utf8')))
}

/** A document without what legitimately differs between two runs of the same scenarios. */
function comparable(document: ResultsDocument) {
  const { id: _id, ...run } = document.run
  return { run, summary: document.summary, results: document.results }
}

let resultsDir = ''
let env: Record<string, string> = {}
const whole = new Map<string, ResultsDocument>()

beforeAll(async () => {
  const space = await scratch()
  resultsDir = join(space.dir, 'results')
  env = { ...space.env, ...DATASET_ENV }
  const run = await runVitest(['run', '--config', FIXTURE_CONFIG], { ...env, LIVE_EVALS_RUN_NAME: 'whole' })
  for (const architecture of ARCHITECTURES) {
    whole.set(architecture, await readResults(join(resultsDir, `whole_${architecture}`, 'results.json')))
  }
  expect(whole.get('responses')?.results, run.output).toHaveLength(5)
}, SPAWN_TIMEOUT_MS)

/**
 * Where the split's merge writes: where its shards ran, and on "another machine" (a results folder of its own).
 * One split merged twice, rather than a second split merged elsewhere: each shard run costs a child Vitest, and
 * the block arithmetic for any count (middle shards included) is shard.test.ts's property test.
 */
const MERGED_IN = {
  "the shards' results folder": () => resultsDir,
  "another machine's results folder": () => join(resultsDir, '..', 'merge-machine'),
} as const
type MergePlace = keyof typeof MERGED_IN

describe('a run split into 2 shards', () => {
  const count = 2
  const runName = `split-${count}`
  const shards: ChildRun[] = []
  const merged = new Map<MergePlace, ChildRun>()
  const blobs = () => join(resultsDir, '..', `blobs-${count}`)

  beforeAll(async () => {
    const shardEnv = { ...env, LIVE_EVALS_RUN_NAME: runName }
    // One shard at a time: the machine has two cores and each child runs its own worker.
    for (let index = 1; index <= count; index++) {
      shards.push(
        await runVitest(
          [
            'run',
            '--config',
            FIXTURE_CONFIG,
            `--shard=${index}/${count}`,
            '--reporter=blob',
            `--outputFile.blob=${join(blobs(), `blob-${index}-${count}.json`)}`,
          ],
          shardEnv,
        ),
      )
    }
    // The merge needs only the blobs: on a CI merge job the results folder is another machine's. That merge
    // runs first, so no merged results.json of this run exists anywhere yet when it does.
    for (const place of ["another machine's results folder", "the shards' results folder"] as const) {
      merged.set(
        place,
        await runVitest(['run', '--config', FIXTURE_CONFIG, `--merge-reports=${blobs()}`], {
          ...shardEnv,
          LIVE_EVALS_RESULTS_DIR: MERGED_IN[place](),
        }),
      )
    }
  }, SPAWN_TIMEOUT_MS * 4)

  test('each shard runs only its own block of scenarios, in one shared run folder', async () => {
    expect(await runDirectoriesIn(resultsDir)).toEqual(
      expect.arrayContaining([`${runName}_client`, `${runName}_responses`]),
    )
    const wholeIds = whole.get('responses')?.results.map((row) => row.scenario_id) ?? []
    const shardIds: string[][] = []
    for (let index = 1; index <= count; index++) {
      const folder = join(resultsDir, `${runName}_responses`)
      const document = await readResults(join(folder, `results.shard-${index}-of-${count}.json`))
      shardIds.push(document.results.map((row) => row.scenario_id))
      expect((await stat(join(folder, `.shard-${index}-of-${count}`))).isDirectory()).toBe(true)
    }
    // Contiguous blocks whose sizes differ by at most one, together the whole selection in dataset order; five
    // scenarios in two shards make the blocks uneven, the first shard taking the one more.
    expect(shardIds.flat()).toEqual(wholeIds)
    expect(shardIds.map((ids) => ids.length)).toEqual([3, 2])
    // Vitest's own file sharding never sees the single spec file: no shard failed to start.
    for (const shard of shards)
      expect(shard.output).not.toContain('must be a smaller than count of test files')
  })

  test.each(Object.keys(MERGED_IN) as MergePlace[])(
    '--merge-reports in %s writes one results.json per architecture equal to the unsharded run',
    async (place) => {
      const output = merged.get(place)?.output ?? ''
      for (const architecture of ARCHITECTURES) {
        const file = join(MERGED_IN[place](), `${runName}_${architecture}`, 'results.json')
        const document = await readResults(file)
        expect(document.run.id).toBe(`${runName}_${architecture}`)
        const reference = whole.get(architecture)
        if (reference === undefined) throw new Error(`no unsharded ${architecture} run`)
        expect(comparable(document), output).toEqual(comparable(reference))
        expect(lines(output)).toContain(`Results: ${file}`)
        // Under its summary, what the unsharded run prints there (its assistants; an incomplete run says so).
        const extensionLines = runExtensionLines(architecture, document)
        expect(extensionLines).toContainEqual(expect.stringMatching(/Assistant under test/))
        for (const line of extensionLines) expect(lines(output)).toContain(line)
      }
      const { passed, failed } = whole.get('responses')?.summary ?? { passed: 0, failed: 0 }
      const wholeClient = whole.get('client')?.summary ?? { passed: 0, failed: 0 }
      expect(lines(output)).toContain(
        `${passed + wholeClient.passed} passed, ${failed + wholeClient.failed} failed`,
      )
    },
  )
})

describe('sharded runs that must not start or merge', () => {
  test(
    'a shard without a run name is refused, naming LIVE_EVALS_RUN_NAME, and leaves nothing behind',
    async () => {
      const space = await scratch()
      const run = await runVitest(['run', '--config', FIXTURE_CONFIG, '--shard=1/2'], space.env)
      expect(run.code).toBe(1)
      expect(run.output).toContain('--shard=1/2 needs LIVE_EVALS_RUN_NAME')
      await expect(readdir(join(space.dir, 'results'))).rejects.toThrow(/ENOENT/)
    },
    SPAWN_TIMEOUT_MS,
  )

  test(
    'the same shard twice is refused, leaving the run as it was; a merge missing a shard writes nothing and names it',
    async () => {
      // The 2-way split above ran shard 1/2 of run "split-2" in this results folder, and merged it there.
      const folder = join(resultsDir, 'split-2_responses')
      const before = await readFile(join(folder, 'results.json'), 'utf8')
      const again = await runVitest(['run', '--config', FIXTURE_CONFIG, '--shard=1/2', '--reporter=blob'], {
        ...env,
        LIVE_EVALS_RUN_NAME: 'split-2',
      })
      expect(again.code).toBe(1)
      expect(again.output).toContain('shard 1/2 of run "split-2" ran already')
      expect(await readFile(join(folder, 'results.json'), 'utf8')).toBe(before)
      // Shard 1's blob alone, merged into a results folder of its own.
      const blobs = join(resultsDir, '..', 'blobs-2-missing')
      await mkdir(blobs)
      await copyFile(join(resultsDir, '..', 'blobs-2', 'blob-1-2.json'), join(blobs, 'blob-1-2.json'))
      const missingResults = join(resultsDir, '..', 'merge-missing')
      const merged = await runVitest(['run', '--config', FIXTURE_CONFIG, `--merge-reports=${blobs}`], {
        ...env,
        LIVE_EVALS_RUN_NAME: 'split-2',
        LIVE_EVALS_RESULTS_DIR: missingResults,
      })
      for (const architecture of ARCHITECTURES) {
        expect(merged.output).toContain(`[${architecture}] run "split-2": shard 2/2 missing from the blobs`)
        await expect(stat(join(missingResults, `split-2_${architecture}`, 'results.json'))).rejects.toThrow(
          /ENOENT/,
        )
      }
    },
    SPAWN_TIMEOUT_MS * 2,
  )
})
