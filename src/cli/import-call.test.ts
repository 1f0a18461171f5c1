// `live-evals import-call`, on a stereo 8 kHz call built from the project's committed recordings: the caller's
// channel becomes a WALK scenario's recording on its original clock with its measured speech, the agent's speech
// and transcript are kept, the dataset loads and plays through the WALK recorded caller source; bad input is
// refused with a message naming it, and nothing half-written is left.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { SAMPLE_RATE_HZ } from '../audio/pcm.ts'
import { encodeMonoWav, readMonoWavFile } from '../audio/wav.ts'
import { LEAD_IN_MS, recordedCallerSource } from '../phases/engine/caller-sources.ts'
import { IMPORTED_CALL_KEY } from '../phases/walk/imported-call.ts'
import { stereoCall } from '../phases/walk/stereo-call.test-helpers.ts'
import { loadDataset } from '../scenarios/index.ts'
import { importCallCommand } from './import-call.ts'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-evals-import-call-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

async function command(argv: string[]) {
  let out = ''
  let err = ''
  const code = await importCallCommand(argv, { out: (t) => (out += t), err: (t) => (err += t) }, dir)
  return { code, out, err }
}

const TRANSCRIPT = [
  '# a call to the restaurant',
  'caller: Hi, could you book a table under Alvarez on August 12 at 7 p.m. for four?',
  'agent: I would like to book a table under Castillo.',
  '',
  'caller: Is there a table available on August 13 at 7 p.m. for two?',
].join('\n')

