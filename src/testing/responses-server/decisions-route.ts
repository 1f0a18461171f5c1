// `POST /v1/decisions` for the test OpenAI server: validates the request like the API (known fields only, 1–400
// questions of type predicate, choice or score), then answers each question from the test's script, addressed by
// the question's name (or `#<index>` when unnamed). Score answers list every level in order with the scripted
// probability, `value` = the level's position from 0, `score` = the probability-weighted position and, unless
// scripted, `confidence` = the largest probability (our convention; the API does not define it further).

import type { Decision } from 'openai/resources/decisions'
import { z } from 'zod'
import { estimatedUsage } from '../estimated-usage.ts'
import { delayReply, faultReply, isScriptedFault, type ScriptedFault, unscriptedReply } from './faults.ts'
import { invalidRequest, openAiError, type RouteHandler, type RouteReply } from './routes.ts'

const Instructions = z.union([z.string().min(1), z.array(z.record(z.string(), z.unknown())).min(1)])

const Question = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('predicate'),
    instructions: Instructions,
    name: z.string().min(1).optional(),
  }),
  z.strictObject({
    type: z.literal('choice'),
    instructions: Instructions,
    name: z.string().min(1).optional(),
    choices: z
      .array(
        z.strictObject({ value: z.union([z.string(), z.boolean()]), description: z.string().optional() }),
      )
      .min(2)
      .max(255),
  }),
  z.strictObject({
    type: z.literal('score'),
    instructions: Instructions,
    name: z.string().min(1).optional(),
    levels: z.array(z.strictObject({ label: z.string().min(1), description: z.string().optional() })).min(2),
  }),
])

const DecisionsRequest = z.strictObject({
  model: z.string().min(1),
  input: z.union([z.string().min(1), z.array(z.record(z.string(), z.unknown())).min(1)]),
  questions: z.array(Question).min(1).max(400),
  prompt_cache_key: z.string().nullable().optional(),
  prompt_cache_options: z.record(z.string(), z.unknown()).nullable().optional(),
  safety_identifier: z.string().nullable().optional(),
})
export type DecisionsRequest = z.infer<typeof DecisionsRequest>
type DecisionQuestion = DecisionsRequest['questions'][number]

export type ScriptedAnswer =
  /** Probabilities by level label; levels left out get 0. */
  | { type: 'score'; probabilities: Record<string, number>; confidence?: number }
  | { type: 'predicate'; probability: number }
  /** Probabilities by choice value (booleans as "true"/"false"). */
  | { type: 'choice'; probabilities: Record<string, number>; confidence?: number }
  | { type: 'refusal' }

export interface ScriptedDecision {
  /** By question name, or `#<index>` for an unnamed question. */
  answers: Record<string, ScriptedAnswer>
  delayMs?: number
}

export interface DecisionsRouteOptions {
  respond: (request: DecisionsRequest, index: number) => ScriptedDecision | ScriptedFault | undefined
}

type Answer = Decision['answers'][number]

export function decisionsRoute(options: DecisionsRouteOptions): RouteHandler {
  let index = 0
  return async (request, response) => {
    const parsed = DecisionsRequest.safeParse(request.body)
    if (!parsed.success) return invalidRequest('decisions request', parsed.error)
    const duplicate = duplicateName(parsed.data.questions)
    if (duplicate !== null) {
      return openAiError(400, `Invalid decisions request: question name "${duplicate}" repeats.`, {
        param: 'questions',
      })
    }
    const number = index++
    const scripted = options.respond(parsed.data, number)
    if (scripted === undefined) return unscriptedReply('POST /v1/decisions', number)
    if (isScriptedFault(scripted)) return faultReply(scripted, response)
    if (!(await delayReply(scripted.delayMs, response))) return undefined
    const answers: Answer[] = []
    for (const [position, question] of parsed.data.questions.entries()) {
      const key = question.name ?? `#${position}`
      const answer = scripted.answers[key]
      if (answer === undefined) return scriptError(`no scripted answer for question "${key}"`)
      const built = buildAnswer(question, answer)
      if (typeof built === 'string') return scriptError(`question "${key}": ${built}`)
      answers.push(built)
    }
    const decision: Decision = {
      answers,
      model: parsed.data.model,
      usage: estimatedUsage(JSON.stringify(parsed.data.input), JSON.stringify(answers)),
    }
    return { status: 200, body: decision }
  }
}

function duplicateName(questions: readonly DecisionQuestion[]): string | null {
  const seen = new Set<string>()
  for (const { name } of questions) {
    if (name === undefined) continue
    if (seen.has(name)) return name
    seen.add(name)
  }
  return null
}

/** The answer for one question, or why the script does not fit it. */
function buildAnswer(question: DecisionQuestion, answer: ScriptedAnswer): Answer | string {
  const name = question.name ?? null
  if (answer.type === 'refusal') return { type: 'refusal', name }
  if (answer.type !== question.type) return `scripted a ${answer.type} answer for a ${question.type} question`
  if (answer.type === 'predicate') return { type: 'predicate', name, probability: answer.probability }
  if (question.type === 'score' && answer.type === 'score') {
    const labels = question.levels.map((level) => level.label)
    const unknown = Object.keys(answer.probabilities).find((label) => !labels.includes(label))
    if (unknown !== undefined) return `scripted label "${unknown}" is not one of its levels`
    const probabilities = labels.map((label, value) => ({
      label,
      value,
      probability: answer.probabilities[label] ?? 0,
    }))
    const score = probabilities.reduce((sum, level) => sum + level.value * level.probability, 0)
    const confidence = answer.confidence ?? Math.max(...probabilities.map((level) => level.probability))
    return { type: 'score', name, score, confidence, probabilities }
  }
  if (question.type === 'choice' && answer.type === 'choice') {
    const probabilities = question.choices.map((choice) => ({
      value: choice.value,
      probability: answer.probabilities[String(choice.value)] ?? 0,
    }))
    const best = probabilities.reduce((top, option) => (option.probability > top.probability ? option : top))
    const confidence = answer.confidence ?? best.probability
    return { type: 'choice', name, choice: best.value, confidence, probabilities }
  }
  return 'the scripted answer does not fit the question'
}

function scriptError(problem: string): RouteReply {
  return openAiError(500, `The test script does not fit the decisions request: ${problem}.`, {
    type: 'server_error',
  })
}
