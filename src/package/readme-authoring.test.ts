// The README's authoring reference stays true to the code a user writes against: every offline rule's `answer`
// guards a refused call's `{ ok: false, error }`, the offline rule fields are described, and the scenario field table
// names every field of the contract (a field added to the schema without a line in the README fails here); so does
// the RUN reference: every caller, persona, agenda, golden path and procedure field in its own object's table or row
// (a field under another object's fails), every enum value in the row of its field, the gate's numbers and each
// default persona value beside its own key, read from the schemas, never restated here.
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

/** The text of each code span in `text`, in order. */
function codeSpans(text: string | undefined): string[] {
  return [...(text ?? '').matchAll(/`([^`\n]+)`/g)].map((match) => match[1] ?? '')
}

/**
 * The rows of the Markdown table in `text` whose header starts with the code span `name` (`| \`persona\` | …`),
 * each as its cells, header and separator left out.
 */
function tableOf(text: string, name: string): string[][] {
  const lines = text.split('\n')
  // A header is followed by its separator row (a row of another table may start with the same name).
  const header = lines.findIndex(
    (line, index) => line.startsWith(`| \`${name}\``) && lines[index + 1]?.startsWith('| ---'),
  )
  expect(header, name).toBeGreaterThan(-1)
  const rows: string[][] = []
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break
    rows.push(
      line
        .slice(1, line.endsWith('|') ? -1 : undefined)
        .split(' | ')
        .map((cell) => cell.trim()),
    )
  }
  return rows
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

  test('the RUN reference names every field, value and gate rule of the RUN contract, each in its own row', () => {
    const run = section('### RUN scenario fields')
    // Prose wraps: its sentences are read with each run of whitespace as one space.
    const prose = run.replace(/\s+/g, ' ')
    const sorted = (keys: Iterable<string>) => [...keys].sort()
    // Each object is one table: its rows' first cells name exactly its keys, none of another object's.
    const tables = [
      ['simulation_parameters', SimulationParametersSchema],
      ['persona', PersonaSchema],
      ['agenda[]', CallerAgendaItemSchema],
    ] as const
    for (const [name, schema] of tables) {
      const keys = tableOf(run, name).flatMap((row) => codeSpans(row[0]))
      expect(sorted(keys), name).toEqual(sorted(Object.keys(schema.shape)))
    }
    // The `expected` table writes the golden path's and the procedure's keys as `{ … }` in their rows, the
    // procedure's steps' keys as the second.
    const expected = new Map(tableOf(run, 'expected').map((row) => [codeSpans(row[0]).join(), row[1] ?? '']))
    const objectKeys = (row: string | undefined) =>
      codeSpans(row ?? '')
        .filter((span) => span.startsWith('{'))
        .map((span) =>
          sorted(
            span
              .replace(/[{}]/g, '')
              .split(',')
              .map((key) => key.trim()),
          ),
        )
    expect(objectKeys(expected.get('golden_path'))).toEqual([sorted(Object.keys(GoldenPathSchema.in.shape))])
    expect(objectKeys(expected.get('procedure'))).toEqual([
      sorted(Object.keys(ProcedureSchema.shape)),
      sorted(Object.keys(SopStepSchema.shape)),
    ])
    // Each enum's values in the row of the field that takes them.
    const agenda = new Map(tableOf(run, 'agenda[]').map((row) => [codeSpans(row[0]).join(), row[1] ?? '']))
    const { completion_basis: basis, wording_policy: wording } = CallerAgendaItemSchema.shape
    const values: [string | undefined, readonly string[]][] = [
      [agenda.get('action'), CallerActionSchema.options],
      [
        agenda.get('completion_basis,wording_policy'),
        [...basis.unwrap().options, ...wording.unwrap().options],
      ],
      [expected.get('procedure'), SopStepKindSchema.options],
    ]
    for (const [row, options] of values)
      for (const value of options) expect(codeSpans(row ?? ''), value).toContain(value)
    expect(prose).toContain(`\`expected.golden_path.turns\` of at least ${MIN_RUN_GOLDEN_TURNS}`)
    expect(prose).toContain(`at least ${MIN_SUBSTANTIVE_AGENDA_ITEMS} substantive \`agenda\` items`)
    expect(prose).toContain(
      `an \`action\` other than ${[...NON_SUBSTANTIVE_ACTIONS].map((action) => `\`${action}\``).join(' and ')}`,
    )
    expect(prose).toContain('`expected.golden_path.delegations`')
    // The default persona: each row's defaults, in the order of its keys, as the table writes them (a JSON value,
    // lists with a space after each comma).
    const defaults = tableOf(run, 'persona').flatMap((row) => {
      const keys = codeSpans(row[0])
      const written = codeSpans(row[1])
      expect(written, keys.join()).toHaveLength(keys.length)
      return keys.map((key, index) => [key, written[index]] as const)
    })
    const written = (value: unknown) =>
      typeof value === 'number' ? String(value) : JSON.stringify(value).replaceAll('","', '", "')
    expect(Object.fromEntries(defaults)).toEqual(
      Object.fromEntries(Object.entries(defaultPersona()).map(([key, value]) => [key, written(value)])),
    )
  })

  test('where spec files go: the default include and the include option', () => {
    const own = section('## Use it on your own voice agent')
    expect(own).toContain('`specs/<phase>/**/*.spec.ts` by default')
    expect(own).toContain("include: ['evals/**/*.spec.ts']")
  })
})
