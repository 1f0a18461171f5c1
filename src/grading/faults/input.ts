// What the caller-experience checks read (issue 22): the transcript, the tool executions with their injected
// faults, the row's fault record, when work was pending and who could be heard, the states, and the scenario's
// own expectation. Every phase fills it from its observation; the checks are pure functions of it.
import type { FaultsRecord } from '../../faults/events.ts'
import type { CallerExperience } from '../../faults/experience.ts'
import type { ToolExecution } from '../../observability/observation.ts'

export interface FaultCheckInput {
  transcript: readonly { role: 'user' | 'assistant'; text: string; start_ms: number | null }[]
  executions: readonly Pick<
    ToolExecution,
    'call_id' | 'name' | 'status' | 'output' | 'completed_at_ms' | 'fault'
  >[]
  initial_application_state: unknown
  final_application_state: unknown
  /** Absent or null: the row ran clean. */
  faults?: FaultsRecord | null | undefined
  /** Absent or null: an observation from before it was recorded (the timing checks are then not assessed). */
  experience?: CallerExperience | null | undefined
  /** The scenario is tagged `expects_verification`. */
  expects_verification: boolean
  /** grading.max_dead_air_ms. */
  max_dead_air_ms: number
}
