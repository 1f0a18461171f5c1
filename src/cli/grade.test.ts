// `live-evals grade`: an offline run of the tiny fixture dataset (both architectures, one wrong-tool scenario and one
// correct) re-graded from its artifacts gives the same rows; with --judge the loopback fake OpenAI server judges the
// saved observations; broken inputs are named, and one broken scenario does not stop the others. The run is the
// project crawl-regrade of the shared run of the fixture projects (src/vitest/fixtures/together); grading writes
// beside the graded folder, so its two run folders are copied into this file's own scratch folder first.
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { basename, join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  type FakeJudgeApi,
  failing,
  passing,
  startFakeJudgeApi,
} from '../grading/judge/judge.test-helpers.ts'
import { ScenarioDetailsSchema } from '../phases/engine/details.ts'
import { type ResultItem, type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { PLACEHOLDER_ANSWER } from '../scenarios/placeholder-expectation.ts'
import { SPAWN_TIMEOUT_MS, scratch } from '../vitest/child-vitest.test-helpers.ts'
import { fixtureProjectPart } from '../vitest/fixture-projects.test-helpers.ts'
import { captureIO } from './capture-io.ts'
import { gradeCommand } from './grade.ts'

let dir = ''
const runs: string[] = []
let api: FakeJudgeApi

beforeAll(async () => {
  api = await startFakeJudgeApi()
  const scratchSpace = await scratch()
  dir = scratchSpace.dir
  const part = await fixtureProjectPart('regrade')
  expect(part.tests.map((test) => test.status).sort(), part.run.output).toEqual([
    'failed',
    'failed',
    'passed',
    'passed',
  ])
  for (const shared of part.runDirectories) {
    const copy = join(dir, 'results', basename(shared))
    await cp(shared, copy, { recursive: true })
    runs.push(copy)
  }
  expect(runs, part.run.output).toHaveLength(2)
}, SPAWN_TIMEOUT_MS)

afterAll(async () => {
  await api?.close()
  if (dir !== '') await rm(dir, { recursive: true, force: true })
})

function captured() {
  const io = captureIO()
  return {
    ...io,
    get output() {
      return io.stdout()
    },
    get errors() {
      return io.stderr()
    },
  }
}

async function documentAt(runDirectory: string): Promise<ResultsDocument> {
  return ResultsDocumentSchema.parse(JSON.parse(await readFile(join(runDirectory, 'results.json'), 'utf8')))
}

/** The new run folder a successful grade printed. */
function gradedDirectory(output: string): string {
  const match = /Results: (.*)\/results\.json/.exec(output)
  if (match?.[1] === undefined) throw new Error(`no results path in ${output}`)
  return match[1]
}

/** A row with its artifact paths made absolute (they are relative to different run folders). */
function located(row: ResultItem, runDirectory: string) {
  const artifacts = Object.fromEntries(
    Object.entries(row.artifacts).map(([key, path]) => [
      key,
      path === null ? null : resolve(runDirectory, path),
    ]),
  )
  return { ...row, artifacts }
}

describe('live-evals grade', () => {
  test('re-grading an offline run gives the same rows, pointing at the original artifacts', async () => {
    for (const original of runs) {
      const io = captured()
      expect(await gradeCommand([original], io, {}), io.errors).toBe(0)
      const graded = gradedDirectory(io.output)
      expect(graded).toMatch(/-graded_\d{8}_\d{6}_\d{3}Z$/)
      const before = await documentAt(original)
      const after = await documentAt(graded)
      // A real run to compare against: one graded pass, one graded failure, both graded again from artifacts.
      expect(before.results.map((row) => row.status).sort()).toEqual(['failed', 'passed'])
      expect(io.output).toContain('graded 2 of 2 rows again (0 copied as they were)')
      expect(after.run).toEqual({
        ...before.run,
        id: graded.slice(graded.lastIndexOf('/') + 1),
        configuration: { ...before.run.configuration, regraded_from: original, regraded_with_judge: false },
      })
      expect(after.summary).toEqual(before.summary)
      // The voice metrics were measured on the session, so the regraded rows keep them (compared below).
      for (const row of before.results) expect(row.observability?.live_evals?.voice_metrics).toBeDefined()
      // Everything but the details is the original run's file; the details are the new run's own.
      const withoutDetails = (row: ReturnType<typeof located>) => ({
        ...row,
        artifacts: { ...row.artifacts, details: null },
      })
      expect(after.results.map((row) => withoutDetails(located(row, graded)))).toEqual(
        before.results.map((row) => withoutDetails(located(row, original))),
      )
      for (const row of after.results) {
        expect(row.artifacts.details).toBe(`transcripts/${row.scenario_id}.json`)
        expect(row.artifacts.events?.startsWith('../')).toBe(true)
        const details = ScenarioDetailsSchema.parse(
          JSON.parse(await readFile(join(graded, row.artifacts.details as string), 'utf8')),
        )
        const earlier = ScenarioDetailsSchema.parse(
          JSON.parse(await readFile(join(original, row.artifacts.details as string), 'utf8')),
        )
        // Same observation, same grades: the details agree field for field.
        expect(details).toEqual(earlier)
      }
      // The new run can itself be re-graded: its scenario snapshots are there.
      const again = captured()
      expect(await gradeCommand([graded, '--out', join(dir, 'twice')], again, {}), again.errors).toBe(0)
      expect((await documentAt(gradedDirectory(again.output))).results.map((row) => row.status)).toEqual(
        before.results.map((row) => row.status),
      )
    }
  })

  test('--judge judges the saved observations through the fake server and records its usage apart', async () => {
    api.script.task_understanding = [passing(0.75, true)]
    api.script.grounded_communication = [passing(1)]
    const original = runs[0] as string
    const io = captured()
    const out = join(dir, 'judged')
    const code = await gradeCommand([original, '--judge', '--out', out], io, {
      client: api.client,
      env: { OPENAI_API_KEY: 'sk-test-GRADE-judge' },
    })
    expect(code, io.errors).toBe(0)
    expect(io.output).toContain('with the judge')
    const graded = gradedDirectory(io.output)
    const before = await documentAt(original)
    const after = await documentAt(graded)
    expect(after.run.configuration).toMatchObject({ regraded_with_judge: true })
    for (const [index, row] of after.results.entries()) {
      expect(row.metrics.task.semantic_quality.score).not.toBeNull()
      // The assistant's consumption is the original run's; the judge's usage is in the new details only.
      expect(row.metrics.consumption).toEqual(before.results[index]?.metrics.consumption)
      const details = ScenarioDetailsSchema.parse(
        JSON.parse(await readFile(join(graded, row.artifacts.details as string), 'utf8')),
      )
      expect(details.judge_usage_events.length).toBeGreaterThan(0)
      expect(details.rubric_metrics).toMatchObject({ task_understanding: { score: 0.75 } })
    }
    // The correct scenario stays passed with the judge's agreement; the wrong-tool one stays failed.
    expect(after.results.map((row) => row.status)).toEqual(before.results.map((row) => row.status))
    // A second grade of the same evidence is answered by the judge cache in the results folder.
    const requests = api.server.requestsTo('POST', '/v1/responses').length
    const cached = captured()
    await gradeCommand([original, '--judge', '--out', out], cached, {
      client: api.client,
      env: { OPENAI_API_KEY: 'sk-test-GRADE-judge' },
    })
    expect(api.server.requestsTo('POST', '/v1/responses')).toHaveLength(requests)
  })

  test('--judge applies the judgment like a run: a task the judge finds not understood fails its row', async () => {
    api.script.task_understanding = [failing(0.25, false)]
    api.script.grounded_communication = [passing(1)]
    const io = captured()
    const code = await gradeCommand([runs[0] as string, '--judge', '--out', join(dir, 'flipped')], io, {
      client: api.client,
      env: { OPENAI_API_KEY: 'sk-test-GRADE-judge', LIVE_EVALS_JUDGE_CACHE: 'off' },
    })
    expect(code, io.errors).toBe(0)
    const after = await documentAt(gradedDirectory(io.output))
    expect(after.summary).toMatchObject({ passed: 0, failed: 2 })
    for (const row of after.results) {
      expect(row.assessment?.checks).toContainEqual({
        id: 'semantic_outcome',
        status: 'failed',
        required: true,
      })
      expect(row.assessment?.checks).toContainEqual({
        id: 'assertion:toSatisfyRubric',
        status: 'failed',
        required: true,
      })
    }
  })

  test('--judge without an API key says what it needs', async () => {
    const io = captured()
    expect(
      await gradeCommand([runs[0] as string, '--judge', '--out', join(dir, 'nokey')], io, { env: {} }),
    ).toBe(1)
    expect(io.errors).toContain('--judge needs OPENAI_API_KEY')
  })

  test('a broken details file makes only its row an infrastructure_error naming the file', async () => {
    const copy = join(await mkdtemp(join(tmpdir(), 'live-evals-grade-')), 'run')
    await cp(runs[0] as string, copy, { recursive: true })
    const before = await documentAt(copy)
    const broken = before.results[0] as ResultItem
    await writeFile(join(copy, broken.artifacts.details as string), '{"schema_version": "2.0"')
    const io = captured()
    // Written and named, but not a success: a CI step re-grading this run does not pass.
    expect(await gradeCommand([copy], io, {}), io.errors).toBe(1)
    expect(io.errors).toContain(
      `live-evals grade: 1 row(s) not re-graded over what was recorded:\n  ${broken.scenario_id}: infrastructure error at input_setup: `,
    )
    const after = await documentAt(gradedDirectory(io.output))
    expect(after.results[0]).toMatchObject({
      status: 'infrastructure_error',
      error: { stage: 'input_setup' },
    })
    expect(after.results[0]?.error?.message).toContain(join(copy, broken.artifacts.details as string))
    expect(after.results[1]?.status).toBe(before.results[1]?.status)
    await rm(join(copy, '..'), { recursive: true, force: true })
  })

  test("a row graded against import-call's placeholder answer is never a pass when re-graded", async () => {
    const copy = join(await mkdtemp(join(tmpdir(), 'live-evals-grade-')), 'run')
    await cp(runs[0] as string, copy, { recursive: true })
    const before = await documentAt(copy)
    const index = before.results.findIndex((row) => row.status === 'passed')
    const passed = before.results[index] as ResultItem
    // As a run made before the placeholder was refused left it: the snapshot still holds the placeholder.
    const snapshot = join(copy, 'scenarios', `${passed.scenario_id}.json`)
    const document = JSON.parse(await readFile(snapshot, 'utf8'))
    document.scenarios[0].expected.answer = PLACEHOLDER_ANSWER
    await writeFile(snapshot, JSON.stringify(document))
    const io = captured()
    expect(await gradeCommand([copy], io, {}), io.errors).toBe(1)
    const after = await documentAt(gradedDirectory(io.output))
    expect(after.results[index]).toMatchObject({
      status: 'infrastructure_error',
      error: { stage: 'input_setup' },
    })
    expect(after.results[index]?.error?.message).toContain(
      `Scenario ${passed.scenario_id}: expected.answer is still the placeholder live-evals import-call wrote`,
    )
    await rm(join(copy, '..'), { recursive: true, force: true })
  })

  test('a folder without results.json, or a bad command line, is refused with a reason', async () => {
    const io = captured()
    expect(await gradeCommand([join(dir, 'nowhere')], io, {})).toBe(1)
    expect(io.errors).toContain('results.json: cannot read the run results (ENOENT)')
    const usage = captured()
    expect(await gradeCommand([], usage, {})).toBe(2)
    expect(await gradeCommand(['a', '--out'], usage, {})).toBe(2)
    expect(await gradeCommand(['a', '--frobnicate'], usage, {})).toBe(2)
    expect(usage.errors).toContain('unknown option --frobnicate')
  })
})
