import {
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { reserveRunDirectory } from './run-directory.ts'
import { assertReplaceableDestination, writeArtifact, writeArtifactSync, writeJsonArtifact } from './write.ts'

let root: string
let runDir: string
let outside: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-write-'))
  runDir = join(root, 'run')
  outside = join(root, 'outside')
  mkdirSync(runDir, { mode: 0o700 })
  mkdirSync(outside)
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const modeOf = (path: string) => statSync(path).mode & 0o777

describe('writeArtifact', () => {
  it('creates missing folders 0700 and the file 0600', async () => {
    const path = await writeArtifact(runDir, 'audio/s1/input.wav', new Uint8Array([1, 2, 3]))
    expect(path).toBe(join(runDir, 'audio/s1/input.wav'))
    expect([...readFileSync(path)]).toEqual([1, 2, 3])
    expect(modeOf(path)).toBe(0o600)
    expect(modeOf(join(runDir, 'audio'))).toBe(0o700)
    expect(modeOf(join(runDir, 'audio/s1'))).toBe(0o700)
  })

  it('recreates a folder removed between writes; one swapped for a symlink is still refused', async () => {
    await writeArtifact(runDir, 'audio/s1/input.wav', new Uint8Array([1]))
    await writeArtifact(runDir, 'audio/s1/output.wav', new Uint8Array([2]))
    rmSync(join(runDir, 'audio/s1'), { recursive: true })
    await writeArtifact(runDir, 'audio/s1/conversation.wav', new Uint8Array([3]))
    expect([...readFileSync(join(runDir, 'audio/s1/conversation.wav'))]).toEqual([3])
    expect(modeOf(join(runDir, 'audio/s1'))).toBe(0o700)
    // A folder found on the way is checked by the path check alone: a symlink there is still refused.
    rmSync(join(runDir, 'audio/s1'), { recursive: true })
    symlinkSync(outside, join(runDir, 'audio/s1'))
    await expect(writeArtifact(runDir, 'audio/s1/input.wav', new Uint8Array([4]))).rejects.toThrow(
      'audio/s1 is a symbolic link',
    )
    expect(() => statSync(join(outside, 'input.wav'))).toThrow()
  })

  it('replaces an existing artifact and makes it 0600 whatever its mode was', async () => {
    const path = join(runDir, 'results.json')
    writeFileSync(path, 'a much longer previous content')
    chmodSync(path, 0o644)
    await writeArtifact(runDir, 'results.json', '{}')
    expect(readFileSync(path, 'utf8')).toBe('{}')
    expect(modeOf(path)).toBe(0o600)
  })

  it('refuses traversal and absolute paths without writing anything', async () => {
    await expect(writeArtifact(runDir, '../outside/x.json', 'x')).rejects.toThrow('".." segment')
    await expect(writeArtifact(runDir, join(outside, 'x.json'), 'x')).rejects.toThrow('absolute')
    await expect(writeArtifact(runDir, 'transcripts/r\u00e9sum\u00e9.json', 'x')).rejects.toThrow('non-ASCII')
    expect(() => statSync(join(outside, 'x.json'))).toThrow()
  })

  it('does not follow a symlinked folder', async () => {
    symlinkSync(outside, join(runDir, 'events'))
    await expect(writeArtifact(runDir, 'events/s1.jsonl', 'x')).rejects.toThrow('events is a symbolic link')
    expect(() => statSync(join(outside, 's1.jsonl'))).toThrow()
  })

  it('does not write through a symlinked file', async () => {
    const target = join(outside, 'target.json')
    writeFileSync(target, 'original')
    symlinkSync(target, join(runDir, 'results.json'))
    await expect(writeArtifact(runDir, 'results.json', 'evil')).rejects.toThrow('symbolic link')
    expect(readFileSync(target, 'utf8')).toBe('original')
  })

  it('never truncates or writes a hard-linked file', async () => {
    const precious = join(outside, 'precious.txt')
    writeFileSync(precious, 'keep me')
    linkSync(precious, join(runDir, 'results.json'))
    await expect(writeArtifact(runDir, 'results.json', 'evil')).rejects.toThrow('hard-linked')
    expect(readFileSync(precious, 'utf8')).toBe('keep me')
  })

  it('writes JSON with a trailing newline', async () => {
    const path = await writeJsonArtifact(runDir, 'results.json', { a: 1 })
    expect(readFileSync(path, 'utf8')).toBe('{\n  "a": 1\n}\n')
  })
})

describe('the guard before the rename (against a swap after the path check)', () => {
  it('refuses a destination that became a symlink', async () => {
    const target = join(outside, 'target.json')
    writeFileSync(target, 'original')
    const destination = join(runDir, 'results.json')
    symlinkSync(target, destination)
    expect(() => assertReplaceableDestination(runDir, 'results.json', destination)).toThrow(
      'the destination is a symbolic link',
    )
    expect(readFileSync(target, 'utf8')).toBe('original')
  })

  it('refuses a destination that became hard-linked', async () => {
    const precious = join(outside, 'precious.txt')
    writeFileSync(precious, 'keep me')
    const destination = join(runDir, 'results.json')
    linkSync(precious, destination)
    expect(() => assertReplaceableDestination(runDir, 'results.json', destination)).toThrow(
      'the destination is hard-linked (2 links)',
    )
    expect(readFileSync(precious, 'utf8')).toBe('keep me')
  })
})

describe('modes do not depend on the umask', () => {
  it('creates 0700 folders and 0600 files under a restrictive umask', async () => {
    let previous: number
    try {
      previous = process.umask(0o277)
    } catch {
      // Worker threads cannot change the umask; the forks pool (the default) can.
      throw new Error('this test needs a process that may change its umask (Vitest forks pool)')
    }
    try {
      const run = await reserveRunDirectory(join(root, 'results'), 'umask', new Date(0))
      const path = await writeArtifact(run.path, 'audio/s1/input.wav', 'x')
      expect(modeOf(join(root, 'results'))).toBe(0o700)
      expect(modeOf(run.path)).toBe(0o700)
      expect(modeOf(join(run.path, 'audio/s1'))).toBe(0o700)
      expect(modeOf(path)).toBe(0o600)
      expect(modeOf(writeArtifactSync(run.path, 'results.json', '{}'))).toBe(0o600)
    } finally {
      process.umask(previous)
    }
  })
})
