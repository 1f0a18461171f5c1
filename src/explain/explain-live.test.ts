// explain of a live run, through the live code path against the dress-rehearsal server (no key, no internet): the
// run's failed WALK row (its recordings say the wrong date; the server hears a dataset WAV by its transcript) is
// re-run as new live calls, paced in real time. The scenario's text, spoken by text-to-speech (which the server
// recognises by content), books the right day; the clean recording does not. The plan prices the re-runs from the row's
// recorded usage before anything runs: the voice minutes are known, the backend's token price is not, so the
// total is unknown, never 0.
import { readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest'
import { settingsFromToml } from '../phases/single-turn/test-support.ts'
import { type RehearsalServer, startRehearsalServer } from '../testing/rehearsal/server.ts'
import { misheardWalkDataset, recordRun, scratchFolder } from './explain.test-helpers.ts'
import { explainRun } from './explain-run.ts'

let folder = ''
let server: RehearsalServer
let run = ''
let toml = ''

beforeAll(async () => {
  folder = await scratchFolder()
  const dataset = await misheardWalkDataset(folder)
  server = await startRehearsalServer({ datasets: [dataset] })
  // The openai SDK reads its base URL from the process environment (text-to-speech, the client backend).
  for (const [name, value] of Object.entries(server.env)) vi.stubEnv(name, value)
  const lines = [
    '[dataset]',
    `path = ${JSON.stringify(dataset)}`,
    '[execution]',
    'mode = "live"',
    'concurrency = 8',
    'response_timeout_seconds = 20.0',
  ]
  toml = join(folder, 'walk.toml')
  await writeFile(toml, `${lines.join('\n')}\n`)
  run = await recordRun({
    settings: await settingsFromToml('walk', lines, { ...server.env }),
    dataset,
    architecture: 'responses',
    resultsDir: join(folder, 'results'),
    only: ['explain_misheard_noisy'],
  })
}, 120_000)

afterAll(async () => {
  vi.unstubAllEnvs()
  await server?.close()
  if (folder !== '') await rm(folder, { recursive: true, force: true })
})

describe('explain, live (the dress-rehearsal server)', () => {
  test('new live calls: the text fixes the misheard date; the estimate is printed first', async () => {
    const results = JSON.parse(await readFile(join(run, 'results.json'), 'utf8'))
    expect(results.run.execution_mode).toBe('live')
    expect(results.results[0].status).toBe('failed')
    const lines: string[] = []
    const { document } = await explainRun({
      runDirectory: run,
      scenario: null,
      config: toml,
      explain: { trials: 2 },
      env: { ...server.env },
      log: (line) => lines.push(line),
    })
    expect(lines[0]).toMatch(/1 failed scenario\(s\) to explain, live re-runs, k = 2 per arm/)
    expect(lines[2]).toMatch(
      /^budget: 8 of 8 re-runs fit under the cap of 100; estimated cost unknown \(\d+\.\d voice minutes;/,
    )
    expect(document.mode).toBe('live')
    // Backend token prices are not in the built-in table: unknown, never 0; the voice minutes are the row's × 8.
    expect(document.budget.estimate.cost).toBeNull()
    const minutes = results.results[0].metrics.consumption.frontend.audio_duration_ms / 60_000
    expect(document.budget.estimate.voice_minutes).toBeCloseTo(8 * minutes, 9)
    const [explanation] = document.explanations
    const outcomes = JSON.stringify(
      [explanation?.control, ...(explanation?.interventions ?? [])].map((arm) => [
        arm?.arm,
        arm?.reruns.map((rerun) => [rerun.status, rerun.failed_checks, rerun.error]),
      ]),
    )
    // What the text changes is the hearing: every text re-run books the day the caller meant, no unchanged one
    // does. Whether that flips the verdict also rests on the timing checks (no_false_confirmation compares when
    // a sentence began with when the tool completed, on a loaded machine a close call in live mode), so the
    // verdicts are asserted offline (explain-run.test.ts) and only the named arm here.
    const text = explanation?.interventions.find((arm) => arm.intervention === 'text_for_audio')
    expect(text?.label).toBe("the scenario's text spoken by text-to-speech instead of its recording")
    expect(
      text?.reruns.map((rerun) => rerun.failed_checks.includes('application_state')),
      outcomes,
    ).toEqual([false, false])
    expect(
      explanation?.control.reruns.map((rerun) => rerun.failed_checks.includes('application_state')),
    ).toEqual([true, true])
    if (explanation?.decisive !== null) expect(explanation?.decisive?.intervention).toBe('text_for_audio')
    const clean = explanation?.interventions.find((arm) => arm.intervention === 'clean_audio')
    expect(clean).toMatchObject({ passed: 0, n: 2, effect: 'no_shift' })
    // Live, a delegation intervention steers the voice prompt; the rehearsal server finds a session's scenario by
    // its instructions, so it cannot play this arm as the service would (its sessions wait out the response
    // timeout, 20 s here: 8 s was too short for the booking answer on a loaded machine): not asserted here.
    expect(explanation?.interventions.map((arm) => arm.arm)).toContain('suppress_delegation')
  }, 180_000)
})
