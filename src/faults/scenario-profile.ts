// Which fault profile one scenario runs under: the run's setting (execution.faults / LIVE_EVALS_FAULTS) when it
// names one, none when it is "none", else the scenario's own `fault_profile:<name>` tag (a bundled fault scenario
// says which condition it was written for). Evaluator-side: tags never reach the assistant.
import {
  type FaultProfile,
  faultProfile,
  NO_FAULTS,
  type TransportFaultKind,
} from '../config/fault-profiles.ts'
import type { FaultSource } from './events.ts'

/** The tag prefix a scenario names its own profile with. */
export const FAULT_PROFILE_TAG = 'fault_profile:'
/** The tag saying the scenario expects a verification call after an implausible result. */
export const EXPECTS_VERIFICATION_TAG = 'expects_verification'

export interface ScenarioFaultProfile {
  profile: FaultProfile
  source: FaultSource
}

/**
 * The profile of a scenario, or null when it runs clean. A tag naming an unknown profile, or two profile tags,
 * is the dataset's mistake: the error names the scenario, the tag and the known profiles.
 */
export function scenarioFaultProfile(
  scenario: { id: string; tags: readonly string[] },
  setting: string | null,
): ScenarioFaultProfile | null {
  const tagged = scenario.tags.filter((tag) => tag.startsWith(FAULT_PROFILE_TAG))
  if (tagged.length > 1) {
    throw new Error(
      `Scenario ${scenario.id}: tags name ${tagged.length} fault profiles (${tagged.join(', ')}); keep one ${FAULT_PROFILE_TAG}<name> tag`,
    )
  }
  const tag = tagged[0]
  const fromTag =
    tag === undefined
      ? null
      : faultProfile(tag.slice(FAULT_PROFILE_TAG.length), `Scenario ${scenario.id}: tag "${tag}"`)
  if (setting === NO_FAULTS) return null
  if (setting !== null) return { profile: faultProfile(setting), source: 'setting' }
  return fromTag === null ? null : { profile: fromTag, source: 'scenario' }
}

/**
 * The scenario's profile, or the problem with its tags as a message (for the engine to report at input_setup,
 * so one scenario's bad tag fails that scenario alone).
 */
export function scenarioFaultChoice(
  scenario: { id: string; tags: readonly string[] },
  setting: string | null,
): { faults: ScenarioFaultProfile | null; faultsProblem: string | null } {
  try {
    return { faults: scenarioFaultProfile(scenario, setting), faultsProblem: null }
  } catch (error) {
    return { faults: null, faultsProblem: (error as Error).message }
  }
}

export function expectsVerification(scenario: { tags: readonly string[] }): boolean {
  return scenario.tags.includes(EXPECTS_VERIFICATION_TAG)
}

/** Transport rules that need a caller who hears the assistant (RUN): a single-turn request has none. */
export const CALLER_SIDE_TRANSPORT: readonly TransportFaultKind[] = ['stream_cut', 'jitter']
