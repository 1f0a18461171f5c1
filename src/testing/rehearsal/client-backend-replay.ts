// The client-delegation backend of a live run, answered in rehearsal: the application's OpenAI reference backend
// sends the whole conversation it owns (store: false) on every request, so each request is answered by replaying
// that conversation through the client copy's own offline backend (OfflineApplicationBackend, the one an offline
// run uses): earlier delegations with the tool outputs the request carries, then the latest one up to its next
// step. A tool the offline backend calls whose output the request does not carry yet becomes the response's
// function call; once the output is there, its answer becomes the response's message. Nothing is kept between
// requests, so concurrent scenarios and retried requests cannot disturb each other.

import {
  type ApplicationToolCallback,
  DELEGATED_TASK,
  type DelegationHandoff,
  NO_NEW_TRANSCRIPT,
} from '../../assistants/client/backend/application-backend.ts'
import type { OfflineApplicationBackend } from '../../assistants/client/backend/offline-backend.ts'
import type { JsonObject } from '../../assistants/offline-behaviour.ts'
import type { ScriptedResponse } from '../responses-server/responses-route.ts'

/** One delegation in the request: its handoff, then the tool outputs it was given, in call order. */
interface ReplayedRun {
  handoff: DelegationHandoff
  outputs: JsonObject[]
}

/** The offline backend asked for a tool the request has no output for yet: that is the response. */
class ToolCallNeeded {
  readonly call: { name: string; arguments: JsonObject; callId: string }
  constructor(call: ToolCallNeeded['call']) {
    this.call = call
  }
}

/**
 * The next response of the backend for `input` (the request's item list), from a fresh offline backend made by
 * `backendFor` over the replay's tool callback, or a string saying why the input is not a conversation this
 * backend could have had.
 */
export async function replayClientBackend(
  backendFor: (callTool: ApplicationToolCallback) => OfflineApplicationBackend,
  input: readonly Record<string, unknown>[],
): Promise<ScriptedResponse | string> {
  const runs = parseRuns(input)
  if (typeof runs === 'string') return runs
  const latest = runs.at(-1)
  if (latest === undefined) return 'the input holds no user message with a delegation handoff'
  // Each call takes the next output its run was given, or stops the replay there.
  let outputs: JsonObject[] = []
  const backend = backendFor(async (name, args, callId) => {
    const output = outputs.shift()
    if (output === undefined) throw new ToolCallNeeded({ name, arguments: args, callId })
    return output
  })
  let answer = ''
  try {
    for (const run of runs) {
      outputs = [...run.outputs]
      try {
        answer = await backend.run(run.handoff, () => {})
      } catch (error) {
        if (!(error instanceof ToolCallNeeded)) throw error
        if (run !== latest) return 'an earlier delegation in the input lacks the output of a tool it called'
        const { name, arguments: args, callId } = error.call
        return { output: [{ type: 'function_call', name, arguments: JSON.stringify(args), call_id: callId }] }
      }
    }
  } finally {
    await backend.close()
  }
  return { output: [{ type: 'message', text: answer }] }
}

function parseRuns(input: readonly Record<string, unknown>[]): ReplayedRun[] | string {
  const runs: ReplayedRun[] = []
  for (const [index, item] of input.entries()) {
    if (item.type === 'message' && item.role === 'user') {
      const text = inputText(item.content)
      const handoff = text === null ? null : parseHandoffPrompt(text)
      if (handoff === null) return `input[${index}] is a user message that is not a delegation handoff`
      runs.push({ handoff, outputs: [] })
    } else if (item.type === 'function_call_output') {
      const run = runs.at(-1)
      if (run === undefined) return `input[${index}] is a function_call_output before any handoff`
      const output = parseObject(item.output)
      if (output === null) return `input[${index}].output is not a JSON object`
      run.outputs.push(output)
    }
  }
  return runs
}

function inputText(content: unknown): string | null {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return null
  const texts = content.flatMap((part) =>
    typeof part === 'object' && part !== null && (part as { type?: unknown }).type === 'input_text'
      ? [String((part as { text?: unknown }).text ?? '')]
      : [],
  )
  return texts.length === 0 ? null : texts.join('')
}

const PROMPT =
  /^Voice conversation (so far|since the previous delegation), rendered as timestamped SRT:\n\n([\s\S]*)\n\nDelegated-work instructions:\n([\s\S]+)$/

/** The handoff a prompt was made from (the inverse of handoffPrompt), or null for any other text. */
export function parseHandoffPrompt(prompt: string): DelegationHandoff | null {
  const match = PROMPT.exec(prompt)
  if (match === null) return null
  const [, span, transcript = '', task = DELEGATED_TASK] = match
  return {
    task,
    transcript_srt: transcript === NO_NEW_TRANSCRIPT ? '' : transcript,
    follow_up: span === 'since the previous delegation',
  }
}

function parseObject(value: unknown): JsonObject | null {
  if (typeof value !== 'string') return null
  try {
    const parsed: unknown = JSON.parse(value)
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)
      ? (parsed as JsonObject)
      : null
  } catch {
    return null
  }
}
