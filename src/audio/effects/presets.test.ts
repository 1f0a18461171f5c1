import { describe, expect, it } from 'vitest'
import { AudioRealismError } from './errors.ts'
import { CONDITIONS, PRESETS, parseCondition, parseOverrides, resolveEffects } from './presets.ts'

describe('presets', () => {
  it('are the seven conditions of §5 with its parameters', () => {
    expect(CONDITIONS).toEqual([
      'clean',
      'noisy',
      'telephony',
      'background_speech',
      'echo',
      'packet_loss',
      'realistic',
    ])
    expect(PRESETS.noisy.noiseRms).toBe(1200)
    expect(PRESETS.telephony.telephony).toBe(true)
    expect(PRESETS.background_speech).toMatchObject({ backgroundSpeech: null, backgroundGain: 0.65 })
    expect(PRESETS.echo).toMatchObject({ echoDelayMs: 120, echoDecay: 0.35 })
    expect(PRESETS.packet_loss).toMatchObject({ packetLossRate: 0.08, packetLossBurst: 2 })
    expect(PRESETS.realistic).toEqual({
      telephony: true,
      noiseRms: 500,
      backgroundSpeech: null,
      backgroundGain: 0.4,
      echoDelayMs: 120,
      echoDecay: 0.25,
      packetLossRate: 0.04,
      packetLossBurst: 1,
      coughEveryMs: 3200,
      nonDirectedEveryMs: 4600,
    })
    expect(PRESETS.clean).toMatchObject({
      telephony: false,
      noiseRms: null,
      packetLossRate: 0,
      packetLossBurst: 1,
    })
  })

  it('refuse an unknown condition by name, listing the valid ones', () => {
    expect(() => parseCondition('underwater')).toThrow(
      'Unknown acoustic condition "underwater"; valid conditions are clean, noisy, telephony, background_speech, echo, packet_loss, realistic.',
    )
    expect(parseCondition('echo')).toBe('echo')
    expect(() => parseCondition('__proto__')).toThrow(AudioRealismError)
  })
})

describe('overrides', () => {
  it('switch their effect on whatever the preset, taking the other parameters from its own preset', () => {
    expect(resolveEffects('clean', { noise_rms: 300 })).toMatchObject({ noiseRms: 300, telephony: false })
    expect(resolveEffects('clean', { echo_decay: 0.5 })).toMatchObject({ echoDelayMs: 120, echoDecay: 0.5 })
    expect(resolveEffects('clean', { echo_delay_ms: 80 })).toMatchObject({ echoDelayMs: 80, echoDecay: 0.35 })
    expect(resolveEffects('clean', { background_gain: 0.2 })).toMatchObject({
      backgroundSpeech: null,
      backgroundGain: 0.2,
    })
    expect(resolveEffects('clean', { background_speech: 'cafe.wav' })).toMatchObject({
      backgroundSpeech: 'cafe.wav',
      backgroundGain: 0.65,
    })
    expect(resolveEffects('clean', { packet_loss_rate: 0.1 })).toMatchObject({
      packetLossRate: 0.1,
      packetLossBurst: 1,
    })
    expect(resolveEffects('clean', { packet_loss_burst: 3 })).toMatchObject({
      packetLossRate: 0.08,
      packetLossBurst: 3,
    })
    expect(resolveEffects('clean', { cough_every_ms: 1000 }).coughEveryMs).toBe(1000)
    expect(resolveEffects('clean', { non_directed_every_ms: 900 }).nonDirectedEveryMs).toBe(900)
  })

  it('keep a preset parameter the override does not name', () => {
    expect(resolveEffects('packet_loss', { packet_loss_rate: 0.2 })).toMatchObject({
      packetLossRate: 0.2,
      packetLossBurst: 2,
    })
    expect(resolveEffects('realistic', { background_gain: 0.1 })).toMatchObject({
      backgroundGain: 0.1,
      noiseRms: 500,
    })
  })

  it.each([
    ['noise_rms', -1, 32768],
    ['background_gain', -0.1, 1.1],
    ['echo_delay_ms', -1, 60_001],
    ['echo_decay', -0.01, 1.01],
    ['packet_loss_rate', -0.5, 1.5],
    ['packet_loss_burst', 0, 1001],
    ['cough_every_ms', 0, 3_600_001],
    ['non_directed_every_ms', 0, 3_600_001],
  ])('bound %s (refusing %d and %d, naming the field)', (field, below, above) => {
    for (const value of [below, above]) {
      let error: unknown
      try {
        parseOverrides({ [field]: value })
      } catch (caught) {
        error = caught
      }
      expect(error).toBeInstanceOf(AudioRealismError)
      expect((error as AudioRealismError).field).toBe(field)
      expect((error as Error).message).toContain(`${field}:`)
    }
  })

  it('accept the bounds themselves', () => {
    expect(() =>
      parseOverrides({
        noise_rms: 32767,
        background_gain: 1,
        echo_delay_ms: 60_000,
        echo_decay: 0,
        packet_loss_rate: 1,
        packet_loss_burst: 1000,
        cough_every_ms: 1,
        non_directed_every_ms: 3_600_000,
      }),
    ).not.toThrow()
  })

  it('refuse unknown keys, fractional bursts and non-numbers', () => {
    expect(() => parseOverrides({ noise_level: 3 })).toThrow(/noise_level|Unrecognized key/)
    expect(() => parseOverrides({ packet_loss_burst: 1.5 })).toThrow(/packet_loss_burst/)
    expect(() => parseOverrides({ echo_decay: '0.3' })).toThrow(/echo_decay/)
    expect(() => parseOverrides({ background_speech: '' })).toThrow(/background_speech/)
  })
})
