// What the matchers accept besides the executed scenario: the expected tool calls of toMatchToolCalls, typed and
// checked by the scenario contract's own schema, so a call the matcher could not grade (a misspelled field,
// arguments that are not a JSON object) is refused by the type and, from JavaScript, fails the matcher with the
// field named instead of grading something other than what was written.
import { z } from 'zod'
import { type ExpectedToolCall, ExpectedToolCallSchema } from '../scenarios/index.ts'

const ToolCallExpectationsSchema = z.array(ExpectedToolCallSchema)

/**
 * One expected call for toMatchToolCalls: a tool name and the arguments that matter (default: any), or one of the
 * scenario's own expected calls (`scenario.expected.tools.required[0]`).
 */
export type ToolCallExpectation =
  | Pick<z.input<typeof ExpectedToolCallSchema>, 'name' | 'arguments'>
  | ExpectedToolCall

/** The expected calls, parsed; or the problem, naming the item and field (`expected[0]: Unrecognized key: "nam"`). */
export function parseToolCallExpectations(
  expected: unknown,
): { ok: true; calls: ExpectedToolCall[] } | { ok: false; problem: string } {
  const parsed = ToolCallExpectationsSchema.safeParse(expected)
  if (parsed.success) return { ok: true, calls: parsed.data }
  const where = (path: readonly PropertyKey[]) =>
    path.map((key) => (typeof key === 'number' ? `[${key}]` : `.${String(key)}`)).join('')
  return {
    ok: false,
    problem: parsed.error.issues.map((issue) => `expected${where(issue.path)}: ${issue.message}`).join('; '),
  }
}
