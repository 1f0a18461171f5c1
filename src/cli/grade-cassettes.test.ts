// The command line of `live-evals grade --cassettes` without running Vitest: wrong arguments and folders are
// refused by name, and the Vitest run it starts is the recorded scenarios' replay with nothing that could reach
// the network (the end-to-end run is grade-cassettes.integration.test.ts).
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { writeHeaderOnlyCassette } from '../cassettes/cassette-header.test-helpers.ts'
import { withCassetteExtension } from '../cassettes/row-extension.ts'
import type { CassetteHeader } from '../cassettes/schema.ts'
import { resultsDocument, row } from '../gate/gate.test-helpers.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { gradeCassettesCommand } from './grade-cassettes.ts'
import type { VitestInvocation } from './vitest-child.ts'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-evals-grade-cassettes-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

/** A recorded cassette (header only) with gpt-live-1.1 as its live model unless `fields` says otherwise. */
const cassette = (folder: string, fields: Partial<CassetteHeader>) =>
  writeHeaderOnlyCassette(folder, { models: { live_model: 'gpt-live-1.1' }, ...fields })

async function command(argv: string[], env: NodeJS.ProcessEnv = {}) {
  let out = ''
  let err = ''
  const invocations: VitestInvocation[] = []
  const code = await gradeCassettesCommand(
    argv,
    { out: (text) => (out += text), err: (text) => (err += text) },
    {
      env,
      cwd: dir,
      runVitest: async (invocation) => {
        invocations.push(invocation)
        return { code: 0, output: '', resultFiles: [] }
      },
    },
  )
  return { code, out, err, invocations }
}

