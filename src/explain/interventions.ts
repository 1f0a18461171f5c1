// The interventions `explain` can make, one change each, and when each applies to a failed row. An intervention
// is data (ArmChange) that rerun.ts carries out; here is only what it changes and why it does or does not apply,
// decided from what the row recorded (its audio, delegations, tool executions, scheduled barge-ins). Those that
// do not apply are reported with their reason, never silently left out.
import { TOOL_FAULT_KINDS } from '../config/fault-profiles.ts'
import type { ScenarioFaultProfile } from '../faults/scenario-profile.ts'
import type { LoadedScenario } from '../scenarios/index.ts'
import type { FailureClass, InterventionId, Measure } from './schema.ts'
import { classOfIntervention } from './taxonomy.ts'

/** What a failed row recorded that decides which interventions apply (row-facts.ts). */
export interface RowFacts {
  phase: 'crawl' | 'walk' | 'run'
  mode: 'offline' | 'live'
  /**
   * Live WALK and RUN with `replay.caller`: the caller is the recorded one, streamed from its cassette into the live
   * assistant; what the caller says and how it sounds cannot be changed then.
   */
  callerReplayed: string | null
  /** With `replay.caller_tools = "cassette"`: the tools answer with the recording's outputs, not the application. */
  toolsFromCassette: boolean
  /** Whether the assistant delegated at least once; null when unknown. */
  delegated: boolean | null
  /** WALK: the recording's acoustic condition. */
  recordingCondition: string | null
  /** WALK: the clean recording of the same request (a sibling scenario), or why there is none. */
  cleanSibling: { scenario: LoadedScenario } | { missing: string } | null
  /** RUN: the acoustic preset on the caller's voice (simulation.condition). */
  callerCondition: string | null
  /** RUN: the scheduled barge-ins of this scenario that the caller said. */
  bargeInsSaid: string[]
  /** RUN: the scheduled barge-ins of this scenario (said or not). */
  bargeInsScheduled: string[]
  /** Tool executions whose result a fault altered (RESULT_FAULT_KINDS). */
  faultedResults: number
  /** The fault profile the row ran under, with the seed it recorded; null when it ran clean. */
  faults: ScenarioFaultProfile | null
  /** The kinds of fault injected into the row (tool, backend and transport planes), in the order recorded. */
  faultKinds: string[]
}

/** The tool faults that change what the model is told a call returned (a `slow` one only delays the real result). */
export const RESULT_FAULT_KINDS: ReadonlySet<string> = new Set(
  TOOL_FAULT_KINDS.filter((kind) => kind !== 'slow'),
)

/** The one change an arm makes to the re-run. */
export type ArmChange =
  | { kind: 'scenario'; scenario: LoadedScenario }
  | { kind: 'caller_condition'; condition: 'clean' }
  | { kind: 'text_caller' }
  | { kind: 'remove_barge_in'; id: string }
  | { kind: 'delegation'; policy: 'suppress' | 'force' }
  | { kind: 'faults'; off: 'results' | 'all' }

export interface ArmPlan {
  /** The arm's name in the explain folder and document (`clean_audio`, `remove_barge_in-cut`). */
  arm: string
  intervention: InterventionId
  label: string
  target: string | null
  change: ArmChange
  /** How its re-runs are judged: the fault arms on whether the run's failure is gone (schema.ts MEASURES). */
  measure: Measure
  /** The class it names when decisive. */
  class: FailureClass
}

type Applicability = { arms: ArmPlan[] } | { reason: string }

const one = (
  intervention: InterventionId,
  label: string,
  change: ArmChange,
  failureClass: FailureClass = classOfIntervention(intervention),
): Applicability => ({
  arms: [
    {
      arm: intervention,
      intervention,
      label,
      target: null,
      change,
      measure: change.kind === 'faults' ? 'failure_resolved' : 'verdict',
      class: failureClass,
    },
  ],
})

const TRANSPORT_FAULTS = new Set(['stream_cut', 'jitter', 'uplink_loss'])

/**
 * What turning the whole profile off says, from the faults it removed: a tool or backend fault, backend fault
 * handling; only the line's, a lost piece of the caller's speech (uplink_loss) is a hearing failure, and a cut or
 * stalled assistant stream (stream_cut, jitter) one of turn-taking.
 */
function profileOffClass(kinds: readonly string[]): FailureClass {
  if (kinds.some((kind) => !TRANSPORT_FAULTS.has(kind))) return 'backend_fault_handling'
  return kinds.includes('uplink_loss') ? 'mishearing' : 'turn_taking'
}

/** The interventions that change the caller, which a replayed caller (`replay.caller`) does not let change. */
const CALLER_SIDE: ReadonlySet<InterventionId> = new Set(['clean_audio', 'text_for_audio', 'remove_barge_in'])
/** The interventions that change what the tools answer, which recorded tool outputs do not let change. */
const TOOL_SIDE: ReadonlySet<InterventionId> = new Set(['correct_tool_result', 'faults_off'])

