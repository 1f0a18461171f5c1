// Judging one scenario: which dimensions apply (§3.7), one judgment per applicable dimension and repetition (or one
// Decisions request per repetition), aggregated per dimension, with every request's usage event. Offline, or with
// grading disabled, nothing is sent and applicable dimensions stay not_assessed with null scores. A judge that
// fails raises SemanticJudgeError (stage `semantic_judge`) carrying the usage already spent.

import type { DimensionGrade } from '../dimension-grade.ts'
import {
  applicableSemanticDimensions,
  offlineSemanticGrades,
  type SemanticDimension,
} from '../semantic-applicability.ts'
import { aggregateDimension, type JudgedDimension, semanticDimensionGrades } from './aggregate.ts'
import { openJudgeCache } from './cache.ts'
import { judgeWithDecisions } from './decisions-judge.ts'
import { dimensionEvidence } from './dimension-evidence.ts'
import { SemanticJudgeError } from './errors.ts'
import {
  buildJudgeEvidence,
  type JudgeEvidence,
  type JudgeObserved,
  type JudgeScenarioFacts,
} from './evidence.ts'
import type { JudgeBackendSettings } from './judge-settings.ts'
import type { JudgeSample, JudgeUsageEvent } from './judge-types.ts'
import { resolveJudgeOptions, type SemanticJudgeOptions } from './options.ts'
import { responsesJudge } from './responses-judge.ts'
import { RUBRIC_VERSION } from './rubric.ts'

export interface SemanticJudgement {
  rubric_version: typeof RUBRIC_VERSION
  /** False offline or with grading disabled: nothing was sent and nothing judged. */
  assessed: boolean
  backend: 'responses' | 'decisions' | null
  judge_model: string | null
  /** Applicable dimensions only. */
  dimensions: Partial<Record<SemanticDimension, JudgedDimension>>
  /** Every dimension, as the details JSON and the result row report them. */
  grades: Record<SemanticDimension, DimensionGrade>
  task_completion: { completed: boolean | null }
  naturalness: { score: null; reason: string }
  /** One per request sent or served from the cache; never part of the assistant's consumption. */
  usage_events: JudgeUsageEvent[]
  evidence: JudgeEvidence | null
}

const NATURALNESS = { score: null, reason: 'requires human or audio-based evaluation' } as const

export async function judgeScenario(
  scenario: JudgeScenarioFacts,
  observed: JudgeObserved,
  options: SemanticJudgeOptions,
): Promise<SemanticJudgement> {
  const resolved = resolveJudgeOptions(options)
  if (!resolved.enabled || resolved.mode === 'offline') {
    return {
      rubric_version: RUBRIC_VERSION,
      assessed: false,
      backend: null,
      judge_model: null,
      dimensions: {},
      grades: offlineSemanticGrades(scenario),
      task_completion: { completed: null },
      naturalness: { ...NATURALNESS },
      usage_events: [],
      evidence: null,
    }
  }
  const evidence = buildJudgeEvidence(scenario, observed)
  const applicable = applicableSemanticDimensions(scenario)
  const settings: JudgeBackendSettings = {
    model: resolved.backend === 'decisions' ? resolved.decisionsModel : resolved.model,
    reasoningEffort: resolved.backend === 'decisions' ? undefined : resolved.reasoningEffort,
    interaction: scenario.interaction,
    cache: openJudgeCache(resolved.cacheDir),
    call: resolved.call,
  }
  const repetitions = [...Array(resolved.repetitions).keys()]
  const collected: Collected = {
    samples: new Map(applicable.map((dimension) => [dimension, []])),
    refusals: new Map(applicable.map((dimension) => [dimension, []])),
    usage: [],
  }
  const failures: unknown[] = []
  const tasks =
    resolved.backend === 'decisions'
      ? decisionsRounds(applicable, evidence, repetitions, settings, collected)
      : responsesJudgments(scenario, applicable, evidence, repetitions, settings, collected)
  const { samples, refusals, usage } = collected
  for (const settled of await Promise.allSettled(tasks)) {
    if (settled.status === 'rejected') failures.push(settled.reason)
  }
  const byOrder = (left: { repetition: number }, right: { repetition: number }) =>
    left.repetition - right.repetition
  usage.sort(
    (left, right) => byOrder(left, right) || String(left.dimension).localeCompare(String(right.dimension)),
  )
  if (failures.length > 0) throw judgeFailure(failures, usage)

  const dimensions: SemanticJudgement['dimensions'] = {}
  for (const dimension of applicable) {
    const ordered = (samples.get(dimension) ?? []).sort(byOrder)
    dimensions[dimension] = aggregateDimension(dimension, ordered, refusals.get(dimension))
  }
  return {
    rubric_version: RUBRIC_VERSION,
    assessed: true,
    backend: resolved.backend,
    judge_model: settings.model,
    dimensions,
    grades: semanticDimensionGrades(dimensions, settings.model),
    task_completion: { completed: dimensions.task_understanding?.task_completed ?? null },
    naturalness: { ...NATURALNESS },
    usage_events: usage,
    evidence,
  }
}

/** What the judgments produced so far, filled as they settle. */
interface Collected {
  samples: Map<SemanticDimension, JudgeSample[]>
  refusals: Map<SemanticDimension, string[]>
  usage: JudgeUsageEvent[]
}

/** One Responses judgment per dimension and repetition. */
function responsesJudgments(
  scenario: JudgeScenarioFacts,
  applicable: readonly SemanticDimension[],
  evidence: JudgeEvidence,
  repetitions: readonly number[],
  settings: JudgeBackendSettings,
  collected: Collected,
): Promise<void>[] {
  return applicable.flatMap((dimension) => {
    const judge = responsesJudge(dimension, settings)
    const shown = dimensionEvidence(evidence, dimension, scenario)
    return repetitions.map(async (repetition) => {
      const judged = await judge.judge({ evidence: shown, repetition, signal: settings.call.signal })
      collected.usage.push(judged.usage)
      collected.samples.get(dimension)?.push(judged.sample)
    })
  })
}

/** One Decisions request per repetition, answering every applicable dimension. */
function decisionsRounds(
  applicable: readonly SemanticDimension[],
  evidence: JudgeEvidence,
  repetitions: readonly number[],
  settings: JudgeBackendSettings,
  collected: Collected,
): Promise<void>[] {
  return repetitions.map(async (repetition) => {
    const round = await judgeWithDecisions(applicable, evidence, repetition, settings)
    collected.usage.push(round.usage)
    for (const dimension of applicable) {
      const result = round.results[dimension]
      if (result === undefined) continue
      if ('refusal' in result) collected.refusals.get(dimension)?.push(result.refusal)
      else collected.samples.get(dimension)?.push(result.sample)
    }
  })
}

function judgeFailure(failures: readonly unknown[], usage: JudgeUsageEvent[]): SemanticJudgeError {
  const first = failures[0]
  const spent = [
    ...usage,
    ...failures.flatMap((failure) => (failure instanceof SemanticJudgeError ? failure.usage_events : [])),
  ]
  if (first instanceof SemanticJudgeError) {
    first.usage_events = spent
    return first
  }
  return new SemanticJudgeError(`Semantic judge failed: ${(first as Error)?.message ?? String(first)}`, {
    cause: first,
    usage_events: spent,
  })
}
