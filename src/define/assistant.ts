// defineAssistant(): a user's own voice agent in a spec file, through the same seat as the bundled restaurant
// (AssistantApplication). Its tools are plain functions over the scenario's own copy of the application state;
// offline, its scripted rules stand in for the voice model and its backend (which caller text gets which reply
// and which tool call), and rules written as functions also get the call so far (what the assistant heard
// and said before, as `SpokenTurn`s) for multi-turn RUN conversations. The assistant sees only its own
// prompts, tools, public facts, the scenario's visible input and the call itself; nothing of the
// evaluator's expectations reaches any of these functions.
import { z } from 'zod'
import type { AssistantApplication } from '../assistants/application.ts'
import type {
  InferredToolCall,
  JsonObject,
  OfflineBehaviour,
  SpokenTurn,
} from '../assistants/offline-behaviour.ts'
import { deepCopy, isJsonObject } from '../assistants/runtime/json.ts'
import {
  type FunctionToolDefinition,
  functionToolDefinitionSchema,
} from '../assistants/runtime/tool-definitions.ts'
import {
  ToolArgumentError,
  type ToolExecutionRecord,
  type ToolExecutor,
} from '../assistants/runtime/tool-executor.ts'
import { runRuleCallback } from './rule-callback.ts'

/** What a tool's implementation gets: the call's arguments and this scenario's mutable application state. */
export interface ToolContext {
  /** This scenario's application state (a private copy): change it in place. */
  state: JsonObject
  /** The application's business facts, private ones included. */
  facts: JsonObject
}

export interface ToolDefinitionInput {
  name: string
  description?: string
  /** JSON Schema of the arguments (`{ type: 'object', properties, required }`). */
  parameters: FunctionToolDefinition['parameters']
  /**
   * The implementation. Return the output the model gets (a JSON object). Throw to refuse the call: the
   * message goes back to the model as `{ ok: false, error }` and the execution is recorded as failed.
   */
  execute(args: JsonObject, context: ToolContext): JsonObject | Promise<JsonObject>
}

export type { SpokenTurn }

/**
 * One offline rule: when the caller says something matching `when`, what the scripted assistant does.
 * Functions get the caller's current words and `earlier`, the call before them (oldest first; empty on a
 * first turn), so a rule can act on what was said several turns ago.
 */
export interface OfflineRule {
  /**
   * Matched against the caller's words (a string matches case-insensitively as a substring), or a test of
   * the words and the call so far.
   */
  when: string | RegExp | ((callerText: string, earlier: readonly SpokenTurn[]) => boolean)
  /** Answer directly with this (no delegation). */
  say?: string | ((callerText: string, earlier: readonly SpokenTurn[]) => string)
  /** Delegate and call this tool (arguments fixed, or computed from what the caller said and the call so far). */
  call?: {
    name: string
    arguments: JsonObject | ((callerText: string, earlier: readonly SpokenTurn[]) => JsonObject)
  }
  /**
   * After the tool answered: what the assistant says (default: a short confirmation). `output` is what the tool
   * returned, or `{ ok: false, error }` when it refused the call (threw): check `output.ok` before reading it.
   */
  answer?: string | ((output: JsonObject) => string)
}

export interface AssistantDefinition {
  /** Names the assistant in errors and results. */
  name: string
  /** The GPT-Live voice instructions. */
  instructions: string
  /** The delegated backend's instructions (Responses delegation's model, or your client backend's prompt). */
  backendInstructions: string
  /** The application's tools; `[]` for an agent that only talks (then no scenario may expect a tool call). */
  tools: readonly ToolDefinitionInput[]
  /** Business facts the assistant may see (in its context), default none. */
  facts?: JsonObject
  /** Fact keys that only the tools may read (never shown to the assistant). */
  privateFacts?: readonly string[]
  /** Offline runs: the scripted behaviour. Without it, an offline run of this assistant says it cannot run. */
  offline?: { rules: readonly OfflineRule[]; fallback?: string }
  /**
   * Client delegation: what the assistant is given to say when your backend fails on a delegation (throws,
   * answers blank, misses its deadline), so the caller is not left waiting; null says nothing. Default: "I'm sorry,
   * I couldn't complete that request: our system isn't responding right now. Please try again later."
   */
  backendFailureAnswer?: string | null
}

