import { lstat, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { resultsDocument, row } from '../src/gate/gate.test-helpers.ts'
import { writeRunResultsFile } from './run-results-file.ts'

let folder = ''
let runDir = ''
beforeEach(async () => {
  folder = await mkdtemp(join(tmpdir(), 'live-evals-results-file-'))
  runDir = join(folder, 'crawl_offline_responses_run')
  await mkdir(runDir, { mode: 0o700 })
})
afterEach(async () => {
  await rm(folder, { recursive: true, force: true })
})

const document = resultsDocument([row({ id: 'a' }), row({ id: 'b', status: 'failed' })])

describe("a run's results file", () => {
  test('is written as results.json when nothing is in the way', async () => {
    const lines: string[] = []
    expect(await writeRunResultsFile(runDir, 'results.json', document, (line) => lines.push(line))).toBe(
      'results.json',
    )
    expect(JSON.parse(await readFile(join(runDir, 'results.json'), 'utf8'))).toEqual(document)
    expect(lines).toEqual([])
  })

  test('a symbolic link planted at results.json is refused by name and the results are written beside it', async () => {
    const target = join(folder, 'elsewhere.json')
    await writeFile(target, 'not yours\n')
    await symlink(target, join(runDir, 'results.json'))
    const lines: string[] = []
    const written = await writeRunResultsFile(runDir, 'results.json', document, (line) => lines.push(line))
    expect(written).toBe('results.recovered.json')
    expect(JSON.parse(await readFile(join(runDir, 'results.recovered.json'), 'utf8'))).toEqual(document)
    expect(await readFile(target, 'utf8')).toBe('not yours\n')
    expect((await lstat(join(runDir, 'results.json'))).isSymbolicLink()).toBe(true)
    expect(lines[0]).toContain('"results.json"')
    expect(lines[0]).toContain('symbolic link')
    expect(lines[1]).toBe(
      `live-evals: the results were written beside it instead: ${runDir}/results.recovered.json`,
    )
  })

  test('when the name beside is refused too, each refusal is said and nothing throws', async () => {
    await mkdir(join(runDir, 'results.json'))
    await symlink(join(folder, 'nowhere'), join(runDir, 'results.recovered.json'))
    const lines: string[] = []
    expect(await writeRunResultsFile(runDir, 'results.json', document, (line) => lines.push(line))).toBeNull()
    expect(lines).toHaveLength(2)
    expect(lines[1]).toContain('"results.recovered.json"')
  })
})
