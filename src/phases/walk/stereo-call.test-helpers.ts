// A recorded phone call for import tests, built from the project's own committed WALK recordings (espeak-ng
// speech, see scenarios/walk/make-dataset.ts): the caller's two requests on one channel, an agent's reply on the
// other in the pause between them, both downsampled to 8 kHz as a telephone recording would be.
import { join } from 'node:path'
import { concatPcm16, SAMPLE_RATE_HZ, silence } from '../../audio/pcm.ts'
import { resampleWhole } from '../../audio/resampler.ts'
import { encodePcm16WavPortable, readMonoWavFile } from '../../audio/wav.ts'

const AUDIO = join(import.meta.dirname, '../../../scenarios/walk/audio')
export const CALL_RATE_HZ = 8000

export interface StereoCall {
  bytes: Uint8Array
  /** Where the caller's two recordings start in the call, ms. */
  callerStartsMs: [number, number]
  /** Where the agent's reply starts and ends, ms. */
  agent: { startMs: number; endMs: number }
}

const ms = (samples: Int16Array) => (samples.length * 1000) / SAMPLE_RATE_HZ

export async function stereoCall(callerOn: 'left' | 'right'): Promise<StereoCall> {
  const first = (await readMonoWavFile(join(AUDIO, 'walk_001_booking_complete_request.wav'))).samples
  const second = (await readMonoWavFile(join(AUDIO, 'walk_009_availability_open_slot.wav'))).samples
  const reply = (await readMonoWavFile(join(AUDIO, 'walk_003_booking_corrected_date.wav'))).samples
  const lead = silence(500)
  const pause = silence(1000)
  const caller = concatPcm16([lead, first, pause, silence(ms(reply)), pause, second, silence(500)])
  const agentStart = ms(lead) + ms(first) + ms(pause)
  const agent = concatPcm16([
    silence(agentStart),
    reply,
    silence(ms(caller) - agentStart - ms(reply)),
  ]).subarray(0, caller.length)
  const [left, right] = callerOn === 'left' ? [caller, agent] : [agent, caller]
  const channels = [
    await resampleWhole(left, SAMPLE_RATE_HZ, CALL_RATE_HZ),
    await resampleWhole(right, SAMPLE_RATE_HZ, CALL_RATE_HZ),
  ]
  return {
    bytes: encodePcm16WavPortable(channels, CALL_RATE_HZ),
    callerStartsMs: [ms(lead), agentStart + ms(reply) + ms(pause)],
    agent: { startMs: agentStart, endMs: agentStart + ms(reply) },
  }
}
