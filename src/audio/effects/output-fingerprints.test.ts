// Speed work on the effects must not change a byte (issue 24): a changed preset output would change the WALK
// fixtures. Every condition's output for a fixed seed, in live 20 ms frames and in 1 s chunks, against the
// fingerprints the code at 2b83358 produced for the same input, and the μ-law look-up table against the codec
// library it was built from, for every PCM16 value. Two changed on purpose since: telephony and realistic, when
// the phone line's own FIR pair replaced speex (phone-line.ts; its response is tested in phone-line.test.ts).
import { createHash } from 'node:crypto'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { readMonoWavFile } from '../wav.ts'
import { applyRealism, CONDITIONS } from './index.ts'
import { muLawRoundTrip, muLawRoundTripByLibrary } from './telephony.ts'

const CALLER = path.join(import.meta.dirname, '..', 'test-assets', 'caller-request.wav')

/** Seven seconds of the committed recording, looped. */
async function input(): Promise<Int16Array> {
  const speech = (await readMonoWavFile(CALLER)).samples
  const out = new Int16Array(24000 * 7)
  for (let offset = 0; offset < out.length; offset += speech.length) {
    out.set(speech.subarray(0, Math.min(speech.length, out.length - offset)), offset)
  }
  return out
}

/** First 16 hex digits of the output's SHA-256, per condition, seed 41 (from 2b83358; the phone line's two new). */
const FINGERPRINTS: Record<string, string> = {
  clean: '0e258218a3cf8884',
  noisy: '544b3d38874597f2',
  telephony: '5ef86ef0c62d361d',
  background_speech: '7a5cf8ac405b5b83',
  echo: '0f9bd16540f2b610',
  packet_loss: 'ec4d6564c1902833',
  realistic: '273389f60986140a',
}

describe('effect outputs', () => {
  it.each(CONDITIONS)(
    '%s gives the bytes it gave before the speed-up, in 20 ms frames and 1 s chunks',
    async (condition) => {
      const samples = await input()
      for (const chunkMs of [20, 1000]) {
        const result = await applyRealism(samples, { condition, seed: 41, chunkMs })
        const digest = createHash('sha256')
          .update(new Uint8Array(result.samples.buffer, result.samples.byteOffset, result.samples.byteLength))
          .digest('hex')
        expect(digest.slice(0, 16), `${condition}, ${chunkMs} ms chunks`).toBe(FINGERPRINTS[condition])
      }
    },
  )

  it('the μ-law round trip by table equals the codec library for every PCM16 value', () => {
    const every = Int16Array.from({ length: 65536 }, (_, index) => index - 32768)
    expect(muLawRoundTrip(every)).toEqual(muLawRoundTripByLibrary(every))
  })
})
