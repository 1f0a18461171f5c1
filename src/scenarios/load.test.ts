import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { DatasetSchema } from './dataset.ts'
import { datasetText, multiTurnRaw, type RawObject, setPath, singleTurnRaw } from './fixtures/builders.ts'
import { pathsAndMessages, TEST_FILE, violationsOf, violationsOfText } from './fixtures/violations-of.ts'
import { loadDataset, parseDataset } from './load.ts'
import { DatasetValidationError } from './violations.ts'

const temporaryFolders: string[] = []
afterEach(async () => {
  await Promise.all(temporaryFolders.splice(0).map((folder) => rm(folder, { recursive: true, force: true })))
})
async function temporaryFolder(): Promise<string> {
  const folder = await mkdtemp(path.join(tmpdir(), 'live-evals-scenarios-'))
  temporaryFolders.push(folder)
  return folder
}

describe('dataset wrapper', () => {
  it('requires schema_version "1.0"', () => {
    const text = (version: unknown) => JSON.stringify({ schema_version: version, scenarios: [] })
    expect(pathsAndMessages(violationsOfText(text('2.0')))).toEqual([
      'schema_version: schema_version must be "1.0" (got "2.0")',
    ])
    expect(pathsAndMessages(violationsOfText(text(1.0)))).toEqual([
      'schema_version: schema_version must be "1.0" (got 1)',
    ])
    expect(pathsAndMessages(violationsOfText('{"scenarios": []}'))).toEqual([
      'schema_version: schema_version must be "1.0" (it is missing)',
    ])
    expect(violationsOfText(text('1.0'))).toEqual([])
  })

  it('allows no other top-level keys and requires a scenario list', () => {
    expect(pathsAndMessages(violationsOf([], { name: 'mine' }))).toEqual([
      'name: unknown top-level field "name": a dataset holds only schema_version and scenarios',
    ])
    expect(pathsAndMessages(violationsOfText('{"schema_version": "1.0", "scenarios": {}}'))).toEqual([
      'scenarios: scenarios must be a list of scenario objects',
    ])
    expect(pathsAndMessages(violationsOfText('[]'))[0]).toContain('a dataset must be a JSON object')
  })

  it('rejects unknown keys at every depth and names each one', () => {
    const single = singleTurnRaw()
    single.notes = 'draft'
    setPath(single, 'input.speaker', 'x')
    setPath(single, 'expected.tools.required', [{ name: 'create_reservation', args: {} }])
    setPath(single, 'expected.golden_path.cost', 1)
    const multi = multiTurnRaw()
    setPath(multi, 'simulation_parameters.persona', { accent: 'none' })
    ;((multi.simulation_parameters as { agenda: RawObject[] }).agenda[0] as RawObject).priority = 1
    setPath(multi, 'expected.procedure', { id: 'p', steps: [{ id: 's', kind: 'state', weight: 2 }] })
    const nested = singleTurnRaw('nested')
    setPath(nested, 'input.recordings', [{ id: 'take', path: 'a.wav', gain: 1 }])
    setPath(nested, 'input.context', {
      summary: 'x',
      history: [{ role: 'user', text: 'hi', at: 0 }],
      notes: '',
    })
    setPath(nested, 'application.seed', 1)
    setPath(nested, 'expected.tools.optional', [])
    setPath(nested, 'expected.rubric', 'x')
    const wrappers = multiTurnRaw('wrappers')
    setPath(wrappers, 'expected.procedure', { id: 'p', steps: [{ id: 's', kind: 'state' }], owner: 'ops' })
    setPath(wrappers, 'simulation_parameters.mood', 'calm')
    expect(
      pathsAndMessages(violationsOf([single, multi, nested, wrappers])).map((line) => line.split(':')[0]),
    ).toEqual([
      'scenarios[0].input.speaker',
      'scenarios[0].expected.tools.required[0].args',
      'scenarios[0].expected.golden_path.cost',
      'scenarios[0].notes',
      'scenarios[1].expected.procedure.steps[0].weight',
      'scenarios[1].simulation_parameters.persona.accent',
      'scenarios[1].simulation_parameters.agenda[0].priority',
      'scenarios[2].input.recordings[0].gain',
      'scenarios[2].input.context.history[0].at',
      'scenarios[2].input.context.notes',
      'scenarios[2].application.seed',
      'scenarios[2].expected.tools.optional',
      'scenarios[2].expected.rubric',
      'scenarios[3].expected.procedure.owner',
      'scenarios[3].simulation_parameters.mood',
    ])
    expect(violationsOf([single])[0]?.message).toBe(
      'unknown field "speaker": schema 1.0 does not define it (check the spelling or remove it)',
    )
  })

  it('requires scenario ids to be unique case-insensitively', () => {
    const violations = violationsOf([
      singleTurnRaw('Booking_A'),
      singleTurnRaw('other'),
      singleTurnRaw('booking_a'),
    ])
    expect(violations).toEqual([
      {
        file: TEST_FILE,
        scenarioId: 'booking_a',
        path: 'scenarios[2].id',
        message: 'scenario ids must be unique (case-insensitive): "booking_a" repeats the id of scenarios[0]',
      },
    ])
  })

  it('reports malformed JSON with the file, line and column', () => {
    const cases: [string, number, number][] = [
      ['{\n  "schema_version": "1.0",\n  "scenarios": [,]\n}', 3, 17],
      ['{\n "a": tru }', 2, 10],
      ['{\n  "a": 1,\n}', 3, 1],
      ['{"a": "x', 1, 9],
      ['', 1, 1],
    ]
    for (const [text, line, column] of cases) {
      const [violation, ...rest] = violationsOfText(text)
      expect(rest).toEqual([])
      expect(violation?.file).toBe(TEST_FILE)
      expect(violation?.message).not.toContain('\n')
      expect(violation?.message).toContain(`malformed JSON at line ${line}, column ${column}`)
    }
  })

  it('reports every violation of every scenario together, with scenario ids and a readable message', () => {
    const first = setPath(singleTurnRaw('first'), 'expected.delegation', 'forbidden')
    setPath(first, 'title', '')
    const second = setPath(multiTurnRaw('second'), 'expected.golden_path.turns', 3)
    setPath(second, 'expected.golden_path.delegations', undefined)
    let error: unknown
    try {
      parseDataset(datasetText([first, second, singleTurnRaw('FIRST')], { extra: 1 }), TEST_FILE)
    } catch (caught) {
      error = caught
    }
    expect(error).toBeInstanceOf(DatasetValidationError)
    const { violations, message } = error as DatasetValidationError
    expect(violations.map((violation) => [violation.scenarioId, violation.path])).toEqual([
      [undefined, 'extra'],
      ['first', 'scenarios[0].title'],
      ['first', 'scenarios[0].expected.tools.required'],
      ['second', 'scenarios[1].expected.golden_path.turns'],
      ['second', 'scenarios[1].expected.golden_path.delegations'],
      ['FIRST', 'scenarios[2].id'],
    ])
    const lines = message.split('\n')
    expect(lines[0]).toBe(`${TEST_FILE}: 6 problems; fix them before running:`)
    expect(lines).toContain('  - scenarios[0].title [scenario first]: must not be empty')
    expect(lines).toHaveLength(7)
  })

  it('applies the same rules through DatasetSchema', () => {
    const result = DatasetSchema.safeParse({
      schema_version: '1.0',
      scenarios: [singleTurnRaw('a'), setPath(multiTurnRaw('A'), 'expected.golden_path.turns', 2)],
    })
    expect(result.success).toBe(false)
    expect(result.error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([
      ['scenarios.1.expected.golden_path.turns', 'RUN scenarios need expected.golden_path.turns >= 7, got 2'],
      [
        'scenarios.1.id',
        'scenario ids must be unique (case-insensitive): "A" repeats the id of scenarios[0]',
      ],
    ])
    // Ids repeat across scenarios that fail their own rules too.
    const broken = DatasetSchema.safeParse({
      schema_version: '1.0',
      scenarios: [setPath(singleTurnRaw('a'), 'title', 5), singleTurnRaw('A')],
    })
    expect(broken.error?.issues.map((issue) => issue.path.join('.'))).toEqual([
      'scenarios.0.title',
      'scenarios.1.id',
    ])
  })

  it('names every unknown key of one object, and runs no rule on a field that failed', () => {
    const twoKeys = setPath(setPath(singleTurnRaw('keys'), 'input.speaker', 'x'), 'input.locale', 'en')
    // With `expected` not an object, rules reading it would report nonsense (or crash); they stay quiet.
    const noExpected = setPath(singleTurnRaw('flat'), 'expected', 'x')
    const noGoldenPath = setPath(multiTurnRaw('gp'), 'expected.golden_path', [])
    expect(
      pathsAndMessages(violationsOf([twoKeys, noExpected, noGoldenPath])).map((line) => line.split(':')[0]),
    ).toEqual([
      'scenarios[0].input.speaker',
      'scenarios[0].input.locale',
      'scenarios[1].expected',
      'scenarios[2].expected.golden_path',
    ])
  })

  it('lists cross-field and RUN gate violations beside a type error elsewhere in the same scenario', () => {
    const single = setPath(singleTurnRaw('single'), 'title', 5)
    setPath(single, 'simulation_parameters', { goal: 'x' })
    setPath(single, 'expected.golden_path', { turns: 3, steps: ['a', 'b', 'c'] })
    setPath(single, 'expected.procedure', { id: 'sop', steps: [{ id: 's', kind: 'refusal' }] })
    const forbidden = setPath(singleTurnRaw('forbidden'), 'expected.criteria', 'not a list')
    setPath(forbidden, 'expected.delegation', 'forbidden')
    setPath(forbidden, 'expected.rubric', 'x')
    const multi = setPath(multiTurnRaw('multi'), 'tags', 'booking')
    setPath(multi, 'input.recordings', [{ id: 'take', path: 'a.wav' }])
    setPath(multi, 'expected.golden_path.turns', 3)
    setPath(multi, 'simulation_parameters.persona', { voice: 3 })
    setPath(multi, 'simulation_parameters.known_facts.phone', '555')
    const agenda = (multi.simulation_parameters as { agenda: RawObject[] }).agenda
    ;(agenda[1] as RawObject).facts = ['email']
    const missingParameters = setPath(multiTurnRaw('bare'), 'title', '')
    setPath(missingParameters, 'simulation_parameters', undefined)
    setPath(missingParameters, 'expected.golden_path.delegations', undefined)
    const procedure = setPath(multiTurnRaw('sop'), 'expected.procedure', {
      id: 'sop',
      steps: [
        { id: 'a', kind: 'state', arguments: [] },
        { id: 'b', kind: 'tool', after: ['c'] },
      ],
    })
    expect(pathsAndMessages(violationsOf([single, forbidden, multi, missingParameters, procedure]))).toEqual([
      'scenarios[0].title: must be a string, got 5',
      'scenarios[0].simulation_parameters: single-turn scenarios must not define simulation parameters or a caller persona',
      'scenarios[0].expected.golden_path.turns: a single-turn golden path is one caller request and one assistant response: turns must be 0 or 2, got 3',
      'scenarios[0].expected.golden_path.steps: a single-turn golden path is one caller request and one assistant response: at most 2 steps, got 3',
      'scenarios[0].expected.procedure: single-turn scenarios must not define a procedure; procedures are graded only in RUN',
      'scenarios[1].expected.criteria: must be a list, got "not a list"',
      'scenarios[1].expected.rubric: unknown field "rubric": schema 1.0 does not define it (check the spelling or remove it)',
      'scenarios[1].expected.tools.required: a scenario cannot forbid delegation and require a tool',
      'scenarios[2].tags: must be a list, got "booking"',
      'scenarios[2].simulation_parameters.persona.voice: must be a string, got 3',
      'scenarios[2].simulation_parameters.agenda[1].facts: caller agenda item "fix_time" references unknown facts "email"; facts must be keys of known_facts',
      'scenarios[2].input.recordings: recorded multi-turn interactions require a live human caller',
      'scenarios[2].expected.golden_path.turns: RUN scenarios need expected.golden_path.turns >= 7, got 3',
      'scenarios[3].title: must not be empty',
      'scenarios[3].simulation_parameters: multi-turn scenarios require simulation parameters and a caller persona',
      'scenarios[3].expected.golden_path.delegations: RUN scenarios must define expected.golden_path.delegations',
      'scenarios[4].expected.procedure.steps[0].arguments: must be a JSON object, got a list',
      'scenarios[4].expected.procedure.steps[1].tool: procedure steps of kind "tool" must name a tool',
      'scenarios[4].expected.procedure.steps[1].after[0]: procedure step "b" may only come after earlier steps; "c" is not an earlier step id',
    ])
  })
})

describe('loading from a file', () => {
  it('resolves recording paths against the dataset folder and keeps the original path', async () => {
    const folder = await temporaryFolder()
    await mkdir(path.join(folder, 'walk'))
    const file = path.join(folder, 'walk', 'dataset.json')
    const scenario = setPath(singleTurnRaw(), 'input.recordings', [{ id: 'take', path: 'audio/take.wav' }])
    await writeFile(file, datasetText([scenario]))
    const loaded = await loadDataset(file)
    expect(loaded.file).toBe(file)
    expect(loaded.scenarios[0]?.input.recordings[0]).toEqual({
      id: 'take',
      path: 'audio/take.wav',
      condition: 'clean',
      metadata: {},
      resolvedPath: path.join(folder, 'walk', 'audio', 'take.wav'),
    })
  })

  it('resolves against the file even when it is named relative to the working directory', () => {
    const loaded = parseDataset(
      datasetText([setPath(singleTurnRaw(), 'input.recordings', [{ id: 'take', path: 'a.wav' }])]),
      'sets/x.json',
    )
    expect(loaded.scenarios[0]?.input.recordings[0]?.resolvedPath).toBe(path.resolve('sets', 'a.wav'))
  })

  it('names the file that cannot be read', async () => {
    const missing = path.join(await temporaryFolder(), 'missing.json')
    await expect(loadDataset(missing)).rejects.toThrow(`${missing}: 1 problem`)
    await expect(loadDataset(missing)).rejects.toThrow('cannot read the dataset file (ENOENT)')
  })

  it('accepts a byte-order mark', () => {
    expect(parseDataset(`\uFEFF${datasetText([singleTurnRaw()])}`, TEST_FILE).scenarios).toHaveLength(1)
  })
})
