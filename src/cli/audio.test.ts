import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AudioRealismMetadata, applyRealism, CONDITIONS } from '../audio/effects/index.ts'
import { CALLER_REQUEST_WAV, callerRequest, sameBytes } from '../audio/signals.test-helpers.ts'
import { decodeMonoWav, encodeMonoWav } from '../audio/wav.ts'
import { metadataPathFor, run } from './audio.ts'
import { captureIO } from './capture-io.ts'
import { main } from './main.ts'

let folder = ''
beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'live-evals-audio-cli-'))
})
afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

async function audio(...argv: string[]) {
  const io = captureIO()
  const code = await run(argv, io)
  return { code, stdout: io.stdout(), stderr: io.stderr() }
}

describe('live-evals audio', () => {
  it('writes the processed WAV, byte-identical to applyRealism, and its metadata beside it', async () => {
    const out = path.join(folder, 'realistic.wav')
    const result = await audio('realistic', CALLER_REQUEST_WAV, out, '--seed', '44')
    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toContain(`${out}: realistic, seed 44, 7.37 s`)
    const expected = await applyRealism(await callerRequest(), { condition: 'realistic', seed: 44 })
    const written = decodeMonoWav(await readFile(out), out).samples
    expect(sameBytes(written, expected.samples)).toBe(true)
    expect((await stat(out)).mode & 0o777).toBe(0o600)

    const document = JSON.parse(await readFile(path.join(folder, 'realistic.realism.json'), 'utf8'))
    // Both went through in 200 ms effect frames, so even the tick counts agree.
    expect(AudioRealismMetadata.parse(document.audio_realism)).toEqual(expected.metadata)
    expect(expected.metadata.observations.processed_ticks).toBe(37)
    expect(document.latency_ms).toBe(4)
    expect(document.source).toBe(CALLER_REQUEST_WAV)
    expect(document.caller_speech_intervals_ms).toEqual(
      expected.callerSpeechIntervals.map(({ startMs, endMs }) => ({ start_ms: startMs, end_ms: endMs })),
    )
  })

  it('takes every §5 flag, each switching its effect on, and --condition instead of the positional', async () => {
    const background = path.join(folder, 'bed.wav')
    await writeFile(
      background,
      encodeMonoWav(Int16Array.from({ length: 24000 }, (_, i) => (i % 50) * 100 - 2500)),
    )
    const out = path.join(folder, 'all-flags.wav')
    const flags = [
      ['--noise-rms', '300'],
      ['--background-speech', background],
      ['--background-gain', '0.2'],
      ['--echo-delay-ms', '90'],
      ['--echo-decay', '0.3'],
      ['--packet-loss-rate', '0.1'],
      ['--packet-loss-burst', '2'],
      ['--cough-every-ms', '1500'],
      ['--non-directed-every-ms', '2500'],
    ].flat()
    const result = await audio('--condition', 'clean', CALLER_REQUEST_WAV, out, '--seed', '3', ...flags)
    expect(result.stderr).toBe('')
    const { audio_realism: metadata } = JSON.parse(await readFile(metadataPathFor(out), 'utf8'))
    expect(metadata.effects).toEqual({
      telephony: false,
      telephony_sample_rate_hz: null,
      telephony_band_hz: null,
      telephony_codec: null,
      noise_rms: 300,
      background_speech: background,
      background_gain: 0.2,
      echo_delay_ms: 90,
      echo_decay: 0.3,
      packet_loss_rate: 0.1,
      packet_loss_burst: 2,
      cough_every_ms: 1500,
      non_directed_every_ms: 2500,
    })
    expect(metadata.background_provenance).toBe('user_recording')
    expect(metadata.observations).toMatchObject({ vocal_tic_events: 4, non_directed_events: 2 })
  })

  it('refuses an unknown condition by name with the valid list and the usage, like every bad argument', async () => {
    const out = path.join(folder, 'x.wav')
    for (const argv of [
      ['underwater', CALLER_REQUEST_WAV, out],
      ['--condition', 'underwater', CALLER_REQUEST_WAV, out],
    ]) {
      const result = await audio(...argv)
      expect(result.code).toBe(2)
      const [said, blank, usage] = result.stderr.split('\n')
      expect([said, blank, usage]).toEqual([
        `live-evals audio: Unknown acoustic condition "underwater"; valid conditions are ${CONDITIONS.join(', ')}.`,
        '',
        'Usage: live-evals audio <condition> <in.wav> <out.wav> [options]',
      ])
    }
    await expect(stat(out)).rejects.toThrow(/ENOENT/)
  })

  it('names the flag of an override out of bounds, a non-number and a bad seed, each with the usage', async () => {
    const out = path.join(folder, 'bounds.wav')
    const decay = await audio('echo', CALLER_REQUEST_WAV, out, '--echo-decay', '1.5')
    expect(decay.code).toBe(2)
    expect(decay.stderr).toMatch(
      /^live-evals audio: --echo-decay: Invalid audio realism override: echo_decay:.*\n\nUsage: live-evals audio /,
    )
    const word = await audio('noisy', CALLER_REQUEST_WAV, out, '--noise-rms', 'loud')
    expect([word.code, word.stderr.split('\n')[0]]).toEqual([
      2,
      'live-evals audio: --noise-rms needs a number; got "loud"',
    ])
    const seed = await audio('noisy', CALLER_REQUEST_WAV, out, '--seed=-4')
    expect(seed.code).toBe(2)
    expect(seed.stderr).toContain(
      'live-evals audio: --seed: The seed must be an integer from 0 to 4294967295; got -4.\n\nUsage:',
    )
    await expect(stat(out)).rejects.toThrow(/ENOENT/)
  })

  it('writes the metadata where its help says: out.wav beside out.realism.json', async () => {
    const help = (await audio('--help')).stdout
    expect(help).toContain('(out.wav: out.realism.json)')
    expect(help).not.toContain('<out>.realism.json')
    const out = path.join(folder, 'refill_tel.wav')
    const result = await audio('telephony', CALLER_REQUEST_WAV, out)
    expect(result.stdout).toContain(`${path.join(folder, 'refill_tel.realism.json')}: metadata`)
    await expect(stat(path.join(folder, 'refill_tel.realism.json'))).resolves.toBeTruthy()
    await expect(stat(`${out}.realism.json`)).rejects.toThrow(/ENOENT/)
  })

  it('names a bad input WAV, a missing background file and an unwritable output, writing nothing', async () => {
    const stereoish = path.join(folder, 'bad.wav')
    await writeFile(stereoish, encodeMonoWav(new Int16Array(0)))
    const out = path.join(folder, 'never.wav')
    const bad = await audio('noisy', stereoish, out)
    expect([bad.code, bad.stderr]).toEqual([
      1,
      expect.stringContaining(`WAV file ${stereoish}: has no audio`),
    ])
    const missing = await audio(
      'clean',
      CALLER_REQUEST_WAV,
      out,
      '--background-speech',
      '/nonexistent/bed.wav',
    )
    expect(missing.stderr).toContain(
      '--background-speech: Background speech file /nonexistent/bed.wav does not exist.',
    )
    const unwritable = await audio('clean', CALLER_REQUEST_WAV, path.join(folder, 'no-such-dir', 'out.wav'))
    expect(unwritable.stderr).toContain('Cannot write WAV file')
    await expect(stat(out)).rejects.toThrow(/ENOENT/)
  })

  it('explains its arguments', async () => {
    expect((await audio('--help')).stdout).toContain('--non-directed-every-ms MS')
    const wrong = await audio('noisy', 'only-one.wav')
    expect([wrong.code, wrong.stderr]).toEqual([
      2,
      expect.stringContaining('expected <condition> <in.wav> <out.wav>'),
    ])
    expect((await audio('noisy', 'a.wav', 'b.wav', '--loudness', '3')).code).toBe(2)
  })

  it('is the `audio` verb of the live-evals command', async () => {
    const io = captureIO()
    const out = path.join(folder, 'via-main.wav')
    expect(await main(['audio', 'echo', CALLER_REQUEST_WAV, out], io)).toBe(0)
    expect(io.stdout()).toContain(`${out}: echo, seed 0`)
    const help = captureIO()
    await main(['--help'], help)
    expect(help.stdout()).toContain('audio            <condition> <in.wav> <out.wav>')
  })

  it('names its metadata file after the output', () => {
    expect(metadataPathFor('/x/take.wav')).toBe('/x/take.realism.json')
    expect(metadataPathFor('/x/take.WAV')).toBe('/x/take.realism.json')
    expect(metadataPathFor('/x/take')).toBe('/x/take.realism.json')
  })
})
