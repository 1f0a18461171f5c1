// Judging one scenario: which dimensions apply (§3.7), one judgment per applicable dimension and repetition (or one
// Decisions request per repetition and distinct evidence), aggregated per dimension, with every request's usage
// event. Single-turn evidence is built here; a simulated call brings its own (judgeWithEvidence). Offline, or with
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
  type JudgeEvidenceRecord,
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
  /** The evidence the judge was built from (before per-dimension tailoring); null when nothing was judged. */
  evidence: JudgeEvidenceRecord | null
}

const NATURALNESS = { score: null, reason: 'requires human or audio-based evaluation' } as const

/** Judges one single-turn request (CRAWL, WALK). A simulated call is judged through judgeRunGrade (grading/run). */
export async function judgeScenario(
  scenario: JudgeScenarioFacts,
  observed: JudgeObserved,
  options: SemanticJudgeOptions,
): Promise<SemanticJudgement> {
  if (scenario.interaction === 'multi_turn') {
    throw new SemanticJudgeError(
      `judgeScenario judges single-turn scenarios; ${scenario.scenario_id} is a simulated call ` +
        '(judge it with judgeRunGrade, which shows the judge the whole conversation)',
    )
  }
  return judgeWithEvidence(scenario, () => buildJudgeEvidence(scenario, observed), options)
}

/**
 * The judge over evidence a phase built (`evidence` is called only when a judge will run). Each dimension is shown
 * dimensionEvidence's tailoring of it; the judge's system prompt follows `scenario.interaction`.
 */
export async function judgeWithEvidence(
  scenario: JudgeScenarioFacts,
  evidence: () => JudgeEvidenceRecord,
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
  const built = evidence()
  const applicable = applicableSemanticDimensions(scenario)
  const settings: JudgeBackendSettings = {
    model: resolved.backend === 'decisions' ? resolved.decisionsModel : resolved.model,
    reasoningEffort: resolved.backend === 'decisions' ? undefined : resolved.reasoningEffort,
    interaction: scenario.interaction,
    cache: openJudgeCache(resolved.cacheDir),
    call: resolved.call,
  }
  const shown = new Map(
    applicable.map((dimension) => [dimension, dimensionEvidence(built, dimension, scenario)]),
  )
  const repetitions = [...Array(resolved.repetitions).keys()]
  const collected: Collected = {
    samples: new Map(applicable.map((dimension) => [dimension, []])),
    refusals: new Map(applicable.map((dimension) => [dimension, []])),
    usage: [],
  }
  const failures: unknown[] = []
  const tasks =
    resolved.backend === 'decisions'
      ? decisionsRounds(shown, repetitions, settings, collected)
      : responsesJudgments(shown, repetitions, settings, collected)
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
    evidence: built,
  }
}

/** What each applicable dimension is shown, in applicability order. */
type ShownEvidence = ReadonlyMap<SemanticDimension, Readonly<Record<string, unknown>>>

/** What the judgments produced so far, filled as they settle. */
interface Collected {
  samples: Map<SemanticDimension, JudgeSample[]>
  refusals: Map<SemanticDimension, string[]>
  usage: JudgeUsageEvent[]
}

/** One Responses judgment per dimension and repetition. */
function responsesJudgments(
  shown: ShownEvidence,
  repetitions: readonly number[],
  settings: JudgeBackendSettings,
  collected: Collected,
): Promise<void>[] {
  return [...shown].flatMap(([dimension, evidence]) => {
    const judge = responsesJudge(dimension, settings)
    return repetitions.map(async (repetition) => {
      const judged = await judge.judge({ evidence, repetition, signal: settings.call.signal })
      collected.usage.push(judged.usage)
      collected.samples.get(dimension)?.push(judged.sample)
    })
  })
}

/**
 * One Decisions request per repetition and per distinct evidence: a single-turn scenario shows every dimension the
 * same evidence (one request answers them all); a simulated call shows task_understanding its own (without the
 * SOP), so it is asked apart from the others.
 */
function decisionsRounds(
  shown: ShownEvidence,
  repetitions: readonly number[],
  settings: JudgeBackendSettings,
  collected: Collected,
): Promise<void>[] {
  const groups = new Map<Readonly<Record<string, unknown>>, SemanticDimension[]>()
  for (const [dimension, evidence] of shown)
    groups.set(evidence, [...(groups.get(evidence) ?? []), dimension])
  return repetitions.flatMap((repetition) =>
    [...groups].map(async ([evidence, dimensions]) => {
      const round = await judgeWithDecisions(dimensions, evidence, repetition, settings)
      collected.usage.push(round.usage)
      for (const dimension of dimensions) {
        const result = round.results[dimension]
        if (result === undefined) continue
        if ('refusal' in result) collected.refusals.get(dimension)?.push(result.refusal)
        else collected.samples.get(dimension)?.push(result.sample)
      }
    }),
  )
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
