// An imported call whose expectation is still the import's placeholder never passes: the run fails its row at
// input_setup, naming the scenario, the field and what to do (the offline run never reads the answer, so without
// this an imported call that calls no tool passed); once the answer is written the same call is graded as any other.
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { importCallCommand } from '../../cli/import-call.ts'
import { assistantVisibleInput, loadDataset, type Scenario } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { runScenario } from '../engine/run-scenario.ts'
import { walkPhase } from './index.ts'
import { stereoCall } from './stereo-call.test-helpers.ts'
import { offlineWalkEnv, offlineWalkSettings } from './walk.test-helpers.ts'

let server: OfflineLiveServer
let dir = ''
beforeAll(async () => {
  server = await startOfflineLiveServer()
  dir = await mkdtemp(join(tmpdir(), 'live-evals-imported-verdict-'))
})
afterAll(async () => {
  await server.close()
  await rm(dir, { recursive: true, force: true })
})

async function importedDataset(): Promise<string> {
  await writeFile(join(dir, 'call.wav'), (await stereoCall('left')).bytes)
  await writeFile(
    join(dir, 'call.txt'),
    'caller: What are your opening hours on Saturday?\nagent: We open at noon.\n',
  )
  const io = { out: () => {}, err: (text: string) => expect.fail(text) }
  const code = await importCallCommand(
    ['call.wav', '--caller-channel', 'left', '--transcript', 'call.txt', '--out', 'calls.json'],
    io,
    dir,
  )
  expect(code).toBe(0)
  return join(dir, 'calls.json')
}

async function runOffline(dataset: string) {
  const [scenario] = (await loadDataset(dataset)).scenarios
  if (scenario === undefined) throw new Error('the import wrote no scenario')
  const settings = await offlineWalkSettings(dataset)
  const env = await offlineWalkEnv(settings, server, 'responses')
  return runScenario(walkPhase, scenario as Scenario, env, {
    application: env.architecture.createApplication(assistantVisibleInput(scenario as Scenario)),
  })
}

describe('an imported call with its placeholder expectation', () => {
  it('fails its row at input_setup, naming the scenario, the field and what to do', async () => {
    const dataset = await importedDataset()
    const execution = await runOffline(dataset)
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.failure?.stage).toBe('input_setup')
    expect(execution.failure?.message).toContain('Scenario call:')
    expect(execution.failure?.message).toContain('expected.answer')
    expect(execution.failure?.message).toContain('live-evals import-call')
    expect(execution.failure?.message).toMatch(/write what the assistant should achieve/)
  })

  it('is graded as any scenario once the answer is written', async () => {
    const dataset = join(dir, 'calls.json')
    const document = JSON.parse(await readFile(dataset, 'utf8'))
    document.scenarios[0].expected.answer = 'The assistant tells the caller the Saturday opening hours.'
    await writeFile(dataset, JSON.stringify(document, null, 2))
    const execution = await runOffline(dataset)
    expect(execution.failure?.stage).not.toBe('input_setup')
    expect(execution.row.status).not.toBe('infrastructure_error')
  })
})
