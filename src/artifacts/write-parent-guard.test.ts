import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ArtifactPathError } from './destinations.ts'
import { writeArtifact } from './write.ts'

// The path check and the folder creation are two steps; a link planted between them must still be
// refused by the folder creation itself. The planting happens inside the mocked path check, right after
// the real check passed, so the race is deterministic.
const plantAfterCheck = vi.hoisted(() => ({ plant: null as null | (() => void) }))
vi.mock('./destinations.ts', async (importOriginal) => {
  const original = await importOriginal<typeof import('./destinations.ts')>()
  return {
    ...original,
    checkArtifactDestination: async (runDir: string, relativePath: string) => {
      const checked = await original.checkArtifactDestination(runDir, relativePath)
      plantAfterCheck.plant?.()
      return checked
    },
  }
})

let root: string
let runDir: string
let outside: string

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'live-evals-parent-guard-'))
  runDir = join(root, 'run')
  outside = join(root, 'outside')
  mkdirSync(runDir, { mode: 0o700 })
  mkdirSync(outside)
})
afterEach(() => {
  plantAfterCheck.plant = null
  rmSync(root, { recursive: true, force: true })
})

describe('parent folders swapped after the path check', () => {
  it('refuses a folder that became a symbolic link, and writes nothing outside', async () => {
    plantAfterCheck.plant = () => symlinkSync(outside, join(runDir, 'audio'))
    const write = writeArtifact(runDir, 'audio/input.wav', 'x')
    await expect(write).rejects.toBeInstanceOf(ArtifactPathError)
    await expect(write).rejects.toThrow('audio is a symbolic link')
    expect(readdirSync(outside)).toEqual([])
  })

  it('refuses a folder that became a file', async () => {
    plantAfterCheck.plant = () => writeFileSync(join(runDir, 'events'), 'not a folder')
    await expect(writeArtifact(runDir, 'events/s1.jsonl', 'x')).rejects.toThrow('events is not a folder')
  })
})
