// The model matrix end to end, offline, in a child Vitest: LIVE_EVALS_MODELS=gpt-live-1,gpt-live-1.1 runs the same
// scenarios on each model and architecture, one describe per model, one run folder and results.json per (model,
// architecture) whose rows name their model; the offline server started every session on the model asked for.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { type ResultsDocument, ResultsDocumentSchema } from '../../reporting/result-schema.ts'
import { type ChildRun, runDirectoriesIn, runVitest, SPAWN_TIMEOUT_MS, scratch } from '../child-vitest.ts'

const CONFIG = 'src/vitest/plugin/models-fixture/vitest.config.ts'

interface ModelsRun {
  run: ChildRun
  resultsDir: string
  folders: string[]
  documents: Map<string, ResultsDocument>
  tests: { ancestorTitles: string[]; title: string; status: string }[]
}

async function runModels(): Promise<ModelsRun> {
  const { dir, env } = await scratch()
  const report = join(dir, 'vitest.json')
  const run = await runVitest(
    ['run', '--config', CONFIG, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    { ...env, LIVE_EVALS_MODELS: 'gpt-live-1,gpt-live-1.1', LIVE_EVALS_RUN_NAME: 'matrix' },
  )
  const resultsDir = join(dir, 'results')
  const folders = await runDirectoriesIn(resultsDir)
  const documents = new Map<string, ResultsDocument>()
  for (const folder of folders) {
    const text = await readFile(join(resultsDir, folder, 'results.json'), 'utf8')
    documents.set(folder, ResultsDocumentSchema.parse(JSON.parse(text)))
  }
  const json = JSON.parse(await readFile(report, 'utf8')) as {
    testResults: { assertionResults: ModelsRun['tests'] }[]
  }
  return {
    run,
    resultsDir,
    folders,
    documents,
    tests: json.testResults.flatMap((file) => file.assertionResults),
  }
}

describe('LIVE_EVALS_MODELS=gpt-live-1,gpt-live-1.1 on two scenarios, both architectures', () => {
  let models: ModelsRun

  beforeAll(async () => {
    models = await runModels()
  }, SPAWN_TIMEOUT_MS)

  test('one run folder and results.json per model and architecture', () => {
    expect(models.folders, models.run.output).toEqual([
      'matrix_gpt-live-1.1_client',
      'matrix_gpt-live-1.1_responses',
      'matrix_gpt-live-1_client',
      'matrix_gpt-live-1_responses',
    ])
    expect(models.run.code, models.run.output).toBe(0)
  })

  test("each results.json holds the same scenarios, on its model: run.configuration and every row's provenance", () => {
    for (const [folder, document] of models.documents) {
      const model = folder.includes('gpt-live-1.1') ? 'gpt-live-1.1' : 'gpt-live-1'
      const architecture = folder.endsWith('client') ? 'client' : 'responses'
      expect(document.run.configuration).toMatchObject({ model, assistant_mode: architecture })
      expect(document.results.map((row) => row.scenario_id).sort()).toEqual(['hours_flaky', 'hours_steady'])
      for (const row of document.results) {
        const provenance = (row.observability as { provenance?: { model?: string } }).provenance
        expect(provenance?.model).toBe(model)
      }
      expect(document.summary).toMatchObject({ total: 2, infrastructure_errors: 0 })
    }
  })

  test('one describe per model around its architectures, the scenario and test names unchanged below', () => {
    const paths = models.tests.map((test) => [...test.ancestorTitles, test.title].join(' > ')).sort()
    expect(paths).toHaveLength(8)
    for (const model of ['gpt-live-1', 'gpt-live-1.1']) {
      for (const architecture of ['responses', 'client']) {
        expect(paths).toContain(
          `${model} > ${architecture} > hours_steady > Opening hours, answered every time`,
        )
      }
    }
  })
})
