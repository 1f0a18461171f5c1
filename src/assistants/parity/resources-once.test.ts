// Both restaurant copies read their bundled files once per process: the cached answer equals a fresh read
// of the file (fast path equals slow path), every caller still gets a private copy, and per-scenario state
// built from the facts starts fresh.
import * as fs from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test, vi } from 'vitest'
import * as clientPrompts from '../client/prompts/prompts.ts'
import * as responsesPrompts from '../responses/prompts/prompts.ts'
import { parseToolDefinitions } from '../runtime/tool-definitions.ts'
import { copies } from './copies.ts'

// Counts every synchronous read while passing it through unchanged.
vi.mock('node:fs', async (importOriginal) => {
  const original = await importOriginal<typeof import('node:fs')>()
  return { ...original, readFileSync: vi.fn(original.readFileSync) }
})

const readFileSync = vi.mocked(fs.readFileSync)

function readsOf(file: string): number {
  return readFileSync.mock.calls.filter(([path]) => path === file).length
}

const prompts = [
  {
    label: 'responses',
    voice: responsesPrompts.responsesVoicePrompt,
    backend: responsesPrompts.responsesBackendPrompt,
  },
  { label: 'client', voice: clientPrompts.clientVoicePrompt, backend: clientPrompts.clientBackendPrompt },
]

describe.each(copies)('the $label copy reads its resources once', (copy) => {
  test('facts: equal to a fresh parse of facts.json, read at most once however often asked', () => {
    const fresh = JSON.parse(fs.readFileSync(copy.factsFile, 'utf8')) as Record<string, unknown>
    const { availability_overrides: overrides, ...freshVisible } = fresh
    expect(overrides).toBeDefined()
    readFileSync.mockClear()
    for (let call = 0; call < 5; call++) {
      expect(copy.restaurantFacts()).toEqual(fresh)
      expect(copy.publicBusinessFacts()).toStrictEqual(freshVisible)
    }
    expect(readsOf(copy.factsFile)).toBeLessThanOrEqual(1)
    readFileSync.mockClear()
    copy.restaurantFacts()
    copy.publicBusinessFacts()
    expect(readsOf(copy.factsFile)).toBe(0)
  })

  test('definitions: equal to a fresh check of definitions.json, read at most once', () => {
    const fresh = parseToolDefinitions(JSON.parse(fs.readFileSync(copy.definitionsFile, 'utf8')), 'fresh')
    readFileSync.mockClear()
    for (let call = 0; call < 5; call++) expect(copy.restaurantToolDefinitions()).toEqual(fresh)
    expect(readsOf(copy.definitionsFile)).toBeLessThanOrEqual(1)
    readFileSync.mockClear()
    copy.restaurantToolDefinitions()
    expect(readsOf(copy.definitionsFile)).toBe(0)
  })

  test('every call returns a private copy: changing one answer changes no later one', () => {
    const facts = copy.restaurantFacts()
    const pristine = structuredClone(facts)
    facts.business_name = 'Changed'
    ;(facts.availability_overrides as unknown[]).length = 0
    expect(copy.restaurantFacts()).toEqual(pristine)
    expect(copy.restaurantFacts()).not.toBe(copy.restaurantFacts())

    const visible = copy.publicBusinessFacts()
    visible.business_name = 'Changed'
    expect(copy.publicBusinessFacts().business_name).toBe(pristine.business_name)

    const definitions = copy.restaurantToolDefinitions()
    const first = definitions[0]
    if (first === undefined) throw new Error('no definitions')
    first.name = 'changed_tool'
    definitions.length = 0
    expect(copy.restaurantToolDefinitions().map((tool) => tool.name)).not.toContain('changed_tool')
    expect(copy.restaurantToolDefinitions().length).toBeGreaterThan(0)
  })

  test('a failed read is not remembered: the next call reads the file again', async () => {
    vi.resetModules()
    const module = `../${copy.label}/tools/resources.ts`
    const fresh = (await import(/* @vite-ignore */ module)) as typeof copy
    readFileSync.mockImplementationOnce(() => {
      throw new Error('ENOENT: simulated')
    })
    expect(() => fresh.restaurantFacts()).toThrow('ENOENT: simulated')
    readFileSync.mockClear()
    expect(fresh.restaurantFacts()).toEqual(copy.restaurantFacts())
    expect(readsOf(copy.factsFile)).toBe(1)
  })

  test('per-scenario tool state starts fresh after another scenario booked', () => {
    const first = new copy.RestaurantTools()
    const initial = first.snapshot()
    first.execute(
      'create_reservation',
      { guest_name: 'Maya', date: '2026-08-06', time: '19:00', party_size: 4 },
      'call-1',
    )
    expect(first.snapshot()).not.toEqual(initial)
    const second = new copy.RestaurantTools()
    expect(second.snapshot()).toEqual(initial)
    expect(second.executions).toEqual([])
  })
})

describe.each(prompts)('the $label copy reads its prompts once', (copy) => {
  test('equal to the trimmed file, read at most once', () => {
    const dir = fileURLToPath(new URL(`../${copy.label}/prompts/`, import.meta.url))
    const voiceFile = `${dir}voice.txt`
    const backendFile = `${dir}backend.txt`
    const voice = fs.readFileSync(voiceFile, 'utf8').trimEnd()
    const backend = fs.readFileSync(backendFile, 'utf8').trimEnd()
    copy.voice()
    copy.backend()
    readFileSync.mockClear()
    for (let call = 0; call < 5; call++) {
      expect(copy.voice()).toBe(voice)
      expect(copy.backend()).toBe(backend)
    }
    expect(readsOf(voiceFile) + readsOf(backendFile)).toBe(0)
  })
})
