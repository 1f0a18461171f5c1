// Whether a scenario's fault profile can be injected where it runs. The harness injects only on paths it owns:
// the tool runtime and the backend of in-process architectures, Responses delegation's backend model offline
// (our offline server plays it), and the line between the caller and the assistant. A rule it cannot carry out
// refuses the scenario at input_setup, naming the rule and why, instead of running a clean call a reader would
// take for one under faults.

import { type FaultProfile, faultPlane } from '../config/fault-profiles.ts'
import type { Phase } from '../config/schema.ts'
import { CALLER_SIDE_TRANSPORT } from './scenario-profile.ts'

export interface FaultReach {
  /** The architecture's name and the planes it lets the harness reach in this mode (besides the transport). */
  architecture: string
  planes: readonly string[]
  /** The architecture's own word on why a plane is out of reach (a remote client assistant's), if any. */
  note?: string | undefined
  mode: 'offline' | 'live'
  phase: Phase
}

function whyNot(plane: string, reach: FaultReach): string {
  if (reach.note !== undefined) return reach.note
  if (plane === 'backend' && reach.architecture === 'responses' && reach.mode === 'live') {
    return 'live, GPT-Live calls the Responses backend model itself; only the offline run (where our offline server plays that model) can make it fail or stall'
  }
  return `the ${reach.architecture} architecture does not let the harness inject ${plane} faults in ${reach.mode} mode`
}

/** Why the profile cannot run here, one line per rule it cannot carry out; empty when every rule can. */
export function unreachableFaultRules(profile: FaultProfile, reach: FaultReach): string[] {
  const problems: string[] = []
  for (const [index, rule] of profile.rules.entries()) {
    const plane = faultPlane(rule.kind)
    const label = `rule ${index + 1} (${rule.kind})`
    if (plane === 'transport') {
      if (reach.phase !== 'run' && (CALLER_SIDE_TRANSPORT as readonly string[]).includes(rule.kind)) {
        problems.push(
          `${label}: a single-turn phase (${reach.phase.toUpperCase()}) has no caller listening to the assistant; use it in RUN`,
        )
      }
      continue
    }
    if (!reach.planes.includes(plane)) problems.push(`${label}: ${whyNot(plane, reach)}`)
  }
  return problems
}

/** The input_setup message for a profile that cannot run here, or null. */
export function faultReachProblem(profile: FaultProfile, reach: FaultReach): string | null {
  const problems = unreachableFaultRules(profile, reach)
  if (problems.length === 0) return null
  return (
    `Fault profile "${profile.name}" cannot be injected in this run (${reach.architecture} architecture, ${reach.mode}): ` +
    `${problems.join('; ')}. Choose another profile, or set execution.faults = "none" (LIVE_EVALS_FAULTS=none).`
  )
}