describe('live-evals grade --cassettes: the command line', () => {
  test('refuses a wrong command line with exit 2, naming the problem', async () => {
    expect((await command(['--cassettes'])).err).toContain('--cassettes needs a value')
    expect((await command(['--cassettes', 'x', '--judge'])).err).toContain(
      'with --cassettes the judge is answered from the recordings',
    )
    const match = await command(['--cassettes', 'x', '--match', 'loose'])
    expect(match.code).toBe(2)
    expect(match.err).toContain('--match must be strict or lenient (got "loose")')
    expect((await command(['--cassettes', 'x', 'extra'])).err).toContain('unexpected argument extra')
  })

  test('refuses a missing folder, an empty one, and phases side by side, by name', async () => {
    const missing = await command(['--cassettes', 'nowhere'])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain(`${join(dir, 'nowhere')} is not a folder of cassettes`)
    await mkdir(join(dir, 'empty', 'speech'), { recursive: true })
    expect((await command(['--cassettes', 'empty'])).err).toContain('holds no cassette')
    await cassette(join(dir, 'mixed'), {})
    await cassette(join(dir, 'mixed'), { id: 'walk_001__client', phase: 'walk', scenario_id: 'walk_001' })
    expect((await command(['--cassettes', 'mixed'])).err).toContain('holds cassettes of several phases')
  })

  test('names each unreadable cassette by file and by the header field that is wrong', async () => {
    const folder = join(dir, 'broken')
    await mkdir(join(folder, 'no_header'), { recursive: true })
    await writeFile(join(folder, 'no_header', 'cassette.json'), '{"sessions": []}')
    await cassette(folder, { id: 'wrong_phase', phase: 'hike' as never })
    await cassette(folder, {})
    const { err, invocations } = await command(['--cassettes', 'broken'])
    expect(err).toContain(
      `skipped ${join(folder, 'no_header', 'cassette.json')}: not a cassette of this version (header: `,
    )
    expect(err).toContain(
      `skipped ${join(folder, 'wrong_phase', 'cassette.json')}: not a cassette of this version (header.phase: `,
    )
    // The readable cassette is still re-graded.
    expect(invocations).toHaveLength(1)
  })

  test('starts one keyless replay per phase of exactly the recorded scenarios, architectures, trials and model', async () => {
    await cassette(join(dir, 'tapes', 'crawl'), {})
    await cassette(join(dir, 'tapes', 'crawl'), { id: 'crawl_002__responses', scenario_id: 'crawl_002' })
    await cassette(join(dir, 'tapes', 'run'), {
      id: 'run_001__client__t2',
      phase: 'run',
      architecture: 'client',
      scenario_id: 'run_001',
      trial: 2,
    })
    const { code, invocations, err } = await command(['--cassettes', 'tapes', '--out', 'graded'], {
      OPENAI_API_KEY: 'sk-test-must-not-reach-the-child',
      OPENAI_BASE_URL: 'https://example.invalid/v1',
      LIVE_EVALS_RECORD: '1',
      VITEST_WORKER_ID: '3',
      PATH: '/usr/bin',
    })
    // No run folder came back from the stand-in: the command says so and exits 1.
    expect(code).toBe(1)
    expect(err).toContain('the crawl re-grade wrote no results')
    expect(invocations.map((invocation) => invocation.args)).toEqual([
      ['run', '--project', 'crawl', '-t', '(?:^| > )(?:responses > (?:crawl_001|crawl_002)) > '],
      ['run', '--project', 'run', '-t', '(?:^| > )(?:client > (?:run_001)) > '],
    ])
    const [crawl, run] = invocations.map((invocation) => invocation.env)
    expect(crawl).toMatchObject({
      LIVE_EVALS_MODE: 'replay',
      LIVE_EVALS_REPLAY_REGRADE: '1',
      LIVE_EVALS_JUDGE_CACHE: 'false',
      LIVE_EVALS_CASSETTES: join(dir, 'tapes', 'crawl'),
      LIVE_EVALS_RESULTS_DIR: join(dir, 'graded'),
      OPENAI_ASSISTANT_MODE: 'responses',
      OPENAI_LIVE_MODEL: 'gpt-live-1.1',
      PATH: '/usr/bin',
    })
    expect(run).toMatchObject({ LIVE_EVALS_TRIALS: '2', OPENAI_ASSISTANT_MODE: 'client' })
    for (const env of [crawl, run]) {
      for (const name of ['OPENAI_API_KEY', 'OPENAI_BASE_URL', 'LIVE_EVALS_RECORD', 'VITEST_WORKER_ID']) {
        expect(env, name).not.toHaveProperty(name)
      }
    }
  })

  test('every recorded architecture is re-graded whatever the project selects; a recording with no row is named', async () => {
    const folder = join(dir, 'both')
    await cassette(folder, {})
    await cassette(folder, { id: 'crawl_001__client', architecture: 'client' })
    await cassette(folder, { id: 'crawl_002__responses', scenario_id: 'crawl_002' })
    let out = ''
    let err = ''
    const invocations: VitestInvocation[] = []
    // A project whose config evaluates only responses, and whose dataset no longer has crawl_002.
    const code = await gradeCassettesCommand(
      ['--cassettes', 'both'],
      { out: (text) => (out += text), err: (text) => (err += text) },
      {
        env: {},
        cwd: dir,
        runVitest: async (invocation) => {
          invocations.push(invocation)
          const architecture = invocation.env.OPENAI_ASSISTANT_MODE ?? 'responses'
          const file = join(dir, `results-${invocations.length}.json`)
          await writeFile(file, JSON.stringify(resultsDocument([row({ id: 'crawl_001' })], { architecture })))
          return { code: 0, output: '', resultFiles: [file] }
        },
      },
    )
    // In the folder's order: crawl_001__client comes first.
    expect(invocations.map((invocation) => invocation.env.OPENAI_ASSISTANT_MODE)).toEqual([
      'client',
      'responses',
    ])
    expect(invocations[0]?.args).toEqual([
      'run',
      '--project',
      'crawl',
      '-t',
      '(?:^| > )(?:client > (?:crawl_001)) > ',
    ])
    expect(code).toBe(1)
    const named = `${join(folder, 'crawl_002__responses')}: no row of scenario crawl_002 in the responses run`
    expect(err).toContain('live-evals grade: 1 recording(s) not re-graded:')
    expect(err).toContain(named)
    expect(out).toContain(`Not re-graded (1 recording(s)):\n  ${named}`)
  })

  test('exit 0 when every row was graded whatever its verdict; 1 naming each row that was not graded over its recording', async () => {
    const folder = join(dir, 'persona')
    await cassette(folder, {})
    await cassette(folder, { id: 'crawl_002__responses', scenario_id: 'crawl_002' })
    await cassette(folder, { id: 'crawl_003__responses', scenario_id: 'crawl_003' })
    const divergence = {
      channel: 'caller',
      turn: 0,
      message: 'session.start #1',
      path: 'session.instructions',
      recorded: '"a"',
      now: '"b"',
      text: 'caller session.start #1 (turn 0): session.instructions changed at character 181',
    }
    const lenient = withCassetteExtension(row({ id: 'crawl_003' }), {
      mode: 'replay',
      id: 'crawl_003__responses',
      outcome: 'diverged',
      match: 'lenient',
      divergence_count: 1,
      first_divergence: divergence,
      divergences: [divergence],
    })
    const regrade = async (rows: ResultItem[]) => {
      let out = ''
      let err = ''
      const code = await gradeCassettesCommand(
        ['--cassettes', 'persona'],
        { out: (text) => (out += text), err: (text) => (err += text) },
        {
          env: {},
          cwd: dir,
          runVitest: async () => {
            const file = join(dir, 'results.json')
            await writeFile(file, JSON.stringify(resultsDocument(rows, { architecture: 'responses' })))
            return { code: 1, output: '', resultFiles: [file] }
          },
        },
      )
      return { code, out, err }
    }
    const verdicts = await regrade([
      row({ id: 'crawl_001' }),
      row({ id: 'crawl_002', status: 'failed' }),
      row({ id: 'crawl_003' }),
    ])
    expect(verdicts.code, verdicts.err).toBe(0)

    const unsound = await regrade([
      row({ id: 'crawl_001' }),
      row({ id: 'crawl_002', status: 'infrastructure_error' }),
      lenient,
    ])
    expect(unsound.code).toBe(1)
    const named = [
      'crawl_002: infrastructure error at connection: refused',
      `crawl_003: graded although its replay diverged (${divergence.text})`,
    ].join('\n  ')
    expect(unsound.err).toContain(
      `live-evals grade: 2 row(s) not re-graded over what was recorded:\n  ${named}`,
    )
    expect(unsound.out).toContain(`Not re-graded over what was recorded (2 row(s)):\n  ${named}`)
  })

  test('--dataset, --project and --config apply to one phase only', async () => {
    await cassette(join(dir, 'tapes', 'crawl'), {})
    await cassette(join(dir, 'tapes', 'walk'), { id: 'walk_001__responses', phase: 'walk', scenario_id: 'w' })
    const { code, err } = await command(['--cassettes', 'tapes', '--dataset', 'd.json'])
    expect(code).toBe(2)
    expect(err).toContain('apply to one phase')
  })
})
