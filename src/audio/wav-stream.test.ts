import { mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BAD_WAVS, GOOD_TONE } from './bad-wavs.test-helpers.ts'
import { decodeMonoWav, encodeMonoWav, encodeStereoWav, WavFormatError } from './wav.ts'
import { MonoWavReader, WavWriter } from './wav-stream.ts'

let folder = ''
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'live-evals-wav-stream-'))
})
afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

async function readAll(file: string, chunk: number): Promise<Int16Array> {
  await using reader = await MonoWavReader.open(file)
  const parts: number[] = []
  for await (const samples of reader.chunks(chunk)) parts.push(...samples)
  return Int16Array.from(parts)
}

describe('bad WAVs', () => {
  it.each(BAD_WAVS)('$name is refused by both readers with its reason and the file name', async (bad) => {
    const file = path.join(folder, `${bad.name.replace(/\W/g, '-')}.wav`)
    await writeFile(file, bad.bytes())
    expect(() => decodeMonoWav(bad.bytes(), file)).toThrow(bad.reason)
    const opened = MonoWavReader.open(file)
    await expect(opened).rejects.toThrow(WavFormatError)
    await expect(opened).rejects.toThrow(bad.reason)
    await expect(opened).rejects.toThrow(`WAV file ${file}:`)
  })
})

describe('MonoWavReader', () => {
  it('reads exactly the samples decodeMonoWav reads, in any chunk size', async () => {
    const file = path.join(folder, 'tone.wav')
    await writeFile(file, encodeMonoWav(GOOD_TONE))
    for (const chunk of [1, 480, 1000, 5000])
      expect([...(await readAll(file, chunk))]).toEqual([...GOOD_TONE])
    await using reader = await MonoWavReader.open(file)
    expect(reader.info).toEqual({ sampleCount: 2400, durationMs: 100 })
  })

  it('skips chunks before the data (LIST metadata) and accepts chunks after it', async () => {
    const wav = encodeMonoWav(GOOD_TONE)
    const list = Buffer.concat([
      Buffer.from('LIST'),
      Buffer.from([5, 0, 0, 0]),
      Buffer.from('INFOx'),
      Buffer.from([0]),
    ])
    const withList = Buffer.concat([
      wav.subarray(0, 36),
      list,
      wav.subarray(36),
      Buffer.from('junk\u0000\u0000\u0000\u0000'),
    ])
    const file = path.join(folder, 'list.wav')
    await writeFile(file, withList)
    expect([...(await readAll(file, 480))]).toEqual([...GOOD_TONE])
  })

  it('says when the file does not exist', async () => {
    await expect(MonoWavReader.open(path.join(folder, 'absent.wav'))).rejects.toThrow(
      /absent\.wav does not exist/,
    )
  })
})

describe('WavWriter', () => {
  it('writes the same bytes as encodeMonoWav / encodeStereoWav, chunk by chunk', async () => {
    const mono = path.join(folder, 'mono-out.wav')
    const writer = await WavWriter.create(mono)
    await writer.write(GOOD_TONE.subarray(0, 1000))
    await writer.write(GOOD_TONE.subarray(1000))
    await writer.close()
    expect(Buffer.from(await readFile(mono)).equals(Buffer.from(encodeMonoWav(GOOD_TONE)))).toBe(true)
    expect((await stat(mono)).mode & 0o777).toBe(0o600)

    const stereo = path.join(folder, 'stereo-out.wav')
    const right = GOOD_TONE.map((value) => -value)
    const stereoWriter = await WavWriter.create(stereo, 2)
    await stereoWriter.write(GOOD_TONE.subarray(0, 7), right.subarray(0, 7))
    await stereoWriter.write(GOOD_TONE.subarray(7), right.subarray(7))
    await stereoWriter.close()
    expect(Buffer.from(await readFile(stereo)).equals(Buffer.from(encodeStereoWav(GOOD_TONE, right)))).toBe(
      true,
    )
  })

  it('shows nothing at the destination until closed, and leaves nothing after abort', async () => {
    const sub = await mkdtemp(path.join(folder, 'atomic-'))
    const target = path.join(sub, 'out.wav')
    const writer = await WavWriter.create(target)
    await writer.write(GOOD_TONE)
    expect(await readdir(sub)).not.toContain('out.wav')
    await writer.abort()
    expect(await readdir(sub)).toEqual([])
  })

  it('refuses mismatched channels', async () => {
    const writer = await WavWriter.create(path.join(folder, 'bad-channels.wav'), 2)
    await expect(writer.write(GOOD_TONE)).rejects.toThrow(/expected 2 channel/)
    await expect(writer.write(GOOD_TONE, GOOD_TONE.subarray(1))).rejects.toThrow(/same length/)
    await writer.abort()
  })
})
