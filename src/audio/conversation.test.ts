import { describe, expect, it } from 'vitest'
import wavefile from 'wavefile'
import { ConversationRecorder } from './conversation.ts'
import { decodeMonoWav, encodeMonoWav, encodeStereoWav } from './wav.ts'

const { WaveFile } = wavefile

const filled = (length: number, value: number) => new Int16Array(length).fill(value)

describe('ConversationRecorder', () => {
  it('places caller left and assistant right at their clock offsets, silence elsewhere', () => {
    const recorder = new ConversationRecorder()
    recorder.place('caller', 0, filled(24, 100)) // 0–1 ms
    recorder.place('assistant', 2, filled(24, -200)) // 2–3 ms
    const rendered = recorder.render()
    expect(rendered.durationMs).toBe(3)
    expect(rendered.caller.length).toBe(72)
    expect(rendered.assistant.length).toBe(72)
    expect(rendered.caller[23]).toBe(100)
    expect(rendered.caller[24]).toBe(0)
    expect(rendered.assistant[47]).toBe(0)
    expect(rendered.assistant[48]).toBe(-200)
    expect(rendered.gains).toEqual({ caller: 1, assistant: 1 })
  })

  it('mixes overlapping chunks on one channel by summing them', () => {
    const recorder = new ConversationRecorder()
    recorder.place('assistant', 0, filled(48, 1000))
    recorder.place('assistant', 1, filled(48, 500))
    const { assistant } = recorder.render()
    expect([assistant[0], assistant[24], assistant[47], assistant[48]]).toEqual([1000, 1500, 1500, 500])
  })

  it('scales a channel down instead of clipping when the mix overflows, leaving the other channel alone', () => {
    const recorder = new ConversationRecorder()
    recorder.place('caller', 0, filled(24, 30000))
    recorder.place(
      'caller',
      0,
      Int16Array.from({ length: 24 }, (_, i) => (i < 12 ? 30000 : -10000)),
    )
    recorder.place('assistant', 0, filled(24, 20000))
    const rendered = recorder.render()
    expect(rendered.gains.caller).toBeCloseTo(32767 / 60000, 10)
    expect(rendered.caller[0]).toBe(32767)
    expect(rendered.caller[12]).toBe(Math.round(20000 * (32767 / 60000)))
    expect(rendered.gains.assistant).toBe(1)
    expect(rendered.assistant[0]).toBe(20000)
  })

  it('a full-scale negative sample is kept exactly (PCM16 reaches -32768), a sum below it is scaled', () => {
    const recorder = new ConversationRecorder()
    recorder.place('caller', 0, Int16Array.from([-32768, 32767, 100]))
    recorder.place('assistant', 0, Int16Array.from([-30000]))
    recorder.place('assistant', 0, Int16Array.from([-30000]))
    const rendered = recorder.render()
    expect(rendered.gains.caller).toBe(1)
    expect(Array.from(rendered.caller.subarray(0, 3))).toEqual([-32768, 32767, 100])
    expect(rendered.gains.assistant).toBeCloseTo(32768 / 60000, 10)
    expect(rendered.assistant[0]).toBe(-32768)
  })

  it('plays arriving chunks back to back from their arrival time (playout cursor)', () => {
    const recorder = new ConversationRecorder()
    // Three 20 ms chunks arriving in a burst at 100 ms play at 100, 120 and 140 ms.
    expect(recorder.play('assistant', 100, filled(480, 1))).toBe(100)
    expect(recorder.play('assistant', 100, filled(480, 2))).toBe(120)
    expect(recorder.play('assistant', 101, filled(480, 3))).toBe(140)
    // A chunk arriving after the queue drained starts at its arrival time.
    expect(recorder.play('assistant', 500, filled(480, 4))).toBe(500)
    const { assistant } = recorder.render()
    expect([assistant[2400], assistant[2880], assistant[3360], assistant[12000]]).toEqual([1, 2, 3, 4])
    expect(assistant[3840]).toBe(0)
  })

  it('refuses negative or non-finite times, naming the channel', () => {
    const recorder = new ConversationRecorder()
    expect(() => recorder.place('caller', -1, filled(1, 1))).toThrow(/caller channel .* >= 0 ms.*got -1/)
    expect(() => recorder.play('assistant', Number.NaN, filled(1, 1))).toThrow(/assistant channel/)
  })

  it('writes a stereo WAV with caller left and assistant right', () => {
    const recorder = new ConversationRecorder()
    recorder.place('caller', 0, Int16Array.of(1, 2))
    recorder.place('assistant', 0, Int16Array.of(-1))
    const wav = new WaveFile(recorder.toStereoWav())
    expect((wav.fmt as { numChannels: number }).numChannels).toBe(2)
    expect([...wav.getSamples(true, Int16Array)]).toEqual([1, -1, 2, 0])
  })

  it('writes each channel as a mono WAV up to its own end', () => {
    const recorder = new ConversationRecorder()
    recorder.place('caller', 0, filled(240, 7))
    recorder.place('assistant', 50, filled(240, 9))
    expect(decodeMonoWav(recorder.toMonoWav('caller'), 'input.wav').samples.length).toBe(240)
    const output = decodeMonoWav(recorder.toMonoWav('assistant'), 'output.wav').samples
    expect(output.length).toBe(1440)
    expect(output[1200]).toBe(9)
  })

  it('a mono WAV is byte for byte the channel rendered and encoded, scaled or not, across block edges', () => {
    const recorder = new ConversationRecorder()
    const long = Int16Array.from({ length: 20_000 }, (_, i) => ((i * 37) % 2_000) - 1_000)
    recorder.place('caller', 100, long)
    recorder.place('caller', 300, long) // overlapping: summed
    recorder.place('assistant', 0, filled(30_000, 30_000))
    recorder.place('assistant', 0, filled(10, 30_000)) // a sum past PCM16: the channel is scaled
    expect(recorder.render().gains.assistant).toBeLessThan(1)
    for (const channel of ['caller', 'assistant'] as const) {
      const own = new ConversationRecorder()
      // The reference: the same placements rendered to PCM, then encoded.
      if (channel === 'caller') {
        own.place('caller', 100, long)
        own.place('caller', 300, long)
      } else {
        own.place('assistant', 0, filled(30_000, 30_000))
        own.place('assistant', 0, filled(10, 30_000))
      }
      const pcm = own.render()[channel]
      expect(Buffer.from(recorder.toMonoWav(channel)).equals(Buffer.from(encodeMonoWav(pcm)))).toBe(true)
    }
  })

  it('a stereo WAV is byte for byte both channels rendered and encoded, scaled or not, channels of unequal length', () => {
    const recorder = new ConversationRecorder()
    const long = Int16Array.from({ length: 20_000 }, (_, i) => ((i * 37) % 2_000) - 1_000)
    recorder.place('caller', 100, long)
    recorder.place('caller', 300, long) // overlapping: summed, unscaled
    recorder.place('assistant', 0, filled(30_000, 30_000))
    recorder.place('assistant', 0, filled(10, 30_000)) // a sum past PCM16: the channel is scaled
    const { caller, assistant, gains } = recorder.render()
    expect(gains.caller).toBe(1)
    expect(gains.assistant).toBeLessThan(1)
    const reference = encodeStereoWav(caller, assistant, recorder.sampleRateHz)
    expect(Buffer.from(recorder.toStereoWav()).equals(Buffer.from(reference))).toBe(true)
  })

  it('a sum that leaves PCM16 partway through a mixed chunk keeps every sum before and after it exactly', () => {
    const recorder = new ConversationRecorder()
    recorder.place('caller', 0, filled(48, 30_000))
    // Sample 0 sums to 30,100 (still PCM16), sample 1 to 35,000 (past it), sample 2 to 30,100 again.
    recorder.place('caller', 0, Int16Array.of(100, 5_000, 100))
    const { caller, gains } = recorder.render()
    const gain = 32_767 / 35_000
    expect(gains.caller).toBe(gain)
    expect([...caller.subarray(0, 4)]).toEqual([
      Math.round(30_100 * gain),
      32_767,
      Math.round(30_100 * gain),
      Math.round(30_000 * gain),
    ])
  })

  it('grows to long recordings placed out of order', () => {
    const recorder = new ConversationRecorder()
    recorder.place('caller', 60_000, filled(480, 5))
    recorder.place('caller', 10, filled(480, 6))
    const { caller, durationMs } = recorder.render()
    expect(durationMs).toBe(60_020)
    expect(caller[240]).toBe(6)
    expect(caller[60_000 * 24]).toBe(5)
  })

  it('stores long channels in blocks without changing a sample: chunks across block edges, overlaps, gaps', () => {
    // A plain Int32 reference mix of the same placements (the recorder keeps 8,192-sample blocks).
    const recorder = new ConversationRecorder()
    const reference = new Int32Array(200_000)
    let end = 0
    let seed = 7
    const next = () => {
      seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0
      return seed / 2 ** 32
    }
    for (let placement = 0; placement < 300; placement++) {
      const start = Math.floor(next() * 190_000)
      const chunk = Int16Array.from({ length: 1 + Math.floor(next() * 9_000) }, () =>
        Math.round((next() - 0.5) * 4_000),
      )
      recorder.place('assistant', start / 24, chunk)
      for (let i = 0; i < chunk.length; i++)
        reference[start + i] = (reference[start + i] as number) + (chunk[i] as number)
      end = Math.max(end, start + chunk.length)
    }
    const { assistant, gains } = recorder.render()
    expect(gains.assistant).toBe(1)
    expect(assistant.length).toBe(end)
    expect(Array.from(assistant)).toEqual(Array.from(reference.subarray(0, end)))
  })

  it('a render after more audio was added scales by the new mix, not the one measured before', () => {
    const recorder = new ConversationRecorder()
    recorder.place('caller', 0, filled(24, 20000))
    expect(recorder.render().gains.caller).toBe(1)
    recorder.place('caller', 0, filled(24, 20000))
    const rendered = recorder.render()
    expect(rendered.gains.caller).toBeCloseTo(32767 / 40000, 10)
    expect(rendered.caller[0]).toBe(32767)
  })
})