describe('live-evals import-call', () => {
  test('the caller channel becomes a WALK recording on its original clock, with its speech measured', async () => {
    const call = await stereoCall('right')
    await writeFile(join(dir, 'Support Call #7.wav'), call.bytes)
    await writeFile(join(dir, 'call.txt'), TRANSCRIPT)
    const { code, out, err } = await command([
      'Support Call #7.wav',
      '--caller-channel',
      'right',
      '--transcript',
      'call.txt',
      '--out',
      'calls/dataset.json',
    ])
    expect(code, err).toBe(0)
    expect(out).toContain('imported support_call_7:')
    const dataset = await loadDataset(join(dir, 'calls', 'dataset.json'))
    const [scenario] = dataset.scenarios
    expect(scenario?.id).toBe('support_call_7')
    expect(scenario?.interaction).toBe('single_turn')
    expect(scenario?.input.text).toBe(
      'Hi, could you book a table under Alvarez on August 12 at 7 p.m. for four? ' +
        'Is there a table available on August 13 at 7 p.m. for two?',
    )
    const recording = scenario?.input.recordings[0]
    expect(recording?.path).toBe('audio/support_call_7.wav')
    const wav = await readMonoWavFile(join(dir, 'calls', 'audio', 'support_call_7.wav'))
    expect(wav.sampleRateHz).toBe(SAMPLE_RATE_HZ)
    // The whole call, not trimmed: the caller's clock is the call's.
    const metadata = recording?.metadata as Record<string, unknown>
    const imported = metadata[IMPORTED_CALL_KEY] as Record<string, unknown>
    expect(Math.abs(wav.durationMs - (imported.duration_ms as number))).toBeLessThan(2)
    expect(imported).toMatchObject({
      source_file: 'Support Call #7.wav',
      caller_channel: 'right',
      source_sample_rate_hz: 8000,
      agent_transcript: ['I would like to book a table under Castillo.'],
    })
    const speech = metadata.speech_intervals as { start_ms: number; end_ms: number }[]
    const [firstStart, secondStart] = call.callerStartsMs
    // The first request starts near 500 ms, the second after the agent's reply; nothing while the agent talks.
    expect(Math.abs((speech[0]?.start_ms ?? 0) - firstStart)).toBeLessThan(400)
    expect(speech.some((interval) => Math.abs(interval.start_ms - secondStart) < 400)).toBe(true)
    expect(
      speech.some(
        (interval) => interval.start_ms > call.agent.startMs + 200 && interval.end_ms < call.agent.endMs,
      ),
    ).toBe(false)
    const agentSpeech = imported.agent_speech_intervals as { start_ms: number }[]
    expect(Math.abs((agentSpeech[0]?.start_ms ?? 0) - call.agent.startMs)).toBeLessThan(400)
    // The WALK recorded caller streams it with the measured speech as the caller's.
    const caller = await recordedCallerSource({ offline: false }).prepare(scenario as never, {})
    expect(caller.callerSpeech?.[0]?.startMs).toBe(LEAD_IN_MS + (speech[0]?.start_ms ?? 0))
    expect(caller.samples.length).toBe((LEAD_IN_MS * SAMPLE_RATE_HZ) / 1000 + wav.samples.length)
  })

  test('a second call is added to the same dataset; its id must be new', async () => {
    await writeFile(join(dir, 'a.wav'), (await stereoCall('left')).bytes)
    expect((await command(['a.wav', '--caller-channel', 'left'])).code).toBe(0)
    expect((await command(['a.wav', '--caller-channel', 'left', '--id', 'second'])).code).toBe(0)
    const dataset = await loadDataset(join(dir, 'imported-calls.json'))
    expect(dataset.scenarios.map((scenario) => scenario.id)).toEqual(['a', 'second'])
    // Without a transcript the caller's words are only in the recording, and the scenario says so.
    expect(dataset.scenarios[0]?.input.text).toContain('no transcript was given')
    const again = await command(['a.wav', '--caller-channel', 'left'])
    expect(again.code).toBe(1)
    expect(again.err).toContain('already has a scenario a; give another one with --id')
  })

  test('refuses bad input by name: wrong channel word, mono, unreadable, not a WAV, no speech, bad transcript', async () => {
    const call = await stereoCall('left')
    await writeFile(join(dir, 'call.wav'), call.bytes)
    const word = await command(['call.wav', '--caller-channel', 'middle'])
    expect(word.code).toBe(2)
    expect(word.err).toContain('--caller-channel must be left or right (got "middle")')
    expect((await command(['call.wav'])).err).toContain('--caller-channel left|right is required')

    await writeFile(join(dir, 'mono.wav'), encodeMonoWav(new Int16Array(24_000)))
    const mono = await command(['mono.wav', '--caller-channel', 'left'])
    expect(mono.code).toBe(1)
    expect(mono.err).toContain(`${join(dir, 'mono.wav')} is mono: import-call needs a stereo call recording`)

    const missing = await command(['gone.wav', '--caller-channel', 'left'])
    expect(missing.code).toBe(1)
    expect(missing.err).toContain(join(dir, 'gone.wav'))
    expect(missing.err).toContain('name a readable WAV file')

    await writeFile(join(dir, 'notes.wav'), 'caller: hello')
    const text = await command(['notes.wav', '--caller-channel', 'left'])
    expect(text.err).toMatch(/notes\.wav: is not a readable RIFF\/WAVE file .*16-bit PCM stereo WAV/)

    // The agent is on the right of this call; its left channel has the caller. The right one alone, silenced:
    const silent = await stereoCall('left')
    const bytes = new Uint8Array(silent.bytes)
    for (let at = 44 + 2; at < bytes.length; at += 4) {
      bytes[at] = 0
      bytes[at + 1] = 0
    }
    await writeFile(join(dir, 'one-sided.wav'), bytes)
    const quiet = await command(['one-sided.wav', '--caller-channel', 'right'])
    expect(quiet.code).toBe(1)
    expect(quiet.err).toContain('the right channel of')
    expect(quiet.err).toContain('holds no speech')
    expect(quiet.err).toContain('--caller-channel left')

    await writeFile(join(dir, 'bad.txt'), 'caller: hello\nthe agent said hi\n')
    const transcript = await command(['call.wav', '--caller-channel', 'left', '--transcript', 'bad.txt'])
    expect(transcript.code).toBe(1)
    expect(transcript.err).toContain(`${join(dir, 'bad.txt')} line 2: start it with who spoke`)
    // Nothing was left behind by the refusals.
    expect((await readdir(dir)).sort()).toEqual(
      ['bad.txt', 'call.wav', 'mono.wav', 'notes.wav', 'one-sided.wav'].sort(),
    )
    expect(await readFile(join(dir, 'call.wav'))).toHaveLength(call.bytes.length)
  })
})
