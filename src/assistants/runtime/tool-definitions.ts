// The definitions file of an application's function tools (`definitions.json`): a non-empty list of
// `{type: "function", name, description, parameters}` with unique, non-empty names. Both restaurant
// copies load theirs through this check so a broken file fails at load time with its path.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'

const jsonSchemaObject = z.record(z.string(), z.unknown())

export const functionToolDefinitionSchema = z.strictObject({
  type: z.literal('function'),
  name: z.string().refine((name) => name.trim().length > 0, 'tool name must be non-empty'),
  description: z.string().optional(),
  parameters: z.looseObject({
    type: z.literal('object'),
    properties: z.record(z.string(), jsonSchemaObject),
    required: z.array(z.string()).optional(),
  }),
  strict: z.boolean().optional(),
  // Evaluator-side: whether the tool changes the application (graders' side-effect, clarification and
  // confirmation checks read it). Never sent to GPT-Live (normalizeLiveTools builds its own closed shape).
  mutates: z.boolean().optional(),
})
export type FunctionToolDefinition = z.infer<typeof functionToolDefinitionSchema>

const definitionsFileSchema = z
  .array(functionToolDefinitionSchema)
  .min(1, 'the definitions must list at least one function tool')
  .superRefine((tools, ctx) => {
    const seen = new Set<string>()
    tools.forEach((tool, index) => {
      if (seen.has(tool.name)) {
        ctx.addIssue({ code: 'custom', path: [index, 'name'], message: `duplicate tool name "${tool.name}"` })
      }
      seen.add(tool.name)
    })
  })

/** Tools whose name says they only read: the rule for a tool that does not declare `mutates`. */
const READ_ONLY_TOOL = /^(?:check|get|list|find|search|lookup|look_up|read|query|describe|fetch)_/

/**
 * The one definition of "mutating tool": what the tool declares (`mutates`), else the read-verb rule on its name
 * (every tool not named as a read is taken to change the application). Graders that only have a recorded
 * execution pass its recorded `mutates` (the runtime stamps the declaration on every record).
 */
export function toolMutates(name: string, declared?: boolean | undefined): boolean {
  return declared ?? !READ_ONLY_TOOL.test(name)
}

/** Thrown when a definitions file is missing, malformed or breaks a rule; names the file. */
export class ToolDefinitionsError extends Error {
  override name = 'ToolDefinitionsError'
}

/** Check an already-parsed definitions value; `source` names where it came from in errors. */
export function parseToolDefinitions(value: unknown, source: string): FunctionToolDefinition[] {
  const result = definitionsFileSchema.safeParse(value)
  if (result.success) return result.data
  const problems = result.error.issues.map((issue) => {
    const where = issue.path.length > 0 ? `[${issue.path.join('].[')}]` : '(top level)'
    return `${where}: ${issue.message}`
  })
  throw new ToolDefinitionsError(
    `Tool definitions in ${source} are invalid; fix these entries:\n  ${problems.join('\n  ')}`,
  )
}

/** Read and check a definitions JSON file (a fresh parse every call, so callers own their copy). */
export function readToolDefinitions(file: URL | string): FunctionToolDefinition[] {
  const path = typeof file === 'string' ? file : fileURLToPath(file)
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    throw new ToolDefinitionsError(`Cannot read tool definitions file ${path}: ${(error as Error).message}`)
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new ToolDefinitionsError(
      `Tool definitions file ${path} is not valid JSON: ${(error as Error).message}`,
    )
  }
  return parseToolDefinitions(value, path)
}
