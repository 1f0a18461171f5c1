import { execFileSync } from 'node:child_process'
import { mkdtemp, rm, truncate, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { datasetText, multiTurnRaw, setPath, singleTurnRaw } from './fixtures/builders.ts'
import { pathsAndMessages, TEST_FILE, violationsOfText } from './fixtures/violations-of.ts'
import { MAX_LIST_ITEMS } from './json-object.ts'
import { MAX_DATASET_BYTES, MAX_JSON_DEPTH } from './limits.ts'
import { loadDataset, parseDataset, parseDatasetBytes } from './load.ts'
import { ScenarioSchema } from './scenario.ts'
import { MAX_REPORTED_VIOLATIONS } from './validate-document.ts'
import { DatasetValidationError, type DatasetViolation } from './violations.ts'
import { assistantVisibleInput } from './visible.ts'

// Files a hostile or careless author could write. Each one is refused with a clear violation (or loads
// intact); none makes the loader throw anything else, overflow the stack, or echo megabytes back.

function violationsOfBytes(bytes: Uint8Array): DatasetViolation[] {
  try {
    parseDatasetBytes(bytes, TEST_FILE)
    return []
  } catch (error) {
    if (error instanceof DatasetValidationError) return [...error.violations]
    throw error
  }
}

/** Without indentation: a few thousand levels pretty-printed would exceed the size limit first. */
const compactDatasetText = (scenarios: unknown[]) => JSON.stringify({ schema_version: '1.0', scenarios })

const nested = (depth: number, leaf: unknown = 1): unknown => {
  let value = leaf
  for (let level = 0; level < depth; level++) value = [value]
  return value
}

describe('malformed JSON of any depth', () => {
  it('locates the error in 8 KB of "[" instead of overflowing the stack', () => {
    const [violation, ...rest] = violationsOfText('['.repeat(8000))
    expect(rest).toEqual([])
    expect(violation?.message).toMatch(/^malformed JSON at line 1, column 8001 \(offset 8000\)/)
  })

  it('locates an error deep inside otherwise valid nesting', () => {
    const text = `${'{"a":['.repeat(5000)}1,]`
    const [violation] = violationsOfText(text)
    expect(violation?.message).toContain(`column ${text.length} (offset ${text.length - 1})`)
  })
})

describe('nesting depth', () => {
  it(`refuses a value nested deeper than ${MAX_JSON_DEPTH} levels and names its path`, () => {
    const scenario = setPath(singleTurnRaw('deep'), 'application.initial_state', { menu: nested(4000) })
    const violations = violationsOfText(compactDatasetText([scenario, singleTurnRaw('fine')]))
    expect(violations).toHaveLength(1)
    expect(violations[0]?.scenarioId).toBe('deep')
    // dataset (1) > scenarios (2) > scenario (3) > application (4) > initial_state (5) > menu (6) > lists.
    const listLevels = MAX_JSON_DEPTH + 1 - 6
    expect(violations[0]?.path).toBe(`scenarios[0].application.initial_state.menu${'[0]'.repeat(listLevels)}`)
    expect(violations[0]?.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`)
  })

  it('bounds free-form objects parsed without the loader (inline scenarios) the same way', () => {
    const scenario = setPath(singleTurnRaw('inline'), 'expected.state', { menu: nested(200) })
    const result = ScenarioSchema.safeParse(scenario)
    expect(result.success).toBe(false)
    expect(result.error?.issues[0]?.path.slice(0, 3)).toEqual(['expected', 'state', 'menu'])
    expect(result.error?.issues[0]?.message).toContain(`nested deeper than ${MAX_JSON_DEPTH} levels`)
  })

  it(`accepts nesting of exactly ${MAX_JSON_DEPTH} levels`, () => {
    const atLimit = setPath(singleTurnRaw(), 'application.initial_state', {
      menu: nested(MAX_JSON_DEPTH - 5),
    })
    expect(violationsOfText(datasetText([atLimit]))).toEqual([])
    const beyond = setPath(singleTurnRaw(), 'application.initial_state', { menu: nested(MAX_JSON_DEPTH - 4) })
    expect(violationsOfText(datasetText([beyond]))).toHaveLength(1)
  })
})

describe('size limits', () => {
  let folder = ''
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'live-evals-hostile-'))
  })
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  it('refuses a file over 16 MiB without reading it', async () => {
    const file = path.join(folder, 'huge.json')
    await writeFile(file, '')
    await truncate(file, MAX_DATASET_BYTES + 1) // sparse: no 16 MiB written to this shared disk
    await expect(loadDataset(file)).rejects.toThrow(
      `the dataset file is ${MAX_DATASET_BYTES + 1} bytes; a dataset may be at most ${MAX_DATASET_BYTES} bytes`,
    )
    expect(violationsOfBytes(new Uint8Array(MAX_DATASET_BYTES + 1))[0]?.message).toContain('16 MiB')
  })

  it('measures text given in memory in UTF-8 bytes, not in characters', () => {
    // Fewer characters than the limit, three bytes each: over it.
    const text = '€'.repeat(Math.floor(MAX_DATASET_BYTES / 3) + 1)
    expect(text.length).toBeLessThan(MAX_DATASET_BYTES)
    expect(() => parseDataset(text, TEST_FILE)).toThrow(
      `the dataset file is ${Buffer.byteLength(text)} bytes; a dataset may be at most ${MAX_DATASET_BYTES} bytes`,
    )
  })

  it('refuses a device or a pipe instead of reading it forever or waiting on it', async () => {
    const fifo = path.join(folder, 'pipe.json')
    execFileSync('mkfifo', [fifo])
    await expect(loadDataset('/dev/zero')).rejects.toThrow(
      'the dataset path is a character device, not a regular file',
    )
    await expect(loadDataset(fifo)).rejects.toThrow(
      'the dataset path is a FIFO (named pipe), not a regular file',
    )
  })

  it(`refuses a list of more than ${MAX_LIST_ITEMS} items as one violation, items unread`, () => {
    const scenario = setPath(singleTurnRaw(), 'tags', new Array(200_000).fill(7))
    expect(pathsAndMessages(violationsOfText(datasetText([scenario])))).toEqual([
      `scenarios[0].tags: must have at most ${MAX_LIST_ITEMS} items, got 200000`,
    ])
  })

  it(`lists at most ${MAX_REPORTED_VIOLATIONS} problems and says that more were left out`, () => {
    const violations = violationsOfText(datasetText(new Array(5000).fill({})))
    expect(violations).toHaveLength(MAX_REPORTED_VIOLATIONS + 1)
    expect(violations.at(-1)?.message).toContain('more problems were found and not listed')
  })
})

describe('author text in messages', () => {
  it('quotes a huge unknown key as a short prefix', () => {
    const key = `k${'x'.repeat(1_000_000)}`
    const text = JSON.stringify({ schema_version: '1.0', scenarios: [{ ...singleTurnRaw(), [key]: 1 }] })
    const [violation] = violationsOfText(text)
    expect(violation?.message).toContain('(1000001 characters)')
    expect(violation?.message.length).toBeLessThan(200)
    expect(violation?.path.length).toBeLessThan(120)
  })

  it('bounds every message that repeats an id or a reference', () => {
    const long = 'z'.repeat(50_000)
    const call = setPath(multiTurnRaw(long), 'simulation_parameters.agenda', [
      { id: long, commitment: 'c', trigger_condition: 't', completion_condition: 'd', action: 'answer' },
      {
        ...{ id: long, commitment: 'c', trigger_condition: 't', completion_condition: 'd', action: 'answer' },
        facts: Array.from({ length: 50 }, (_, index) => `${long}${index}`),
        after: [long.toUpperCase()],
      },
    ])
    const violations = violationsOfText(datasetText([call, multiTurnRaw(long.toUpperCase())]))
    expect(violations.length).toBeGreaterThan(3)
    for (const violation of violations) expect(violation.message.length).toBeLessThan(600)
    expect(violations.map((violation) => violation.message).join('\n')).toContain('and 45 more')
  })

  it('describes a deeply nested schema_version without serializing it', () => {
    const text = `{"schema_version": ${'['.repeat(10_000)}${']'.repeat(10_000)}, "scenarios": []}`
    expect(pathsAndMessages(violationsOfText(text))).toEqual([
      'schema_version: schema_version must be "1.0" (got a list)',
    ])
  })
})

describe('encoding', () => {
  it('refuses invalid UTF-8 and names the byte offset', () => {
    const good = new TextEncoder().encode(datasetText([singleTurnRaw()]))
    const at = good.indexOf(0x41) // the "A" of "A table for two"
    const cases: [number[], number][] = [
      [[0xff], 0],
      [[0xc3, 0x28], 0], // a lead byte without its continuation
      [[0xe2, 0x82], 0], // a sequence cut short
      [[0xc0, 0xaf], 0], // an overlong "/"
      [[0xed, 0xa0, 0x80], 0], // a UTF-16 surrogate encoded as UTF-8
      [[0x61, 0x80], 1], // a lone continuation byte after a valid "a"
    ]
    for (const [bad, offsetInBad] of cases) {
      const bytes = new Uint8Array([...good.subarray(0, at), ...bad, ...good.subarray(at)])
      const [violation, ...rest] = violationsOfBytes(bytes)
      expect(rest).toEqual([])
      expect(violation?.message).toMatch(
        new RegExp(`^invalid UTF-8 at byte offset ${at + offsetInBad} \\(line \\d+, byte 0x[0-9a-f]{2}\\)`),
      )
    }
  })

  it('loads multi-byte UTF-8 and a byte-order mark', () => {
    const text = datasetText([
      setPath(singleTurnRaw(), 'input.text', 'Caf\u00e9 \u2615 \u{1F37D} f\u00fcr zwei'),
    ])
    const bytes = new TextEncoder().encode(`\uFEFF${text}`)
    expect(parseDatasetBytes(bytes, TEST_FILE).scenarios[0]?.input.text).toBe(
      'Caf\u00e9 \u2615 \u{1F37D} f\u00fcr zwei',
    )
  })
})

describe('keys that name prototype properties', () => {
  const HOSTILE = '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}, "prototype": 3}'

  it('keeps __proto__, constructor and prototype intact as data in free-form objects', () => {
    const scenario = singleTurnRaw('protos')
    const text = datasetText([scenario])
      .replace('"reservations": []', `"reservations": [], "extra": ${HOSTILE}, "__proto__": {"a": 1}`)
      .replace('"party_size": 2', `"party_size": 2, "__proto__": {"b": 2}, "constructor": "c"`)
      .replace('"delegation": "required"', `"delegation": "required", "state": ${HOSTILE}`)
    const loaded = parseDataset(text, TEST_FILE).scenarios[0]
    const state = loaded?.application.initial_state as Record<string, unknown>
    const argumentsOf = loaded?.expected.tools.required[0]?.arguments as Record<string, unknown>
    expect(Object.keys(state)).toEqual(['reservations', 'extra', '__proto__'])
    expect(Object.keys(argumentsOf)).toEqual(['party_size', '__proto__', 'constructor'])
    expect(Object.keys(loaded?.expected.state ?? {})).toEqual(['__proto__', 'constructor', 'prototype'])
    // Data, never a prototype: nothing is inherited from the author's objects, nothing global is touched.
    for (const object of [state, argumentsOf, loaded?.expected.state])
      expect(Object.getPrototypeOf(object)).toBe(Object.prototype)
    expect((state as { a?: unknown }).a).toBeUndefined()
    expect(({} as { polluted?: unknown }).polluted).toBeUndefined()
    // The round trip to the assistant's copy and back to JSON keeps every key.
    const visible = assistantVisibleInput(loaded as NonNullable<typeof loaded>)
    expect(JSON.parse(JSON.stringify(visible.initialState))).toEqual(JSON.parse(JSON.stringify(state)))
    expect(JSON.stringify(visible.initialState)).toContain('"__proto__":{"a":1}')
    expect(JSON.stringify(argumentsOf)).toBe('{"party_size":2,"__proto__":{"b":2},"constructor":"c"}')
  })

  it('keeps a known fact named __proto__', () => {
    const call = multiTurnRaw()
    const text = datasetText([call]).replace(
      '"guest_name": "Tomas"',
      '"guest_name": "Tomas", "__proto__": "x"',
    )
    const facts = parseDataset(text, TEST_FILE).scenarios[0]?.simulation_parameters?.known_facts ?? {}
    expect(Object.keys(facts)).toContain('__proto__')
    expect(Object.hasOwn(facts, '__proto__')).toBe(true)
  })

  it('refuses them as unknown fields where the contract names every field', () => {
    const text = datasetText([singleTurnRaw()]).replace(
      '"title":',
      '"__proto__": 1, "constructor": 2, "title":',
    )
    expect(violationsOfText(text).map((violation) => violation.path)).toEqual([
      'scenarios[0].__proto__',
      'scenarios[0].constructor',
    ])
  })
})
