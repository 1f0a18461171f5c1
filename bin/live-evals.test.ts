import { spawnSync } from 'node:child_process'
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { NEEDS_PROJECT_NODE, nodeProblem, SUPPORTED_NODE, unsupportedNode } from './node-guard.js'

const bin = fileURLToPath(new URL('./live-evals.js', import.meta.url))

/** Runs the command with this (Node 24) binary and the given Node flags. */
function runBin(nodeFlags: string[], args: string[], at = { bin }) {
  const result = spawnSync(process.execPath, [...nodeFlags, at.bin, ...args], { encoding: 'utf8' })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('bin/live-evals.js on a Node that cannot run TypeScript', () => {
  test('type stripping turned off: one clear line and exit 1, before any .ts is loaded', () => {
    // Stands in for an old Node: without the guard the .ts import fails with ERR_UNKNOWN_FILE_EXTENSION. The
    // command is copied where no build sits beside it: a checkout with dist/ (after `npm run build` or `npm pack`)
    // runs the compiled code, which needs no type stripping.
    const unbuilt = mkdtempSync(join(tmpdir(), 'live-evals-unbuilt-'))
    mkdirSync(join(unbuilt, 'bin'))
    for (const file of ['live-evals.js', 'node-guard.js'])
      copyFileSync(fileURLToPath(new URL(`./${file}`, import.meta.url)), join(unbuilt, 'bin', file))
    const { status, stdout, stderr } = runBin(['--no-experimental-strip-types'], ['--help'], {
      bin: join(unbuilt, 'bin', 'live-evals.js'),
    })
    rmSync(unbuilt, { recursive: true, force: true })
    expect(status).toBe(1)
    expect(stdout).toBe('')
    expect(stderr.trimEnd().split('\n')).toHaveLength(1)
    expect(stderr).toContain(NEEDS_PROJECT_NODE)
    expect(stderr).toContain(`found Node v${process.versions.node}, without type stripping`)
    expect(stderr).not.toMatch(/ERR_UNKNOWN_FILE_EXTENSION|at /)
  })

  test('the project Node runs the command as before', () => {
    const { status, stdout, stderr } = runBin([], ['--help'])
    expect(stderr).toBe('')
    expect(status).toBe(0)
    expect(stdout).toMatch(/^Usage: live-evals <command>/)
  })
})

describe('nodeProblem', () => {
  test('names the project Node and the command to use', () => {
    expect(NEEDS_PROJECT_NODE).toBe(
      'live-evals runs its TypeScript sources directly and needs Node 24 from this project: ' +
        'use `npx live-evals …` or `npm run live-evals -- …`',
    )
  })

  test.each([
    ['24.21.0', 'strip'],
    ['22.18.0', 'strip'],
    ['23.6.0', 'strip'],
    ['v25.0.0', 'transform'],
  ])('Node %s with typescript=%s can run it', (version, typescript) => {
    expect(nodeProblem(version, typescript)).toBeNull()
  })

  test.each([
    ['20.20.2', undefined, 'found Node v20.20.2, without type stripping'],
    ['24.21.0', false, 'found Node v24.21.0, without type stripping'],
    ['23.5.0', false, 'found Node v23.5.0, without type stripping'],
    // 22.10–22.17 with --experimental-strip-types: stripping is on, but the release is older than we support.
    ['22.17.0', 'strip', 'found Node v22.17.0, too old'],
    ['v21.9.0', 'strip', 'found Node v21.9.0, too old'],
  ])('Node %s with typescript=%s cannot', (version, typescript, detail) => {
    expect(nodeProblem(version, typescript)).toBe(`${NEEDS_PROJECT_NODE} (${detail})`)
  })
})

describe('unsupportedNode (the compiled package runs on any Node Vitest 5 supports)', () => {
  test.each(['22.12.0', '22.20.1', '24.21.0', '26.0.0', 'v27.1.0'])('%s is supported', (version) => {
    expect(unsupportedNode(version)).toBeNull()
  })

  test.each(['20.20.2', '22.11.0', '23.5.0', '25.1.0'])('%s is refused naming the range', (version) => {
    expect(unsupportedNode(version)).toBe(
      `live-evals needs Node ${SUPPORTED_NODE}, as Vitest 5 does (found Node v${version})`,
    )
  })
})
