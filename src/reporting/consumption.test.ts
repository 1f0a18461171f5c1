import { describe, expect, test } from 'vitest'
import { buildConsumption, type UsageRecord } from './consumption.ts'
import { ConsumptionSchema } from './result-schema.ts'

const backend = (usage: UsageRecord['usage'], model = 'gpt-5.6-terra'): UsageRecord => ({
  source: 'assistant_backend',
  model,
  usage,
})

const fullUsage = {
  input_tokens: 100,
  input_tokens_details: { cached_tokens: 40, cache_write_tokens: 10 },
  output_tokens: 20,
  output_tokens_details: { reasoning_tokens: 5 },
  total_tokens: 120,
}

describe('buildConsumption', () => {
  test('frontend reports audio_duration_ms from usage.seconds and never infers tokens', () => {
    const consumption = buildConsumption({ frontend_usage: { seconds: 64 }, usage_records: [] })
    expect(consumption).toEqual({ frontend: { audio_duration_ms: 64_000 }, backend: {} })
  })
  test('nothing observed means empty objects, not zeros', () => {
    expect(buildConsumption({ frontend_usage: null, usage_records: [] })).toEqual({
      frontend: {},
      backend: {},
    })
  })
  test('backend tokens are summed from nested Responses usage', () => {
    const consumption = buildConsumption({
      frontend_usage: null,
      usage_records: [backend(fullUsage), backend(fullUsage)],
    })
    expect(consumption.backend).toEqual({
      total_tokens: 240,
      input: { total_tokens: 200, cached_tokens: 80, cache_write_tokens: 20 },
      output: { total_tokens: 40, reasoning_tokens: 10 },
    })
  })
  test('a field missing from any response is omitted rather than undercounted', () => {
    const partial = {
      input_tokens: 5,
      output_tokens: 1,
      total_tokens: 6,
      input_tokens_details: { cached_tokens: 0 },
    }
    const consumption = buildConsumption({
      frontend_usage: null,
      usage_records: [backend(fullUsage), backend(partial)],
    })
    expect(consumption.backend.input).toEqual({ total_tokens: 105, cached_tokens: 40 })
    expect(consumption.backend.output).toEqual({ total_tokens: 21 })
  })
  test('judge, observer and caller usage is never counted', () => {
    const records: UsageRecord[] = [
      backend(fullUsage),
      { source: 'evaluation_judge', model: 'judge', usage: fullUsage },
      { source: 'completion_observer', model: 'observer', usage: fullUsage },
      { source: 'caller_simulation', model: 'caller', usage: fullUsage },
    ]
    const consumption = buildConsumption({ frontend_usage: null, usage_records: records })
    expect(consumption.backend.total_tokens).toBe(120)
    expect(consumption.backend.models).toBeUndefined()
  })
  test('models are listed only when more than one backend model answered, each with its own usage', () => {
    const consumption = buildConsumption({
      frontend_usage: null,
      usage_records: [backend(fullUsage, 'a'), backend(fullUsage, 'b'), backend(fullUsage, 'b')],
    })
    expect(consumption.backend.models).toEqual([
      {
        model: 'a',
        total_tokens: 120,
        input_tokens: 100,
        output_tokens: 20,
        input_tokens_details: { cached_tokens: 40, cache_write_tokens: 10 },
        output_tokens_details: { reasoning_tokens: 5 },
      },
      {
        model: 'b',
        total_tokens: 240,
        input_tokens: 200,
        output_tokens: 40,
        input_tokens_details: { cached_tokens: 80, cache_write_tokens: 20 },
        output_tokens_details: { reasoning_tokens: 10 },
      },
    ])
    expect(ConsumptionSchema.parse(consumption)).toEqual(consumption)
  })
})

describe('backend token details', () => {
  const withModalities = {
    input_tokens: 48,
    input_tokens_details: { cached_tokens: 0, text_tokens: 40, audio_tokens: 8, image_tokens: 0 },
    output_tokens: 24,
    output_tokens_details: { reasoning_tokens: 0, cached_tokens: 2, text_tokens: 24, audio_tokens: 0 },
    total_tokens: 72,
  }
  test('text, audio, image and cached tokens are kept when the usage reports them (a reported 0 stays 0)', () => {
    const consumption = buildConsumption({ frontend_usage: null, usage_records: [backend(withModalities)] })
    expect(consumption.backend).toEqual({
      total_tokens: 72,
      input: { total_tokens: 48, cached_tokens: 0, text_tokens: 40, audio_tokens: 8, image_tokens: 0 },
      output: { total_tokens: 24, cached_tokens: 2, text_tokens: 24, audio_tokens: 0, reasoning_tokens: 0 },
    })
    expect(ConsumptionSchema.parse(consumption)).toEqual(consumption)
  })
  test('a modality count is absent (unknown), never 0, when the usage or any one response lacks it', () => {
    const textOnly = buildConsumption({ frontend_usage: null, usage_records: [backend(fullUsage)] })
    for (const side of [textOnly.backend.input, textOnly.backend.output]) {
      expect(side).not.toHaveProperty('text_tokens')
      expect(side).not.toHaveProperty('audio_tokens')
      expect(side).not.toHaveProperty('image_tokens')
    }
    const mixed = buildConsumption({
      frontend_usage: null,
      usage_records: [backend(withModalities), backend(fullUsage)],
    })
    expect(mixed.backend.input).toEqual({ total_tokens: 148, cached_tokens: 40 })
    expect(mixed.backend.output).toEqual({ total_tokens: 44, reasoning_tokens: 5 })
  })
  test('invalid counts (negative, fractional, strings) are unknown, not summed', () => {
    const broken = {
      ...withModalities,
      input_tokens_details: { text_tokens: -1, audio_tokens: 1.5, image_tokens: '3' as unknown as number },
    }
    const consumption = buildConsumption({ frontend_usage: null, usage_records: [backend(broken)] })
    expect(consumption.backend.input).toEqual({ total_tokens: 48 })
  })
})
