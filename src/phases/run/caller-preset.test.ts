// The caller's acoustic preset drops whole ticks (§5: offline frames are tick-sized), so a packet_loss burst of 2
// silences 2 × tick_ms of the caller's voice rather than two 20 ms transport frames.
import { describe, expect, it } from 'vitest'
import { RealismProcessor } from '../../audio/effects/index.ts'
import { settingsFromToml } from '../single-turn/test-support.ts'
import { callerPreset } from './caller-preset.ts'

describe('callerPreset', () => {
  it('sets the effect frame to simulation.tick_ms, so packet loss silences whole ticks', async () => {
    const settings = await settingsFromToml('run', [
      '[execution]',
      'mode = "offline"',
      '[simulation]',
      'tick_ms = 100',
      'condition = "packet_loss"',
    ])
    const preset = callerPreset(settings)
    expect(preset).toMatchObject({ condition: 'packet_loss', frameMs: 100 })
    const processor = await RealismProcessor.create(preset)
    const tick = 2400
    const silentTicks: number[] = []
    for (let t = 0; t < 300; t++) {
      const heard = processor.process(new Int16Array(tick).fill(500))
      const silent = heard.filter((value) => value === 0).length
      expect([0, tick]).toContain(silent) // a tick is lost whole or not at all
      if (silent === tick) silentTicks.push(t)
    }
    const { metadata } = processor.finish()
    expect(silentTicks.length).toBeGreaterThan(10)
    expect(metadata.observations).toMatchObject({
      processed_ticks: 300,
      processed_frames: 300,
      lost_ticks: silentTicks.length,
      lost_frames: silentTicks.length,
    })
  })
})
