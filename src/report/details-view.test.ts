// The report reads a RUN conversation's details as it reads a single-turn one: both speakers' lines in time
// order, the tool executions and the states; a damaged file is a stated problem.
import { rm } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { architectureFor } from '../phases/engine/architecture-choice.ts'
import { runScenario } from '../phases/engine/run-scenario.ts'
import { bundledRunScenario } from '../phases/run/conversation.test-helpers.ts'
import { runCallerSource, runPhase } from '../phases/run/index.ts'
import { freshRunDirectory, settingsFromToml } from '../phases/single-turn/test-support.ts'
import { assistantVisibleInput } from '../scenarios/index.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import { reportDetailsOf } from './details-view.ts'
import { loadScenarioEvidence } from './load-run.ts'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

describe('the report on a RUN conversation', () => {
  it('shows both speakers in order, the executed calls and the state change', async () => {
    const server = await startOfflineLiveServer()
    try {
      const settings = await settingsFromToml('run', [
        '[dataset]',
        `path = ${JSON.stringify(join(import.meta.dirname, '../../scenarios/run/restaurant.json'))}`,
        '[simulation]',
        'tick_ms = 100',
      ])
      const runDirectory = await freshRunDirectory()
      folders.push(runDirectory)
      const architecture = architectureFor('client', settings)
      const scenario = await bundledRunScenario('run_002_booking_missing_name')
      const execution = await runScenario(
        runPhase,
        scenario,
        { settings, runDirectory, offlineServer: server, architecture, callerSource: runCallerSource },
        { application: architecture.createApplication(assistantVisibleInput(scenario)) },
      )
      const evidence = await loadScenarioEvidence(runDirectory, execution.row)
      expect(evidence.details_problem).toBeNull()
      const lines = evidence.details?.lines ?? []
      expect(lines[0]).toMatchObject({ role: 'caller', text: scenario.input.text })
      expect(lines.filter((line) => line.role === 'caller').length).toBe(4)
      expect(lines.some((line) => line.role === 'assistant' && line.text.includes('Okafor'))).toBe(true)
      const starts = lines.map((line) => line.start_ms ?? 0)
      expect(starts).toEqual([...starts].sort((a, b) => a - b))
      expect(evidence.details?.tool_executions.map((call) => call.name)).toEqual(['create_reservation'])
      expect(evidence.details?.final_state).not.toEqual(evidence.details?.initial_state)
      expect(evidence.voice).not.toBeNull()
    } finally {
      await server.close()
    }
  }, 60_000)

  it('a RUN details file that is not of this version is a problem naming the field', () => {
    const view = reportDetailsOf({ caller_utterances: [], schema_version: '9.9' })
    expect(view).toEqual({ problem: expect.stringContaining('schema_version') })
  })
})
