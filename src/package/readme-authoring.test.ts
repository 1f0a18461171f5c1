// The README's authoring reference stays true to the code a user writes against: every offline rule's `answer`
// guards a refused call's `{ ok: false, error }`, the offline rule fields are described, and the scenario field table
// names every field of the contract (a field added to the schema without a line in the README fails here); so does
// the RUN reference: every caller, persona, agenda, golden path and procedure field, every enum value, the gate's
// numbers and the default persona's values, read from the schemas, never restated here.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  ExpectedOutcomeSchema,
  GoldenPathSchema,
  ProcedureSchema,
  SopStepKindSchema,
  SopStepSchema,
} from '../scenarios/expected.ts'
import { MIN_RUN_GOLDEN_TURNS, MIN_SUBSTANTIVE_AGENDA_ITEMS } from '../scenarios/run-gate.ts'
import { ScenarioSchema } from '../scenarios/scenario.ts'
import {
  CallerActionSchema,
  CallerAgendaItemSchema,
  defaultPersona,
  NON_SUBSTANTIVE_ACTIONS,
  PersonaSchema,
  SimulationParametersSchema,
} from '../scenarios/simulation.ts'

const README = readFileSync(join(import.meta.dirname, '../../README.md'), 'utf8')

/** The README's section that starts at `heading`, up to the next heading of any level. */
function section(heading: string): string {
  const start = README.indexOf(`\n${heading}\n`)
  expect(start, heading).toBeGreaterThan(-1)
  const rest = README.slice(start + heading.length + 2)
  return rest.slice(0, rest.search(/\n#{2,3} /))
}

describe("the README's authoring reference", () => {
  test('every offline rule answer callback checks output.ok before reading the output', () => {
    // Each answer callback with what follows it up to its end (the line before the next field or the rule's end).
    const answers = README.split('answer: (output) =>')
      .slice(1)
      .map((after) => after.slice(0, after.search(/\n\s*(?:\}|[a-z]+:)/)))
    expect(answers.length).toBeGreaterThan(0)
    for (const answer of answers) expect(answer).toContain('output.ok')
  })

  test('the offline rule fields are described: when (string, RegExp, function), say, call, answer, earlier', () => {
    const rules = section('### Offline rules')
    for (const field of ['`when`', '`say`', '`call`', '`answer`', '`earlier`', '`fallback`']) {
      expect(rules).toContain(field)
    }
    expect(rules).toContain('case-insensitively')
  })

  test('the scenario field table names every field of the contract', () => {
    const fields = section('### Scenario fields')
    for (const key of Object.keys(ScenarioSchema.shape)) expect(fields).toContain(`\`${key}`)
    for (const key of Object.keys(ExpectedOutcomeSchema.shape)) expect(fields).toContain(`${key}\``)
  })

  test('the RUN reference names every field, value and gate rule of the RUN contract', () => {
    const run = section('### RUN scenario fields')
    // Prose wraps: its sentences are read with each run of whitespace as one space.
    const prose = run.replace(/\s+/g, ' ')
    // A field is named in a code span of its own (`goal`) or inside one (`{ id, kind, tool }`).
    const named = (key: string) => new RegExp(`\`[^\`\n]*\\b${key}\\b[^\`\n]*\``)
    const objects = [
      SimulationParametersSchema,
      PersonaSchema,
      CallerAgendaItemSchema,
      GoldenPathSchema.in,
      ProcedureSchema,
      SopStepSchema,
    ]
    for (const schema of objects)
      for (const key of Object.keys(schema.shape)) expect(run, key).toMatch(named(key))
    const { completion_basis: basis, wording_policy: wording } = CallerAgendaItemSchema.shape
    const values = [
      ...CallerActionSchema.options,
      ...SopStepKindSchema.options,
      ...basis.unwrap().options,
      ...wording.unwrap().options,
    ]
    for (const value of values) expect(run).toContain(`\`${value}\``)
    expect(prose).toContain(`\`expected.golden_path.turns\` of at least ${MIN_RUN_GOLDEN_TURNS}`)
    expect(prose).toContain(`at least ${MIN_SUBSTANTIVE_AGENDA_ITEMS} substantive \`agenda\` items`)
    expect(prose).toContain(
      `an \`action\` other than ${[...NON_SUBSTANTIVE_ACTIONS].map((action) => `\`${action}\``).join(' and ')}`,
    )
    expect(prose).toContain('`expected.golden_path.delegations`')
    // The default persona, each value as the table writes it (a JSON value, lists with a space after each comma).
    const persona = run.slice(run.indexOf('| `persona` | default |'))
    for (const [key, value] of Object.entries(defaultPersona())) {
      const written =
        typeof value === 'number' ? String(value) : JSON.stringify(value).replaceAll('","', '", "')
      expect(persona, key).toContain(`\`${written}\``)
    }
  })

  test('where spec files go: the default include and the include option', () => {
    const own = section('## Use it on your own voice agent')
    expect(own).toContain('`specs/<phase>/**/*.spec.ts` by default')
    expect(own).toContain("include: ['evals/**/*.spec.ts']")
  })
})