const definitionSchema = z.object({
  name: z.string().trim().min(1, 'must not be empty'),
  instructions: z.string().trim().min(1, 'must not be empty'),
  backendInstructions: z.string().trim().min(1, 'must not be empty'),
  // An agent that only talks has no tools: `tools: []`.
  tools: z.array(z.unknown()),
  backendFailureAnswer: z
    .string()
    .trim()
    .min(1, 'must not be empty (null says nothing)')
    .nullable()
    .optional(),
})

/** The scripted stand-in: the first rule that matches decides; its answer speaks after the tool. */
class RuleBehaviour implements OfflineBehaviour {
  readonly #assistant: string
  readonly #rules: readonly OfflineRule[]
  readonly #fallback: string
  #lastCall: OfflineRule | null = null

  constructor(assistant: string, rules: readonly OfflineRule[], fallback: string) {
    this.#assistant = assistant
    this.#rules = rules
    this.#fallback = fallback
  }

  inferToolCall(userText: string, earlier: readonly SpokenTurn[] = []): InferredToolCall | null {
    const rule = this.#rules.find(
      (candidate) => candidate.call !== undefined && this.#matches(candidate, userText, earlier),
    )
    if (rule?.call === undefined) return null
    this.#lastCall = rule
    const { arguments: args } = rule.call
    const computed =
      typeof args === 'function'
        ? this.#run(rule, 'call.arguments(callerText, earlier)', userText, () => args(userText, earlier))
        : args
    return { name: rule.call.name, arguments: deepCopy(computed) as JsonObject }
  }

  directAnswer(userText: string, earlier: readonly SpokenTurn[] = []): string {
    const rule = this.#rules.find(
      (candidate) => candidate.say !== undefined && this.#matches(candidate, userText, earlier),
    )
    const say = rule?.say
    if (rule === undefined || say === undefined) return this.#fallback
    return typeof say === 'function'
      ? this.#run(rule, 'say(callerText, earlier)', userText, () => say(userText, earlier))
      : say
  }

  finalAnswer(output: JsonObject): string {
    const rule = this.#lastCall
    const answer = rule?.answer
    if (rule === null || answer === undefined) return 'Done.'
    return typeof answer === 'function'
      ? this.#run(rule, 'answer(output)', output, () => answer(output))
      : answer
  }

  #matches(rule: OfflineRule, text: string, earlier: readonly SpokenTurn[]): boolean {
    const { when } = rule
    if (typeof when === 'string') return text.toLowerCase().includes(when.toLowerCase())
    if (typeof when === 'function')
      return this.#run(rule, 'when(callerText, earlier)', text, () => when(text, earlier))
    return when.test(text)
  }

  /** Runs the author's callback; a throw becomes an OfflineRuleError naming this rule. */
  #run<T>(rule: OfflineRule, callback: string, given: unknown, run: () => T): T {
    const site = { assistant: this.#assistant, index: this.#rules.indexOf(rule), when: rule.when }
    return runRuleCallback({ ...site, callback, given }, run)
  }
}

/** The generic executor: each tool runs over the scenario's own state copy; a throw refuses the call. */
class DefinedToolExecutor implements ToolExecutor {
  readonly definitions: readonly FunctionToolDefinition[]
  readonly executions: ToolExecutionRecord[] = []
  readonly #tools: Map<string, ToolDefinitionInput>
  readonly #state: JsonObject
  readonly #facts: JsonObject

  constructor(
    tools: readonly ToolDefinitionInput[],
    definitions: FunctionToolDefinition[],
    state: JsonObject,
    facts: JsonObject,
  ) {
    this.#tools = new Map(tools.map((tool) => [tool.name, tool]))
    this.definitions = definitions
    this.#state = state
    this.#facts = facts
  }

