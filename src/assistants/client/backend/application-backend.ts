// The provider-neutral contract between the client-delegation controller and whatever does the delegated
// work (an OpenAI Responses model, a deterministic offline stand-in, any other agent). GPT-Live's client
// delegations carry no task text, so the controller hands the backend the conversation itself: the new
// part of the timestamped transcript, plus a fixed instruction to resolve the caller's current request.
import { z } from 'zod'
import type { JsonObject } from '../../offline-behaviour.ts'

/** What every client delegation asks for: GPT-Live v3 delegations name no task, so the task is always this. */
export const DELEGATED_TASK =
  'Resolve the current user request and corrections from the voice conversation and verified application context.'

/** Written in the prompt when the transcript has nothing new since the previous delegation. */
export const NO_NEW_TRANSCRIPT = '(No additional transcript has arrived.)'

export const delegationHandoffSchema = z.strictObject({
  task: z.string().min(1),
  /** The transcript the backend has not seen yet, as SRT; empty when nothing new arrived. */
  transcript_srt: z.string(),
  /** True from the second delegation of a conversation on: the SRT then continues the earlier one. */
  follow_up: z.boolean().default(false),
})
export type DelegationHandoff = z.infer<typeof delegationHandoffSchema>

/** The handoff as one prompt for a text model. */
export function handoffPrompt(handoff: DelegationHandoff): string {
  const span = handoff.follow_up ? 'since the previous delegation' : 'so far'
  const transcript = handoff.transcript_srt.trim() === '' ? NO_NEW_TRANSCRIPT : handoff.transcript_srt
  return [
    `Voice conversation ${span}, rendered as timestamped SRT:`,
    '',
    transcript,
    '',
    'Delegated-work instructions:',
    handoff.task,
  ].join('\n')
}

/** An observation the backend publishes while it works (stream events, tool calls); never sent to Live. */
export type ObservationEvent = { type: string } & JsonObject

export type EmitObservation = (event: ObservationEvent) => void

/**
 * How a backend reaches the application's tools. The host wires it to its own executor; the promise
 * resolves with the tool's output object (a refused call resolves with `{ok: false, error}`).
 */
export type ApplicationToolCallback = (name: string, args: JsonObject, callId: string) => Promise<JsonObject>

export interface BackendRunOptions {
  /** Aborted when the controller cancels the delegation (close, deadline); a backend should stop early. */
  signal?: AbortSignal
}

export interface ApplicationBackend {
  /** Does the delegated work and returns the answer the voice model should relay to the caller. */
  run(handoff: DelegationHandoff, emit: EmitObservation, options?: BackendRunOptions): Promise<string>
  /** Called exactly once, when the controller closes. */
  close(): Promise<void>
}
