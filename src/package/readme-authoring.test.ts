// The README's authoring reference stays true to the code a user writes against: every offline rule's `answer`
// guards a refused call's `{ ok: false, error }`, the offline rule fields are described, and the scenario field table
// names every field of the contract (a field added to the schema without a line in the README fails here).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { ExpectedOutcomeSchema } from '../scenarios/expected.ts'
import { ScenarioSchema } from '../scenarios/scenario.ts'

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

  test('where spec files go: the default include and the include option', () => {
    const own = section('## Use it on your own voice agent')
    expect(own).toContain('`specs/<phase>/**/*.spec.ts` by default')
    expect(own).toContain("include: ['evals/**/*.spec.ts']")
  })
})
