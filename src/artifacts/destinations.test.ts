import { linkSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { artifactPathProblem, resolveArtifactPath, resolveArtifactPathSync } from './destinations.ts'

let root: string
let runDir: string
let outside: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-dest-'))
  runDir = join(root, 'run')
  outside = join(root, 'outside')
  mkdirSync(runDir)
  mkdirSync(outside)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

describe('artifactPathProblem', () => {
  it.each(['results.json', 'audio/restaurant_001/input.wav', 'events/a.b-c_9.jsonl', 'transcripts/x.json'])(
    'accepts %s',
    (path) => {
      expect(artifactPathProblem(path)).toBeNull()
    },
  )

  it.each([
    ['', 'empty'],
    ['/etc/passwd', 'absolute'],
    ['C:/x.json', 'absolute'],
    ['../escape.json', '".." segment'],
    ['audio/../../escape.json', '".." segment'],
    ['./results.json', '"." segment'],
    ['audio//input.wav', 'empty segment'],
    ['audio/', 'empty segment'],
    ['audio\\input.wav', 'backslash'],
    ['audio/caf\u00e9.wav', 'non-ASCII'],
    ['audio/\u0007bell', 'non-ASCII or control'],
    ['audio/CON', 'Windows device name'],
    ['aux.json', 'Windows device name'],
    ['.hidden', 'start with a letter or digit'],
    ['with space.json', 'only ASCII letters'],
    ['name.', 'must not end with "."'],
  ])('refuses %j (%s)', (path, reason) => {
    expect(artifactPathProblem(path)).toContain(reason)
  })
})

describe('resolveArtifactPath', () => {
  it('returns the absolute destination inside the run folder', async () => {
    expect(await resolveArtifactPath(runDir, 'audio/s1/input.wav')).toBe(join(runDir, 'audio/s1/input.wav'))
  })

  it('names the path and the reason when refusing by text', async () => {
    await expect(resolveArtifactPath(runDir, '../x.json')).rejects.toThrow(
      `Artifact destination "../x.json" in ${runDir} refused: the path has a ".." segment`,
    )
  })

  it('refuses a symlinked folder on the way', async () => {
    symlinkSync(outside, join(runDir, 'audio'))
    await expect(resolveArtifactPath(runDir, 'audio/s1/input.wav')).rejects.toThrow(
      'audio is a symbolic link',
    )
  })

  it('refuses a symlinked folder deeper down', async () => {
    mkdirSync(join(runDir, 'audio'))
    symlinkSync(outside, join(runDir, 'audio/s1'))
    await expect(resolveArtifactPath(runDir, 'audio/s1/input.wav')).rejects.toThrow(
      'audio/s1 is a symbolic link',
    )
  })

  it('refuses a destination that is a symlink, even a dangling one', async () => {
    symlinkSync(join(outside, 'target.json'), join(runDir, 'results.json'))
    await expect(resolveArtifactPath(runDir, 'results.json')).rejects.toThrow(
      'results.json is a symbolic link',
    )
  })

  it('refuses a hard-linked destination', async () => {
    writeFileSync(join(outside, 'precious.txt'), 'keep')
    linkSync(join(outside, 'precious.txt'), join(runDir, 'results.json'))
    await expect(resolveArtifactPath(runDir, 'results.json')).rejects.toThrow('hard-linked (2 links)')
  })

  it('accepts an existing single-link file (artifacts may be rewritten)', async () => {
    writeFileSync(join(runDir, 'results.json'), '{}')
    expect(await resolveArtifactPath(runDir, 'results.json')).toBe(join(runDir, 'results.json'))
  })

  it('refuses a destination that is a folder, and a file used as a folder', async () => {
    mkdirSync(join(runDir, 'events'))
    await expect(resolveArtifactPath(runDir, 'events')).rejects.toThrow('not a regular file')
    writeFileSync(join(runDir, 'audio'), '')
    await expect(resolveArtifactPath(runDir, 'audio/x.wav')).rejects.toThrow('audio is not a folder')
  })

  it('refuses a run folder that is a symlink or missing', async () => {
    symlinkSync(runDir, join(root, 'alias'))
    await expect(resolveArtifactPath(join(root, 'alias'), 'results.json')).rejects.toThrow(
      'the run folder is a symbolic link',
    )
    await expect(resolveArtifactPath(join(root, 'gone'), 'results.json')).rejects.toThrow(
      'the run folder does not exist',
    )
  })
})

describe('resolveArtifactPathSync', () => {
  // The same rules as resolveArtifactPath, driven without awaiting: each kind of refusal once.
  it('refuses by text, by the run folder and by every existing part, like the asynchronous check', () => {
    expect(resolveArtifactPathSync(runDir, 'audio/s1/input.wav')).toBe(join(runDir, 'audio/s1/input.wav'))
    expect(() => resolveArtifactPathSync(runDir, '../x.json')).toThrow('".." segment')
    expect(() => resolveArtifactPathSync(join(root, 'gone'), 'x.json')).toThrow(
      'the run folder does not exist',
    )
    mkdirSync(join(runDir, 'audio'))
    symlinkSync(outside, join(runDir, 'audio/s1'))
    expect(() => resolveArtifactPathSync(runDir, 'audio/s1/input.wav')).toThrow('audio/s1 is a symbolic link')
    writeFileSync(join(outside, 'precious.txt'), 'keep')
    linkSync(join(outside, 'precious.txt'), join(runDir, 'results.json'))
    expect(() => resolveArtifactPathSync(runDir, 'results.json')).toThrow('hard-linked (2 links)')
  })
})
