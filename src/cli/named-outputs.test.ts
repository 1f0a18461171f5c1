// The files a person names for a summary (issue 23, point 7): `report --out`, `gate --summary` and the step
// summary GitHub names are never written through a symbolic link planted at the name, and are created 0600
// even under umask 000.
import { lstat, mkdtemp, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest'
import { resultsDocument, row } from '../gate/gate.test-helpers.ts'
import { writeSampleRun } from '../report/report.test-helpers.ts'
import { captureIO } from './capture-io.ts'
import { run as gate } from './gate.ts'
import { run as report } from './report.ts'

let folder = ''
let runs: string[] = []
let results = ''
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'live-evals-named-outputs-'))
  runs = [await mkdtemp(join(folder, 'crawl_offline_a_')), await mkdtemp(join(folder, 'crawl_offline_b_'))]
  for (const run of runs) await writeSampleRun(run)
  results = join(folder, 'results.json')
  await writeFile(results, JSON.stringify(resultsDocument([row({ id: 'a' })])))
})
afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})
afterEach(() => {
  vi.unstubAllEnvs()
})

/** Runs `body` under umask 000 (the forks pool lets a test change it). */
async function underOpenUmask<T>(body: () => Promise<T>): Promise<T> {
  const previous = process.umask(0)
  try {
    return await body()
  } finally {
    process.umask(previous)
  }
}

const outputs: Record<string, (destination: string) => Promise<{ code: number; stderr: string }>> = {
  'report --out': async (destination) => {
    const io = captureIO()
    return { code: await report([...runs, '--out', destination], io), stderr: io.stderr() }
  },
  'gate --summary': async (destination) => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', '')
    const io = captureIO()
    return {
      code: await gate([results, '--no-thresholds', '--summary', destination], io),
      stderr: io.stderr(),
    }
  },
  'gate with GITHUB_STEP_SUMMARY': async (destination) => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', destination)
    const io = captureIO()
    return { code: await gate([results, '--no-thresholds'], io), stderr: io.stderr() }
  },
}

describe.each(Object.entries(outputs))('%s', (name, write) => {
  const slug = name.replace(/\W+/g, '_')

  test('creates the file 0600 under umask 000', async () => {
    const destination = join(folder, `${slug}.out`)
    const result = await underOpenUmask(() => write(destination))
    expect(result.code, result.stderr).toBe(0)
    expect((await stat(destination)).mode & 0o777).toBe(0o600)
  })

  test('a file in a missing folder is refused naming that folder, never a temporary file', async () => {
    const absent = join(folder, `${slug}-absent`)
    const result = await write(join(absent, 'out.md'))
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain(`the folder ${absent} does not exist`)
    expect(result.stderr).not.toContain('.tmp')
  })

  test('refuses a symbolic link at the name, naming it, and leaves its target untouched', async () => {
    const target = join(folder, `${slug}.target`)
    await writeFile(target, 'precious\n')
    const destination = join(folder, `${slug}.link`)
    await symlink(target, destination)
    const result = await write(destination)
    expect(result.code).not.toBe(0)
    expect(result.stderr).toContain(destination)
    expect(result.stderr).toContain('symbolic link')
    expect(await readFile(target, 'utf8')).toBe('precious\n')
    expect((await lstat(destination)).isSymbolicLink()).toBe(true)
  })
})
