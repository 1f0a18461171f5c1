// Builders for RUN grading tests: a conversation as transcript lines and executions on one timeline.

import type { ToolExecution } from '../../observability/observation.ts'
import { ExpectedOutcomeSchema, ProcedureSchema, type SopStep } from '../../scenarios/expected.ts'
import type { ProcedureEvidenceInput } from './step-evidence.ts'

export const caller = (start_ms: number, text: string) => ({ role: 'user' as const, text, start_ms })
export const assistant = (start_ms: number, text: string) => ({ role: 'assistant' as const, text, start_ms })

let callCounter = 0
export function executed(
  name: string,
  args: Record<string, unknown>,
  completed_at_ms: number,
  status: ToolExecution['status'] = 'completed',
): ToolExecution {
  callCounter += 1
  return { call_id: `call_${callCounter}`, name, arguments: args, status, output: {}, completed_at_ms }
}

export const procedureOf = (steps: readonly Partial<SopStep>[]) =>
  ProcedureSchema.parse({ id: 'sop_test', steps: steps.map((step, index) => ({ id: `s${index}`, ...step })) })

export const expectedOf = (raw: Record<string, unknown>) =>
  ExpectedOutcomeSchema.parse({ answer: 'n/a', ...raw })

export function evidenceInput(overrides: Partial<ProcedureEvidenceInput> = {}): ProcedureEvidenceInput {
  return {
    executions: [],
    transcript: [],
    initial_application_state: { reservations: [], authorized_reservation_ids: [] },
    final_application_state: { reservations: [], authorized_reservation_ids: [] },
    ...overrides,
  }
}

export const BOOKING = { guest_name: 'Patel', date: '2026-08-08', time: '19:00', party_size: 4 }
