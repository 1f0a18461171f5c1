import { readFile } from 'node:fs/promises'
import { describe, expect, it } from 'vitest'
import { loadDataset } from './load.ts'
import { selectScenarios } from './select.ts'
import { defaultPersona } from './simulation.ts'

// A dataset in the reference toolkit's schema 1.0 shape, with every optional field written out (as its
// serializer emits them, nulls included), must load unchanged and lose nothing.
const FIXTURE = new URL('./fixtures/reference-schema-1.0.json', import.meta.url).pathname

describe('reference toolkit dataset (schema 1.0)', () => {
  it('loads unchanged and is split per phase', async () => {
    const loaded = await loadDataset(FIXTURE)
    expect(loaded.scenarios).toHaveLength(5)
    expect(selectScenarios(loaded.scenarios, 'crawl')).toHaveLength(3)
    expect(selectScenarios(loaded.scenarios, 'walk').map((scenario) => scenario.id)).toEqual([
      'bistro_booking_corrected_party_telephony',
    ])
    expect(selectScenarios(loaded.scenarios, 'run')).toHaveLength(2)
  })

  it('keeps every field and value it was given', async () => {
    const raw = JSON.parse(await readFile(FIXTURE, 'utf8')) as { scenarios: Record<string, unknown>[] }
    const loaded = await loadDataset(FIXTURE)
    const comparable = loaded.scenarios.map((scenario) => ({
      ...scenario,
      input: {
        ...scenario.input,
        recordings: scenario.input.recordings.map(({ resolvedPath: _resolved, ...recording }) => recording),
      },
    }))
    // The one normalization: a null persona becomes the default caller.
    const expected = structuredClone(raw.scenarios)
    ;(expected[4]?.simulation_parameters as { persona: unknown }).persona = defaultPersona()
    expect(comparable).toEqual(expected)
  })

  it('writes out every optional field somewhere, so the check above covers it', async () => {
    const text = await readFile(FIXTURE, 'utf8')
    // A null type, a float fact and a recording condition other than the default are the easy ones to lose.
    expect(text).toContain('"type": null')
    expect(text).toContain('"budget_per_person": 42.5')
    expect(text).toContain('"condition": "telephony"')
    const loaded = await loadDataset(FIXTURE)
    const walk = loaded.scenarios[1]
    expect(walk?.type).toBeNull()
    expect(walk?.input.recordings[0]?.metadata).toHaveProperty('generation.audio_realism.seed', 43)
    expect(loaded.scenarios[0]?.input.context).toMatchObject({
      summary: expect.any(String),
      history: [{}, {}],
    })
  })
})
