// The opt-in second backend: OpenAI's Decisions API. One request per repetition asks a `score` question per
// applicable dimension, whose levels are the five anchors, so every dimension gets a distribution over the anchors.
// We map labels to scores ourselves (the API's own `score` is a level position, not our scale) and report the
// most probable anchor as the point score, the probability-weighted score and the API's confidence beside it, with
// the raw answer kept. There is no pass threshold in the rubric, so this backend counts a dimension as passed when
// its point score is "mostly satisfied" (0.75) or better; a refusal leaves the dimension not assessed (and is not
// cached). Answers are cached per dimension like the Responses judge's; a request is saved only when all hit.
// One request shares one input: the caller groups dimensions by the evidence dimension-evidence.ts shows them.

import type { Decision, DecisionCreateParams } from 'openai/resources/decisions'
import { roundToFourPlaces } from '../../metrics/rounding.ts'
import { callDecisions } from '../../models/decisions-call.ts'
import { cachedUsageEvent } from '../../models/usage.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'
import { contentHash, type JudgeCacheEntry, type JudgeCacheKey } from './cache.ts'
import { SemanticJudgeError } from './errors.ts'
import type { JudgeBackendSettings } from './judge-settings.ts'
import type { JudgeSample, JudgeUsageEvent } from './judge-types.ts'
import { dimensionHeader, judgeSystemPrompt } from './prompt.ts'
import { RUBRIC_VERSION, SCORE_ANCHORS } from './rubric.ts'
import { rubricScoreProblem } from './score.ts'

export const DEFAULT_DECISIONS_MODEL = 'gpt-6-luna'
export const DECISIONS_PASSING_SCORE = 0.75

export type DecisionsDimensionResult = { sample: JudgeSample } | { refusal: string }

export interface DecisionsRound {
  results: Partial<Record<SemanticDimension, DecisionsDimensionResult>>
  usage: JudgeUsageEvent
}

const LEVELS = SCORE_ANCHORS.map((anchor) => ({ label: anchor.label, description: anchor.meaning }))
const SCORE_BY_LABEL = new Map(SCORE_ANCHORS.map((anchor) => [anchor.label, anchor.score]))

export async function judgeWithDecisions(
  dimensions: readonly SemanticDimension[],
  evidence: Readonly<Record<string, unknown>>,
  repetition: number,
  settings: JudgeBackendSettings,
): Promise<DecisionsRound> {
  const questions: DecisionCreateParams['questions'] = dimensions.map((dimension) => ({
    type: 'score',
    name: dimension,
    instructions: dimensionHeader(dimension),
    levels: LEVELS,
  }))
  const system = judgeSystemPrompt(settings.interaction, 'decisions')
  const input: DecisionCreateParams['input'] = [
    { role: 'system', content: system },
    { role: 'user', content: [{ type: 'input_json', data: evidence }] },
  ]
  const keys = dimensions.map((dimension) =>
    cacheKey(dimension, system, evidence, repetition, settings.model),
  )
  const hits = await Promise.all(keys.map((key) => settings.cache?.get(key) ?? null))
  // One request answers every dimension, so only a full set of hits saves it.
  if (hits.every((hit) => hit !== null))
    return fromCache(dimensions, hits as JudgeCacheEntry[], repetition, settings)
  let called: Awaited<ReturnType<typeof callDecisions>>
  try {
    called = await callDecisions({
      ...settings.call,
      model: settings.model,
      source: 'evaluation_judge',
      purpose: 'evaluation_judge/decisions',
      input,
      questions,
    })
  } catch (error) {
    throw new SemanticJudgeError(`Semantic judge "decisions" failed: ${(error as Error).message}`, {
      judge: 'decisions',
      cause: error,
    })
  }
  const usage: JudgeUsageEvent = { ...called.usage, dimension: null, repetition }
  const results: DecisionsRound['results'] = {}
  for (const [index, dimension] of dimensions.entries()) {
    const answer = called.decision.answers[index]
    if (answer?.type === 'refusal') {
      results[dimension] = { refusal: `The Decisions API refused to score ${dimension}.` }
      continue
    }
    if (answer?.type !== 'score') continue // callDecisions already refused a misaligned answer list
    try {
      const sample = sampleFromScore(dimension, answer, repetition, settings.model)
      results[dimension] = { sample }
      const key = keys[index]
      if (key !== undefined)
        await settings.cache?.put({ key, verdict: verdictOf(sample), detail: sample.detail })
    } catch (error) {
      throw new SemanticJudgeError((error as Error).message, {
        judge: 'decisions',
        dimension,
        usage_events: [usage],
        cause: error,
      })
    }
  }
  return { results, usage }
}