const CATALOGUE: Record<InterventionId, (facts: RowFacts) => Applicability> = {
  clean_audio(facts) {
    if (facts.phase === 'crawl')
      return { reason: 'the request is synthetic speech: no acoustic preset to remove' }
    if (facts.phase === 'run') {
      if (facts.callerCondition === null || facts.callerCondition === 'clean') {
        return { reason: 'the call ran with no acoustic preset on the caller (simulation.condition = clean)' }
      }
      return one('clean_audio', `the caller's clean audio (no ${facts.callerCondition} preset)`, {
        kind: 'caller_condition',
        condition: 'clean',
      })
    }
    if (facts.recordingCondition === 'clean') return { reason: 'the recording is already the clean one' }
    const sibling = facts.cleanSibling
    if (sibling === null || 'missing' in sibling) {
      return {
        reason: sibling?.missing ?? 'the recording names no source request to find its clean recording by',
      }
    }
    return one('clean_audio', `the caller's clean recording (${sibling.scenario.id})`, {
      kind: 'scenario',
      scenario: sibling.scenario,
    })
  },
  text_for_audio(facts) {
    if (facts.phase === 'crawl') {
      return {
        reason:
          facts.mode === 'offline'
            ? 'offline, a CRAWL request is already heard exactly as its text'
            : 'a CRAWL request is already the text spoken by text-to-speech',
      }
    }
    if (facts.phase === 'run') {
      return {
        reason: "a simulated call's caller speaks its own lines: there is no one recording to replace",
      }
    }
    return one(
      'text_for_audio',
      facts.mode === 'offline'
        ? "the scenario's text instead of its recording (a perfect hearing)"
        : "the scenario's text spoken by text-to-speech instead of its recording",
      { kind: 'text_caller' },
    )
  },
  remove_barge_in(facts) {
    if (facts.phase !== 'run') return { reason: 'scheduled barge-ins exist only in simulated calls (RUN)' }
    if (facts.bargeInsScheduled.length === 0) return { reason: 'no barge-in was scheduled for this scenario' }
    if (facts.bargeInsSaid.length === 0) return { reason: 'no scheduled barge-in was said in the call' }
    return {
      arms: facts.bargeInsSaid.map((id) => ({
        arm: `remove_barge_in-${id}`,
        intervention: 'remove_barge_in' as const,
        label: `the scheduled barge-in "${id}" removed`,
        target: id,
        change: { kind: 'remove_barge_in' as const, id },
        measure: 'verdict' as const,
        class: classOfIntervention('remove_barge_in'),
      })),
    }
  },
  suppress_delegation(facts) {
    if (facts.delegated !== true) return { reason: 'the assistant did not delegate' }
    return one('suppress_delegation', 'delegation suppressed (the assistant answers itself)', {
      kind: 'delegation',
      policy: 'suppress',
    })
  },
  force_delegation(facts) {
    if (facts.delegated !== false) return { reason: 'the assistant delegated' }
    if (facts.mode === 'offline') {
      return {
        reason:
          'offline, the scripted behaviour decides delegation and the tool together: where it calls no tool there is nothing to delegate',
      }
    }
    return one('force_delegation', 'delegation forced (the assistant is told to delegate)', {
      kind: 'delegation',
      policy: 'force',
    })
  },
  correct_tool_result(facts) {
    if (facts.faultedResults === 0) return { reason: 'no tool result of the row was altered by a fault' }
    return one('correct_tool_result', "the faulted tool results replaced with the application's real ones", {
      kind: 'faults',
      off: 'results',
    })
  },
  faults_off(facts) {
    if (facts.faults === null) return { reason: 'the row ran with no fault profile' }
    const name = facts.faults.profile.name
    if (facts.faultKinds.length === 0) return { reason: `the profile ${name} injected no fault in the row` }
    return one(
      'faults_off',
      `the fault profile ${name} off`,
      { kind: 'faults', off: 'all' },
      profileOffClass(facts.faultKinds),
    )
  },
}

/** The arms to run for a row, in the catalogue's order, and the interventions that do not apply with why. */
export function applicableArms(
  facts: RowFacts,
  ids: readonly InterventionId[],
): { arms: ArmPlan[]; notApplicable: { intervention: InterventionId; reason: string }[] } {
  const arms: ArmPlan[] = []
  const notApplicable: { intervention: InterventionId; reason: string }[] = []
  for (const id of ids) {
    if (facts.callerReplayed !== null && CALLER_SIDE.has(id)) {
      notApplicable.push({
        intervention: id,
        reason: `the caller is the recording in ${facts.callerReplayed} (replay.caller), which this change cannot alter; explain without replay.caller for a new caller`,
      })
      continue
    }
    if (facts.toolsFromCassette && TOOL_SIDE.has(id)) {
      notApplicable.push({
        intervention: id,
        reason:
          'the tools answer with the recording’s outputs (replay.caller_tools = "cassette"), which this change cannot alter',
      })
      continue
    }
    const result = CATALOGUE[id](facts)
    if ('reason' in result) notApplicable.push({ intervention: id, reason: result.reason })
    else arms.push(...result.arms)
  }
  return { arms, notApplicable }
}
