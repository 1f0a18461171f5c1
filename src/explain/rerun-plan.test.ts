// The re-run plan `live-evals explain` hands the project's Vitest run: read back with each arm's scenario parsed
// by the scenario contract (the clean-audio arm with the clean recording in place of the noisy one, nothing else
// changed), and refused, naming the variable, the file and the field, when it is not one explain wrote. A project
// of another phase than the plan's refuses it when it starts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { scenarioSnapshotDocument } from '../phases/engine/scenario-snapshot.ts'
import { type LoadedScenario, loadDataset } from '../scenarios/index.ts'
import { resolveStartup } from '../vitest/plugin/startup.ts'
import { ROOT } from './explain.test-helpers.ts'
import { EXPLAIN_PLAN_VARIABLE, type RerunPlan, readRerunPlan } from './rerun-plan.ts'

let folder = ''
let noisy: LoadedScenario
let clean: LoadedScenario

beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'live-evals-rerun-plan-'))
  const { scenarios } = await loadDataset(join(ROOT, 'scenarios/walk/restaurant.json'))
  const byId = (id: string) => scenarios.find((scenario) => scenario.id === id) as LoadedScenario
  noisy = byId('walk_001_booking_complete_request_noisy')
  clean = byId('walk_001_booking_complete_request')
})

afterAll(async () => {
  if (folder !== '') await rm(folder, { recursive: true, force: true })
})

function planOf(overrides: Partial<RerunPlan> = {}): RerunPlan {
  const cleanRecordings = (
    scenarioSnapshotDocument(clean) as { scenarios: { input: { recordings: Record<string, unknown>[] } }[] }
  ).scenarios[0]?.input.recordings as Record<string, unknown>[]
  return {
    phase: 'walk',
    scenario_id: noisy.id,
    assistant: 'juniper-table',
    architecture: 'responses',
    directory: join(folder, 'reruns', noisy.id),
    scenario: scenarioSnapshotDocument(noisy),
    faults: null,
    draws: [{ caller_offset_ms: 0, preset_seed: null, fault_seed: null }],
    arms: [
      { arm: 'control', change: null },
      { arm: 'clean_audio', change: { kind: 'recording', from: clean.id, recordings: cleanRecordings } },
      { arm: 'text_for_audio', change: { kind: 'text_caller' } },
    ],
    settings: { execution: { mode: 'offline', trials: 1 } },
    ...overrides,
  }
}

async function written(name: string, value: unknown): Promise<string> {
  const file = join(folder, name)
  await writeFile(file, typeof value === 'string' ? value : JSON.stringify(value))
  return file
}

describe('the re-run plan', () => {
  test('reads back with each arm’s scenario; the clean-audio arm changes the recording only', async () => {
    const plan = readRerunPlan(await written('plan.json', planOf()))
    expect(plan.arms.map((arm) => arm.arm)).toEqual(['control', 'clean_audio', 'text_for_audio'])
    const [control, cleanArm, text] = plan.arms
    // The snapshot names each recording by its absolute path, as the run folder's snapshot does.
    const absolute = (scenario: LoadedScenario) => ({
      ...scenario,
      input: {
        ...scenario.input,
        recordings: scenario.input.recordings.map((recording) => ({
          ...recording,
          path: recording.resolvedPath,
        })),
      },
    })
    expect(control?.scenario).toEqual(absolute(noisy))
    expect(text?.scenario).toEqual(absolute(noisy))
    expect(cleanArm?.scenario).toEqual({
      ...absolute(noisy),
      input: { ...noisy.input, recordings: absolute(clean).input.recordings },
    })
    expect(cleanArm?.scenario.input.recordings[0]?.condition).toBe('clean')
  })

  test('a file explain did not write is refused, naming the variable, the file and the field', async () => {
    const refusal = (file: string) => {
      try {
        readRerunPlan(file)
      } catch (error) {
        return (error as Error).message
      }
      return 'read'
    }
    const missing = join(folder, 'missing.json')
    expect(refusal(missing)).toBe(
      `${EXPLAIN_PLAN_VARIABLE} ${missing}: ${missing} does not exist (it is written by live-evals explain; run that instead)`,
    )
    expect(refusal(await written('text.json', 'not json'))).toMatch(/text\.json: is not JSON \(it is written/)
    const badArm = planOf({
      arms: [
        { arm: 'control', change: null },
        { arm: '../out', change: null },
      ],
    })
    expect(refusal(await written('bad-arm.json', badArm))).toMatch(
      /bad-arm\.json: arms\.1\.arm: must be a folder name/,
    )
    const noControl = planOf({ arms: [{ arm: 'text_for_audio', change: { kind: 'text_caller' } }] })
    expect(refusal(await written('no-control.json', noControl))).toMatch(
      /arms\[0\] must be the unchanged control/,
    )
    const otherScenario = planOf({ scenario_id: 'walk_999' })
    expect(refusal(await written('other.json', otherScenario))).toMatch(
      /its scenario must be exactly walk_999/,
    )
    const broken = planOf({ scenario: { schema_version: '1.0', scenarios: [{ id: noisy.id }] } })
    expect(refusal(await written('broken.json', broken))).toMatch(
      /broken\.json: [\s\S]*scenarios\[0\]\.expected .*missing required field/,
    )
  })

  test('a project of another phase refuses the plan when it starts, naming the phase to run', async () => {
    const file = await written('walk-plan.json', planOf())
    const startup = resolveStartup('crawl', null, {
      env: { [EXPLAIN_PLAN_VARIABLE]: file, LIVE_EVALS_ENV_FILE: await written('empty.env', '') },
      cwd: folder,
    })
    expect(startup.ok).toBe(false)
    expect(String((startup as { error: unknown }).error)).toContain(
      `${EXPLAIN_PLAN_VARIABLE} re-runs a walk scenario, not one of this crawl project; name the walk project`,
    )
    const walk = resolveStartup('walk', null, {
      env: { [EXPLAIN_PLAN_VARIABLE]: file, LIVE_EVALS_ENV_FILE: join(folder, 'empty.env') },
      cwd: folder,
    })
    // The plan's recorded settings win over the project's: the re-runs run as the run ran.
    expect(walk).toMatchObject({ ok: true, runName: null, rerunPlan: { scenario_id: noisy.id } })
    expect(walk.ok && walk.settings.execution).toMatchObject({ mode: 'offline', trials: 1 })
  })
})