function cacheKey(
  dimension: SemanticDimension,
  system: string,
  evidence: Readonly<Record<string, unknown>>,
  repetition: number,
  model: string,
): JudgeCacheKey {
  return {
    backend: 'decisions',
    model,
    reasoning_effort: null,
    rubric_version: RUBRIC_VERSION,
    dimension,
    prompt_hash: contentHash({ system, header: dimensionHeader(dimension), levels: LEVELS }),
    evidence_hash: contentHash(evidence),
    repetition,
  }
}

function verdictOf(sample: JudgeSample): JudgeCacheEntry['verdict'] {
  const { score, passed, rationale, evidence, task_completed } = sample
  return { score, passed, rationale, evidence, task_completed }
}

function fromCache(
  dimensions: readonly SemanticDimension[],
  hits: readonly JudgeCacheEntry[],
  repetition: number,
  settings: JudgeBackendSettings,
): DecisionsRound {
  const results: DecisionsRound['results'] = {}
  dimensions.forEach((dimension, index) => {
    const hit = hits[index]
    if (hit === undefined) return
    results[dimension] = {
      sample: { ...hit.verdict, dimension, repetition, judge: 'decisions', cached: true, detail: hit.detail },
    }
  })
  const identity = {
    source: 'evaluation_judge' as const,
    purpose: 'evaluation_judge/decisions',
    model: settings.model,
  }
  return { results, usage: { ...cachedUsageEvent(identity), dimension: null, repetition } }
}

type ScoreAnswer = Extract<Decision['answers'][number], { type: 'score' }>

function sampleFromScore(
  dimension: SemanticDimension,
  answer: ScoreAnswer,
  repetition: number,
  model: string,
): JudgeSample {
  const where = `Semantic judge "decisions" (${dimension})`
  const levels = answer.probabilities.map(({ label, probability }) => {
    const score = SCORE_BY_LABEL.get(label)
    if (score === undefined)
      throw new Error(`${where} answered an unknown level label ${JSON.stringify(label)}.`)
    if (!(probability >= 0 && probability <= 1)) {
      throw new Error(`${where} gave level ${label} a probability of ${probability}, outside 0..1.`)
    }
    return { label, score, probability }
  })
  const mass = levels.reduce((sum, level) => sum + level.probability, 0)
  if (!(mass > 0)) throw new Error(`${where} gave every level a probability of 0.`)
  // Ties go to the lower anchor: when the judge cannot separate two levels, the stricter reading stands.
  const best = [...levels]
    .sort((left, right) => left.score - right.score)
    .reduce((top, level) => (level.probability > top.probability ? level : top))
  const problem = rubricScoreProblem(best.score)
  if (problem !== null) throw new Error(`${where}: ${problem}.`)
  const weighted = roundToFourPlaces(
    levels.reduce((sum, level) => sum + level.score * level.probability, 0) / mass,
  )
  const confidence = Number.isFinite(answer.confidence) ? answer.confidence : null
  const passed = best.score >= DECISIONS_PASSING_SCORE
  return {
    score: best.score,
    passed,
    rationale:
      `Most probable anchor ${best.label} (p=${best.probability}); probability-weighted score ${weighted}` +
      (confidence === null ? '.' : `, confidence ${confidence}.`),
    evidence: [],
    task_completed: dimension === 'task_understanding' ? passed : null,
    dimension,
    repetition,
    judge: 'decisions',
    cached: false,
    detail: {
      judge_model: model,
      rubric_version: RUBRIC_VERSION,
      probability_weighted_score: weighted,
      confidence,
      probabilities: Object.fromEntries(levels.map((level) => [level.label, level.probability])),
      raw_answer: structuredClone(answer),
    },
  }
}
