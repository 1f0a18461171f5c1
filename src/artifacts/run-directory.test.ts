import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { MAX_RUN_NAME_ATTEMPTS, reserveRunDirectory } from './run-directory.ts'
import { runName } from './run-name.ts'

const NOW = new Date('2026-08-18T10:20:30.400Z')
let root: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-runs-'))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const modeOf = (path: string) => statSync(path).mode & 0o777

describe('reserveRunDirectory', () => {
  it('creates missing results folders and the run folder, all 0700', async () => {
    const results = join(root, 'a/b/results')
    const run = await reserveRunDirectory(results, 'crawl_offline', NOW)
    expect(run.name).toBe('crawl_offline_20260818_102030_400Z')
    expect(run.path).toBe(join(results, run.name))
    expect(run.startedAt).toEqual(NOW)
    for (const folder of [join(root, 'a'), join(root, 'a/b'), results, run.path])
      expect(modeOf(folder)).toBe(0o700)
    expect(readdirSync(run.path)).toEqual([])
  })

  it('leaves an existing results folder as it is', async () => {
    const results = join(root, 'shared')
    mkdirSync(results, { mode: 0o755 })
    const before = modeOf(results)
    await reserveRunDirectory(results, 'x', NOW)
    expect(modeOf(results)).toBe(before)
  })

  it('never reuses an existing run folder: it takes the next free millisecond', async () => {
    const first = await reserveRunDirectory(root, 'run', NOW)
    writeFileSync(join(first.path, 'results.json'), '{}')
    const second = await reserveRunDirectory(root, 'run', NOW)
    const third = await reserveRunDirectory(root, 'run', NOW)
    expect(second.name).toBe('run_20260818_102030_401Z')
    expect(second.startedAt.getTime()).toBe(NOW.getTime() + 1)
    expect(third.name).toBe('run_20260818_102030_402Z')
    expect(readdirSync(first.path)).toEqual(['results.json'])
    expect(readdirSync(second.path)).toEqual([])
  })

  it('does not treat a file of the same name as free', async () => {
    writeFileSync(join(root, 'run_20260818_102030_400Z'), '')
    const run = await reserveRunDirectory(root, 'run', NOW)
    expect(run.name).toBe('run_20260818_102030_401Z')
  })

  it('gives up with a clear error when every candidate name is taken', async () => {
    for (let offset = 0; offset < MAX_RUN_NAME_ATTEMPTS; offset++) {
      mkdirSync(join(root, runName('busy', new Date(NOW.getTime() + offset))))
    }
    await expect(reserveRunDirectory(root, 'busy', NOW)).rejects.toThrow(
      /Cannot reserve a run folder .* use another label/,
    )
  })

  it('rejects an unsafe label before creating anything', async () => {
    const results = join(root, 'never')
    await expect(reserveRunDirectory(results, '../escape', NOW)).rejects.toThrow('Run label')
    expect(() => statSync(results)).toThrow()
  })

  it('names the results folder when it cannot be created', async () => {
    writeFileSync(join(root, 'file'), '')
    await expect(reserveRunDirectory(join(root, 'file/results'), 'x', NOW)).rejects.toThrow(
      `Results folder ${join(root, 'file/results')} cannot be created: ${join(root, 'file')} is a file, not a folder.`,
    )
  })
})