  async execute(name: string, args: unknown, callId?: string | null): Promise<JsonObject> {
    const tool = this.#tools.get(name)
    if (tool === undefined) throw new ToolArgumentError(`unknown tool ${name}`)
    if (!isJsonObject(args)) throw new ToolArgumentError(`${name} takes a JSON object of arguments`)
    // A refused call must change nothing: the tool works on a copy that is kept only when it succeeds.
    const draft = deepCopy(this.#state) as JsonObject
    let output: JsonObject
    try {
      output = await tool.execute(deepCopy(args) as JsonObject, {
        state: draft,
        facts: deepCopy(this.#facts) as JsonObject,
      })
    } catch (error) {
      throw new ToolArgumentError(error instanceof Error ? error.message : String(error))
    }
    if (!isJsonObject(output))
      throw new ToolArgumentError(`${name} returned something that is not a JSON object`)
    for (const key of Object.keys(this.#state)) delete this.#state[key]
    Object.assign(this.#state, draft)
    const record = {
      call_id: callId ?? null,
      name,
      arguments: deepCopy(args),
      status: 'completed' as const,
      output,
    }
    this.executions.push(record)
    return deepCopy(output) as JsonObject
  }

  snapshot(): JsonObject {
    return deepCopy(this.#state) as JsonObject
  }
}

/** Your voice agent as the assistant under test. Checks the definition up front; errors name the field. */
export function defineAssistant(definition: AssistantDefinition): AssistantApplication {
  const checked = definitionSchema.safeParse(definition)
  if (!checked.success) {
    const issue = checked.error.issues[0]
    throw new Error(
      `defineAssistant: ${issue?.path.join('.') || '(definition)'} ${issue?.message ?? 'is invalid'}`,
    )
  }
  const definitions = definition.tools.map((tool, index) => {
    const parsed = functionToolDefinitionSchema.safeParse({
      type: 'function',
      name: tool.name,
      ...(tool.description === undefined ? {} : { description: tool.description }),
      parameters: tool.parameters,
    })
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new Error(
        `defineAssistant(${definition.name}): tools[${index}].${issue?.path.join('.') ?? ''} ${issue?.message ?? 'is invalid'}`,
      )
    }
    if (typeof tool.execute !== 'function') {
      throw new Error(
        `defineAssistant(${definition.name}): tools[${index}] (${tool.name}) needs an execute(args, { state }) function`,
      )
    }
    return parsed.data
  })
  const names = new Set<string>()
  for (const tool of definitions) {
    if (names.has(tool.name))
      throw new Error(`defineAssistant(${definition.name}): tool "${tool.name}" is defined twice`)
    names.add(tool.name)
  }
  const allFacts = deepCopy(definition.facts ?? {}) as JsonObject
  const hidden = new Set(definition.privateFacts ?? [])
  const offline = definition.offline
  return {
    name: definition.name,
    ...(definition.backendFailureAnswer === undefined
      ? {}
      : { backendFailureAnswer: definition.backendFailureAnswer }),
    voicePrompt: definition.instructions,
    backendPrompt: definition.backendInstructions,
    tools: definitions,
    publicFacts(facts) {
      const source = deepCopy(facts ?? allFacts) as JsonObject
      for (const key of hidden) delete source[key]
      return source
    },
    createExecutor: ({ initialState, facts }) =>
      new DefinedToolExecutor(
        definition.tools,
        definitions,
        deepCopy(initialState) as JsonObject,
        deepCopy(facts ?? allFacts) as JsonObject,
      ),
    ...(offline === undefined
      ? {}
      : {
          offlineRules: true,
          offlineBehaviour: () =>
            new RuleBehaviour(
              definition.name,
              offline.rules,
              offline.fallback ?? "Sorry, I can't help with that.",
            ),
        }),
  }
}
