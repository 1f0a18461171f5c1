import { execFile } from 'node:child_process'
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ArtifactsError, ResultsDirectoryError } from './errors.ts'
import { makePrivateDirectories, privateDirectoryProblem } from './private-directories.ts'
import { reserveRunDirectory } from './run-directory.ts'

// Results-folder problems are refused in one plain sentence naming the path and the problem, before anything
// is created, so a refused run leaves nothing behind.

const NOW = new Date('2026-08-18T10:20:30.400Z')
let root: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-refusals-'))
})
afterEach(() => {
  chmodSync(root, 0o700)
  rmSync(root, { recursive: true, force: true })
})

async function refusalOf(promise: Promise<unknown>): Promise<ResultsDirectoryError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  )
  expect(error).toBeInstanceOf(ResultsDirectoryError)
  expect(error).toBeInstanceOf(ArtifactsError)
  const message = (error as Error).message
  expect(message).not.toContain('\n')
  expect(message.endsWith('.')).toBe(true)
  return error as ResultsDirectoryError
}

describe('a results folder that cannot be used', () => {
  it('is refused as a symbolic link (not as "exists but is not a directory"), even to a real folder', async () => {
    mkdirSync(join(root, 'real'))
    symlinkSync(join(root, 'real'), join(root, 'results'))
    const error = await refusalOf(reserveRunDirectory(join(root, 'results'), 'crawl', NOW))
    expect(error.message).toBe(
      `Results folder ${join(root, 'results')} is a symbolic link (to ${join(root, 'real')}); live-evals writes only into a real folder, so give the folder's own path.`,
    )
    expect(readdirSync(join(root, 'real'))).toEqual([])
  })

  it('is refused when it is a file, and the file is left as it was', async () => {
    writeFileSync(join(root, 'results'), 'mine')
    const error = await refusalOf(reserveRunDirectory(join(root, 'results'), 'crawl', NOW))
    expect(error.message).toBe(
      `Results folder ${join(root, 'results')} is a file, not a folder; remove it or choose another results folder.`,
    )
    expect(error.path).toBe(join(root, 'results'))
  })

  it('creates none of its missing parents when a parent is a file', async () => {
    writeFileSync(join(root, 'file'), '')
    await refusalOf(reserveRunDirectory(join(root, 'file/a/b/results'), 'crawl', NOW))
    await refusalOf(reserveRunDirectory(join(root, 'file/results'), 'crawl', NOW))
    expect(readdirSync(root)).toEqual(['file'])
  })

  it('is refused when this user cannot write it, and nothing is created', async () => {
    const readOnly = join(root, 'read-only')
    mkdirSync(readOnly)
    chmodSync(readOnly, 0o555)
    chmodSync(root, 0o755) // the unprivileged user below must reach it
    const checks = [readOnly, join(readOnly, 'new', 'results')]
    const problems = await problemsAsUnprivilegedUser(checks)
    expect(problems).toEqual([
      `Results folder ${readOnly} is not writable by this user; fix its permissions or choose another results folder.`,
      `Results folder ${join(readOnly, 'new', 'results')} cannot be created: ${readOnly} is not writable by this user.`,
    ])
    expect(readdirSync(readOnly)).toEqual([])
  })
})

describe('the attachments folder Vitest copies audio into', () => {
  it('is refused when it is a file or a symbolic link, naming it as the attachments folder', async () => {
    const results = join(root, 'results')
    mkdirSync(results)
    writeFileSync(join(results, '.attachments'), '')
    expect(
      (await refusalOf(makePrivateDirectories(join(results, '.attachments'), 'attachments folder'))).message,
    ).toBe(
      `Attachments folder ${join(results, '.attachments')} is a file, not a folder; remove it or choose another attachments folder.`,
    )
    rmSync(join(results, '.attachments'))
    symlinkSync(join(root, 'elsewhere'), join(results, '.attachments'))
    const error = await refusalOf(makePrivateDirectories(join(results, '.attachments'), 'attachments folder'))
    expect(error.message).toContain('.attachments is a symbolic link (to ')
    expect(readdirSync(results)).toEqual(['.attachments'])
  })

  it('is created private when missing, with its missing parents', async () => {
    const created = await makePrivateDirectories(join(root, 'r', '.attachments'), 'attachments folder')
    expect(created).toEqual([join(root, 'r'), join(root, 'r', '.attachments')])
    expect(await privateDirectoryProblem(join(root, 'r', '.attachments'))).toBeNull()
  })
})

/**
 * The problems `privateDirectoryProblem` reports for `paths`, checked by a user without write access: as root
 * (who may write anywhere) the check runs in a child process as "nobody"; otherwise in this process.
 */
async function problemsAsUnprivilegedUser(paths: readonly string[]): Promise<(string | null)[]> {
  if (process.getuid?.() !== 0) {
    return Promise.all(paths.map((path) => privateDirectoryProblem(path, 'results folder')))
  }
  const module = new URL('./private-directories.ts', import.meta.url).pathname
  const script = `
    const { privateDirectoryProblem } = await import(${JSON.stringify(module)})
    const paths = ${JSON.stringify(paths)}
    const problems = []
    for (const path of paths) problems.push(await privateDirectoryProblem(path, 'results folder'))
    process.stdout.write(JSON.stringify(problems))`
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], {
    uid: 65534,
    gid: 65534,
    cwd: '/',
  })
  return JSON.parse(stdout) as (string | null)[]
}
