import { describe, expect, it } from 'vitest'
import { multiTurnRaw, setPath, singleTurnRaw } from './fixtures/builders.ts'
import { pathsAndMessages, violationsOf } from './fixtures/violations-of.ts'

// One test per scenario-level rule of the schema 1.0 contract. The baseline scenarios are valid, so
// each failure below comes from the one field the test changes.

const only = (scenario: Record<string, unknown>) => pathsAndMessages(violationsOf([scenario]))

describe('scenario contract rules', () => {
  it('accepts the valid baselines', () => {
    expect(violationsOf([singleTurnRaw(), multiTurnRaw()])).toEqual([])
  })

  it('requires a summary or history in a conversation context', () => {
    expect(only(setPath(singleTurnRaw(), 'input.context', {}))).toEqual([
      'scenarios[0].input.context: conversation context requires a summary or prior history',
    ])
    expect(only(setPath(singleTurnRaw(), 'input.context', { summary: '   ' }))).toHaveLength(1)
    expect(only(setPath(singleTurnRaw(), 'input.context', { summary: 'Booked last week.' }))).toEqual([])
    const history = { history: [{ role: 'user', text: 'Hello' }] }
    expect(only(setPath(singleTurnRaw(), 'input.context', history))).toEqual([])
  })

  it('refuses forbidden delegation together with a required tool', () => {
    expect(only(setPath(singleTurnRaw(), 'expected.delegation', 'forbidden'))).toEqual([
      'scenarios[0].expected.tools.required: a scenario cannot forbid delegation and require a tool',
    ])
  })

  it('refuses repeated recording ids within a scenario', () => {
    const recording = { id: 'take', path: 'audio/a.wav' }
    const scenario = setPath(singleTurnRaw(), 'input.recordings', [
      recording,
      { ...recording, path: 'audio/b.wav' },
    ])
    expect(only(scenario)).toEqual([
      'scenarios[0].input.recordings[1].id: recording ids must be unique within a scenario; "take" repeats',
    ])
  })

  it('refuses simulation parameters on a single-turn scenario', () => {
    const scenario = setPath(singleTurnRaw(), 'simulation_parameters', { goal: 'x' })
    expect(only(scenario)).toEqual([
      'scenarios[0].simulation_parameters: single-turn scenarios must not define simulation parameters or a caller persona',
    ])
  })

  it('allows only 0 or 2 golden-path turns for a single-turn scenario', () => {
    const [problem] = only(setPath(singleTurnRaw(), 'expected.golden_path.turns', 3))
    expect(problem).toContain(
      'scenarios[0].expected.golden_path.turns: a single-turn golden path is one caller request',
    )
    expect(only(setPath(singleTurnRaw(), 'expected.golden_path.turns', 0))).toEqual([])
    // Turns derive from the steps when omitted: one step means one turn, which a single turn cannot be.
    const oneStep = setPath(singleTurnRaw(), 'expected.golden_path', { steps: ['caller asks'] })
    expect(only(oneStep)[0]).toContain('turns must be 0 or 2, got 1')
    const twoSteps = setPath(singleTurnRaw(), 'expected.golden_path', {
      steps: ['caller asks', 'assistant books'],
    })
    expect(only(twoSteps)).toEqual([])
  })

  it('allows at most 2 golden-path steps for a single-turn scenario', () => {
    const scenario = setPath(singleTurnRaw(), 'expected.golden_path', { turns: 2, steps: ['a', 'b', 'c'] })
    expect(only(scenario)).toEqual([
      'scenarios[0].expected.golden_path.steps: a single-turn golden path is one caller request and one assistant response: at most 2 steps, got 3',
    ])
  })

  it('refuses a procedure on a single-turn scenario', () => {
    const procedure = { id: 'sop', steps: [{ id: 'book', kind: 'tool', tool: 'create_reservation' }] }
    expect(only(setPath(singleTurnRaw(), 'expected.procedure', procedure))).toEqual([
      'scenarios[0].expected.procedure: single-turn scenarios must not define a procedure; procedures are graded only in RUN',
    ])
  })

  it('requires simulation parameters on a multi-turn scenario', () => {
    expect(only(setPath(multiTurnRaw(), 'simulation_parameters', undefined))).toEqual([
      'scenarios[0].simulation_parameters: multi-turn scenarios require simulation parameters and a caller persona',
    ])
    expect(only(setPath(multiTurnRaw(), 'simulation_parameters', null))).toHaveLength(1)
  })

  it('refuses recordings on a multi-turn scenario', () => {
    const scenario = setPath(multiTurnRaw(), 'input.recordings', [{ id: 'take', path: 'a.wav' }])
    expect(only(scenario)).toEqual([
      'scenarios[0].input.recordings: recorded multi-turn interactions require a live human caller',
    ])
  })

  it('rejects scenario ids that cannot name an artifact; recording ids need only be non-empty', () => {
    for (const id of ['has space', 'CON', 'lpt1.txt', 'ends.', '', '-lead', 'x'.repeat(101), 'café']) {
      const [problem, ...rest] = only(singleTurnRaw(id))
      expect(rest).toEqual([])
      // A long id is quoted as a short prefix and its length.
      expect(problem).toMatch(/^scenarios\[0\]\.id: scenario id ".*" (\(\d+ characters\) )?must/)
    }
    expect(only(singleTurnRaw('a'.repeat(100)))).toEqual([])
    const recording = (id: string) => setPath(singleTurnRaw(), 'input.recordings', [{ id, path: 'a.wav' }])
    expect(only(recording('take 1 (phone)'))).toEqual([])
    expect(only(recording(''))).toEqual(['scenarios[0].input.recordings[0].id: must not be empty'])
  })

  it('checks field types and bounds with readable messages', () => {
    expect(only(setPath(singleTurnRaw(), 'application.initial_state', []))).toEqual([
      'scenarios[0].application.initial_state: must be a JSON object, got a list',
    ])
    expect(only(setPath(singleTurnRaw(), 'title', ''))).toEqual(['scenarios[0].title: must not be empty'])
    expect(only(setPath(singleTurnRaw(), 'interaction', 'duplex'))[0]).toBe(
      'scenarios[0].interaction: must be one of "single_turn", "multi_turn", got "duplex"',
    )
    expect(only(setPath(singleTurnRaw(), 'expected.answer', undefined))).toEqual([
      'scenarios[0].expected.answer: missing required field',
    ])
    expect(only(setPath(singleTurnRaw(), 'expected.golden_path.turns', -1))[0]).toContain('must be >= 0')
    expect(only(setPath(singleTurnRaw(), 'expected.golden_path.turns', 1.5))[0]).toContain('integer')
    const recording = { id: 'take', path: 'a.wav', condition: 'underwater' }
    expect(only(setPath(singleTurnRaw(), 'input.recordings', [recording]))[0]).toContain(
      'scenarios[0].input.recordings[0].condition: must be one of "clean", "noisy"',
    )
  })

  it('requires the non-empty strings of the contract', () => {
    expect(only(setPath(singleTurnRaw(), 'input.text', ''))).toEqual([
      'scenarios[0].input.text: must not be empty',
    ])
    expect(only(setPath(singleTurnRaw(), 'type', ''))).toEqual(['scenarios[0].type: must not be empty'])
    expect(only(setPath(singleTurnRaw(), 'type', null))).toEqual([])
    expect(only(setPath(singleTurnRaw(), 'input.recordings', [{ id: 'take', path: '' }]))).toEqual([
      'scenarios[0].input.recordings[0].path: must not be empty',
    ])
    const history = (message: unknown) => setPath(singleTurnRaw(), 'input.context', { history: [message] })
    expect(only(history({ role: 'user', text: '' }))).toEqual([
      'scenarios[0].input.context.history[0].text: must not be empty',
    ])
    expect(only(history({ role: 'system', text: 'Be brief.' }))).toEqual([
      'scenarios[0].input.context.history[0].role: must be one of "user", "assistant", got "system"',
    ])
  })
})
