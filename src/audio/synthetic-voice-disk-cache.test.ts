import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { samplesForMs } from './pcm.ts'
import {
  setSyntheticSpeechCacheLimit,
  syntheticSpeech,
  syntheticSpeechDurationMs,
} from './synthetic-voice.ts'

const TEXT = 'A table for four at seven, under Okafor.'
const FOLDER = 'live-evals-synthetic-voice'
let temp = ''

/** Forgets what this process synthesised, so the next call reads the disk or synthesises. */
const forgetInMemory = () => setSyntheticSpeechCacheLimit(setSyntheticSpeechCacheLimit(0))

beforeEach(async () => {
  temp = await mkdtemp(join(tmpdir(), 'synthetic-disk-'))
  vi.stubEnv('TMPDIR', temp)
  forgetInMemory()
})

afterEach(async () => {
  vi.unstubAllEnvs()
  forgetInMemory()
  await rm(temp, { recursive: true, force: true })
})

async function keptFiles(): Promise<string[]> {
  return (await readdir(join(temp, FOLDER)).catch(() => [])).map((name) => join(temp, FOLDER, name))
}

describe('the synthetic voice on disk, between processes', () => {
  it('keeps each synthesis as one whole file of its samples, and no partial file', async () => {
    const samples = syntheticSpeech(TEXT)
    const files = await keptFiles()
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/[0-9a-f]{64}\.pcm$/)
    const bytes = await readFile(files[0] as string)
    expect(new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2)).toEqual(samples)
  })

  it("a process that did not synthesise the text reads the file instead (here a planted one, to tell it's read)", async () => {
    syntheticSpeech(TEXT)
    const [file] = await keptFiles()
    const count = samplesForMs(syntheticSpeechDurationMs(TEXT), 24_000)
    const planted = new Int16Array(count).fill(1234)
    await writeFile(file as string, new Uint8Array(planted.buffer))
    forgetInMemory()
    expect(syntheticSpeech(TEXT)).toEqual(planted)
  })

  it('a file of the wrong length (cut short by a crash) is a miss: the voice is synthesised again and rewritten', async () => {
    const fresh = syntheticSpeech(TEXT)
    const [file] = await keptFiles()
    await writeFile(file as string, new Uint8Array(100))
    forgetInMemory()
    expect(syntheticSpeech(TEXT)).toEqual(fresh)
    expect((await readFile(file as string)).byteLength).toBe(fresh.byteLength)
  })

  it('a folder that cannot be written costs only the cache: the samples are the same', async () => {
    const fresh = syntheticSpeech(TEXT)
    forgetInMemory()
    // A file where the folder should be: mkdir fails, and so does every read.
    const blocked = join(temp, 'blocked')
    await writeFile(blocked, 'not a folder')
    vi.stubEnv('TMPDIR', blocked)
    expect(syntheticSpeech(TEXT)).toEqual(fresh)
  })

  it('another text or sample rate is another file', async () => {
    syntheticSpeech(TEXT)
    syntheticSpeech(`${TEXT}!`)
    syntheticSpeech(TEXT, { sampleRateHz: 16_000 })
    expect(await keptFiles()).toHaveLength(3)
  })
})
