// An unsupported Node is refused when vitest.config.ts calls liveEvalsProject(), before anything is collected or
// run, with the CLI's one line (bin/node-guard.js). The system Node of our machines is 20, which Vitest 5 does not
// support: run on it, the fixture project prints that line and runs nothing.
import { spawnSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { unsupportedNode } from '../../../bin/node-guard.js'
import { FIXTURE_CONFIG, ROOT, scratch } from '../child-vitest.test-helpers.ts'
import { nodeSupportProblem } from './node-support.ts'

const SYSTEM_NODE = '/usr/bin/node'

function versionOf(node: string): string | null {
  if (!existsSync(node)) return null
  const ran = spawnSync(node, ['-p', 'process.versions.node'], { encoding: 'utf8' })
  return ran.status === 0 ? ran.stdout.trim() : null
}

const systemVersion = versionOf(SYSTEM_NODE)
const systemUnsupported = systemVersion !== null && unsupportedNode(systemVersion) !== null

test('the plugin refuses exactly what the CLI refuses, with its message', () => {
  for (const version of ['20.20.2', '22.11.0', '23.5.0', '22.12.0', '24.21.0', '26.1.0']) {
    expect(nodeSupportProblem(version)).toBe(unsupportedNode(version))
  }
  expect(nodeSupportProblem('20.20.2')).toMatch(/^live-evals needs Node .* \(found Node v20\.20\.2\)$/)
  expect(nodeSupportProblem()).toBeNull() // this test runs on the project's Node
})

describe.skipIf(!systemUnsupported)(`vitest run on the system Node (${systemVersion ?? 'none'})`, () => {
  test('prints one line, exits 1, runs nothing and claims no run folder', async () => {
    const space = await scratch()
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, CI: '1', NO_COLOR: '1' }
    const ran = spawnSync(
      SYSTEM_NODE,
      [join(ROOT, 'node_modules/vitest/vitest.mjs'), 'run', '--config', FIXTURE_CONFIG],
      { cwd: ROOT, env: { ...env, ...space.env }, encoding: 'utf8', timeout: 120_000 },
    )
    const expected = unsupportedNode(systemVersion ?? '')
    expect(ran.status, `${ran.stdout}${ran.stderr}`).toBe(1)
    expect(ran.stderr.split('\n').filter((line) => line.startsWith('live-evals'))).toEqual([expected])
    expect(`${ran.stdout}${ran.stderr}`).not.toMatch(/\bRUN\b|passed|failed|Map\.groupBy/)
    expect(existsSync(join(space.dir, 'results'))).toBe(false)
  })
})
