import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { open } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { isTemporaryName, WRITE_CHUNK_BYTES, writeFileAtomically } from './atomic-file.ts'
import { ArtifactPathError } from './errors.ts'
import { removeStrayTemporaries } from './stray-temporaries.ts'
import { writeArtifact, writeArtifactSync } from './write.ts'

// An artifact is replaced, never rewritten in place: whenever a writer stops, the destination holds the whole
// old file or the whole new one. The writer is stopped at a hook between chunks, in this process (the hook
// throws) and in a child process (the hook sends SIGKILL to its own process), never at a random time.

let root: string
let runDir: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-atomic-'))
  runDir = join(root, 'run')
  mkdirSync(runDir, { mode: 0o700 })
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

const OLD = 'old artifact, complete\n'
const NEW = Buffer.alloc(WRITE_CHUNK_BYTES * 4 + 17, 0x6e) // several chunks of "n"

describe('atomic artifact writes', () => {
  it('flushes the data before the rename unless told not to, and writes it whole either way', async () => {
    const probe = await open(join(root, 'probe'), 'w')
    const sync = vi.spyOn(Object.getPrototypeOf(probe) as { sync(): Promise<void> }, 'sync')
    await probe.close()
    try {
      await writeFileAtomically(join(runDir, 'flushed.bin'), NEW)
      expect(sync).toHaveBeenCalledTimes(1)
      await writeFileAtomically(join(runDir, 'unflushed.bin'), NEW, { flush: false })
      expect(sync).toHaveBeenCalledTimes(1)
    } finally {
      sync.mockRestore()
    }
    expect(readFileSync(join(runDir, 'unflushed.bin')).equals(NEW)).toBe(true)
    expect(readdirSync(runDir).sort()).toEqual(['flushed.bin', 'unflushed.bin'])
  })

  it('leaves the old file whole and no temporary file when the writer stops mid-way', async () => {
    mkdirSync(join(runDir, 'transcripts'))
    writeFileSync(join(runDir, 'transcripts/s1.json'), OLD)
    const seen: number[] = []
    const write = writeArtifact(runDir, 'transcripts/s1.json', NEW, {
      afterChunk: (written) => {
        seen.push(written)
        // Mid-way: a reader now sees the old file, whole.
        expect(readFileSync(join(runDir, 'transcripts/s1.json'), 'utf8')).toBe(OLD)
        if (written >= WRITE_CHUNK_BYTES * 2) throw new Error('stopped by the test')
      },
    })
    await expect(write).rejects.toBeInstanceOf(ArtifactPathError)
    await expect(write).rejects.toThrow('cannot write the file (stopped by the test)')
    expect(seen).toEqual([WRITE_CHUNK_BYTES, WRITE_CHUNK_BYTES * 2])
    expect(readFileSync(join(runDir, 'transcripts/s1.json'), 'utf8')).toBe(OLD)
    expect(readdirSync(join(runDir, 'transcripts'))).toEqual(['s1.json'])
  })

  it('shows nothing at a new destination until the whole file is there', async () => {
    await writeArtifact(runDir, 'audio.wav', NEW, {
      afterChunk: () => expect(readdirSync(runDir).filter((name) => !isTemporaryName(name))).toEqual([]),
    })
    expect(readFileSync(join(runDir, 'audio.wav')).equals(NEW)).toBe(true)
    expect(statSync(join(runDir, 'audio.wav')).mode & 0o777).toBe(0o600)
    expect(readdirSync(runDir)).toEqual(['audio.wav'])
  })

  it('replaces a file with a new inode, so a hard link taken earlier by a reader keeps the old bytes', async () => {
    writeFileSync(join(runDir, 'results.json'), OLD)
    const before = statSync(join(runDir, 'results.json')).ino
    await writeArtifact(runDir, 'results.json', '{}')
    expect(statSync(join(runDir, 'results.json')).ino).not.toBe(before)
    expect(readFileSync(join(runDir, 'results.json'), 'utf8')).toBe('{}')
  })

  it('writes synchronously with the same checks, creating folders 0700 and the file 0600', () => {
    const path = writeArtifactSync(runDir, 'interrupted/results.json', '{"a":1}\n')
    expect(readFileSync(path, 'utf8')).toBe('{"a":1}\n')
    expect(statSync(path).mode & 0o777).toBe(0o600)
    expect(statSync(join(runDir, 'interrupted')).mode & 0o777).toBe(0o700)
    expect(() => writeArtifactSync(runDir, '../escape.json', 'x')).toThrow('".." segment')
    writeFileSync(join(root, 'outside'), 'keep')
    expect(() => writeArtifactSync(join(root, 'outside'), 'x.json', 'x')).toThrow('not a directory')
  })

  // A real process killed between two chunks (SIGKILL cannot be caught, so nothing gets to clean up).
  it('leaves the old file whole when the writing process is killed mid-write', {
    timeout: 60_000,
  }, async () => {
    writeFileSync(join(runDir, 'conversation.wav'), OLD)
    const module = new URL('./write.ts', import.meta.url).pathname
    const script = `
      const { writeArtifact } = await import(${JSON.stringify(module)})
      await writeArtifact(${JSON.stringify(runDir)}, 'conversation.wav', Buffer.alloc(${NEW.length}, 0x6e), {
        afterChunk: (written) => { if (written >= ${WRITE_CHUNK_BYTES * 2}) process.kill(process.pid, 'SIGKILL') },
      })`
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'ignore' })
    const signal = await new Promise((done) => child.on('exit', (_code, received) => done(received)))
    expect(signal).toBe('SIGKILL')
    expect(readFileSync(join(runDir, 'conversation.wav'), 'utf8')).toBe(OLD)
    const stray = readdirSync(runDir).filter((name) => name !== 'conversation.wav')
    expect(stray).toHaveLength(1) // the killed writer's temporary file, beside the intact artifact
    expect(isTemporaryName(stray[0] as string)).toBe(true)
    expect(statSync(join(runDir, stray[0] as string)).size).toBe(WRITE_CHUNK_BYTES * 2)
    // Cleaning up after the killed run takes the dead writer's temporary, and only that.
    const ours = join(runDir, `.results.json.${process.pid}.1.tmp`) // a live writer's: kept
    writeFileSync(ours, 'in progress')
    expect(removeStrayTemporaries(root)).toEqual([join(runDir, stray[0] as string)])
    expect(readdirSync(runDir).sort()).toEqual([`.results.json.${process.pid}.1.tmp`, 'conversation.wav'])
  })
})
