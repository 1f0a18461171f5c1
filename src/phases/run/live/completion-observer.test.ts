// The observer's rules on their own, with the model call a real structured request to a local HTTP server
// answering the openai SDK: when an assessment may start, and which answers count.
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type ScriptedOpenAi, startScriptedOpenAi } from '../../../models/models.test-helpers.ts'
import { structuredAnswer } from '../../../testing/responses-server/responses-route.ts'
import { CompletionObserver, type EvidenceMoment } from './completion-observer.ts'
import { callCompletionObserver, type ObserverInput } from './observer-call.ts'

let openai: ScriptedOpenAi
beforeEach(async () => {
  openai = await startScriptedOpenAi()
})
afterEach(async () => {
  await openai.server.close()
})

const resolved = { should_drain: true, outcome: 'resolved', reason: 'Booked.' } as const
const unresolved = { should_drain: false, outcome: 'unresolved', reason: 'Open.' } as const

const input: ObserverInput = {
  caller_goal: 'Book a table.',
  caller_expectations: [],
  required_caller_objectives: [],
  expected_application_state: { reservation_created: true },
  initial_application_state: {},
  observed_application_state: { reservation_created: true },
  expected_state_verified: true,
  delegation_forbidden: false,
  assistant_work_pending: false,
  completed_application_tools: [],
  conversation: [{ role: 'user', text: 'Thanks, bye.', end_ms: 9_000 }],
}

function moment(overrides: Partial<EvidenceMoment> = {}): EvidenceMoment {
  return {
    nowMs: 10_000,
    revision: 4,
    lastCallerSpeechMs: 9_000,
    lastAssistantSpeechMs: 8_000,
    current: true,
    callerUtterances: 2,
    assistantTurns: 1,
    delegationActive: false,
    expectsState: true,
    stateVerified: true,
    ...overrides,
  }
}

function observer() {
  return new CompletionObserver(async (given) => {
    const { decision } = await callCompletionObserver(
      { client: openai.client, model: 'gpt-5.6-terra', timeoutMs: 2_000, retry: { maxAttempts: 1 } },
      given,
    )
    return decision
  })
}

describe('CompletionObserver', () => {
  it('a resolved answer about unchanged evidence is a semantic_conversation_resolved signal', async () => {
    openai.responses.push(structuredAnswer(resolved))
    const watch = observer()
    await watch.consider(moment(), () => input)
    expect(watch.takeSignal(moment({ nowMs: 10_100 }))).toBe('semantic_conversation_resolved')
    expect(watch.records[0]).toMatchObject({ result: 'signal', started_ms: 10_000, applied_ms: 10_100 })
  })

  it('an answer that arrives after the evidence changed is stale and dropped', async () => {
    // The model answers slowly; meanwhile the caller says something new (new revision, later speech).
    openai.responses.push(structuredAnswer(resolved, { delayMs: 150 }))
    const watch = observer()
    const pending = watch.consider(moment(), () => input)
    expect(pending).not.toBeNull()
    expect(watch.busy).toBe(true)
    await pending
    expect(watch.takeSignal(moment({ nowMs: 11_000, revision: 5, lastCallerSpeechMs: 10_800 }))).toBeNull()
    expect(watch.records[0]?.result).toBe('stale')
    // So is one where only the latest assistant speech moved.
    openai.responses.push(structuredAnswer(resolved))
    await watch.consider(moment({ nowMs: 11_600, revision: 5 }), () => input)
    expect(watch.takeSignal(moment({ nowMs: 11_700, revision: 5, lastAssistantSpeechMs: 11_650 }))).toBeNull()
    expect(watch.records[1]?.result).toBe('stale')
  })

  it('a change of pending work alone (same revision, same speech) starts a new assessment', async () => {
    openai.responses.push(structuredAnswer(unresolved), structuredAnswer(resolved))
    const watch = observer()
    const working = moment({ delegationActive: true })
    await watch.consider(working, () => ({ ...input, assistant_work_pending: true }))
    expect(watch.takeSignal(working)).toBeNull()
    // The delegated work finished 600 ms later; nothing else changed. The observer is asked again at once.
    const settled = moment({ nowMs: 10_600 })
    const again = watch.consider(settled, () => input)
    expect(again).not.toBeNull()
    await again
    expect(watch.takeSignal(moment({ nowMs: 10_700 }))).toBe('semantic_conversation_resolved')
    expect(openai.server.requestsTo('POST', '/v1/responses')).toHaveLength(2)
  })

  it('waits for two caller utterances, one assistant turn and current evidence, and spaces starts 500 ms apart', async () => {
    openai.responses.push(structuredAnswer(unresolved), structuredAnswer(unresolved))
    const watch = observer()
    expect(watch.consider(moment({ callerUtterances: 1 }), () => input)).toBeNull()
    expect(watch.consider(moment({ assistantTurns: 0 }), () => input)).toBeNull()
    expect(watch.consider(moment({ current: false }), () => input)).toBeNull()
    await watch.consider(moment(), () => input)
    watch.takeSignal(moment())
    // Changed evidence, but only 400 ms later: not yet.
    expect(watch.consider(moment({ nowMs: 10_400, revision: 5 }), () => input)).toBeNull()
    await watch.consider(moment({ nowMs: 10_500, revision: 5 }), () => input)
    expect(watch.records.map((record) => record.started_ms)).toEqual([10_000, 10_500])
  })

  it('re-checks unchanged, unresolved evidence only after 5 s; unchanged resolved evidence never', async () => {
    openai.responses.push(structuredAnswer(unresolved), structuredAnswer(resolved))
    const watch = observer()
    await watch.consider(moment(), () => input)
    expect(watch.takeSignal(moment())).toBeNull()
    expect(watch.consider(moment({ nowMs: 14_900 }), () => input)).toBeNull()
    await watch.consider(moment({ nowMs: 15_000 }), () => input)
    expect(watch.takeSignal(moment({ nowMs: 15_000 }))).toBe('semantic_conversation_resolved')
    expect(watch.consider(moment({ nowMs: 30_000 }), () => input)).toBeNull()
    expect(openai.server.requestsTo('POST', '/v1/responses')).toHaveLength(2)
  })

  it('downgrades a drain while delegated work runs or while a stated expected state is not verified', async () => {
    openai.responses.push(
      structuredAnswer(resolved),
      structuredAnswer(resolved),
      structuredAnswer({ should_drain: true, outcome: 'refused', reason: 'Refused for good.' }),
    )
    const watch = observer()
    await watch.consider(moment(), () => input)
    expect(watch.takeSignal(moment({ delegationActive: true }))).toBeNull()
    await watch.consider(moment({ nowMs: 15_000 }), () => input)
    expect(watch.takeSignal(moment({ nowMs: 15_000, stateVerified: false }))).toBeNull()
    // A refusal needs no verified state.
    await watch.consider(moment({ nowMs: 20_000 }), () => input)
    expect(watch.takeSignal(moment({ nowMs: 20_000, stateVerified: false }))).toBe(
      'semantic_conversation_refused',
    )
    expect(watch.records.map((record) => record.result)).toEqual(['downgraded', 'downgraded', 'signal'])
  })

  it('the first error ends the observer for good (the fallback takes over); it is never asked again', async () => {
    openai.responses.push({ fault: 'malformed_json' }, structuredAnswer(resolved))
    const watch = observer()
    await watch.consider(moment(), () => input)
    expect(watch.failure).toContain('not JSON')
    expect(watch.records[0]?.result).toBe('error')
    expect(watch.consider(moment({ nowMs: 20_000, revision: 9 }), () => input)).toBeNull()
    expect(openai.server.requestsTo('POST', '/v1/responses')).toHaveLength(1)
  })

  it('a timeout is an error like any other', async () => {
    openai.responses.push({ fault: 'hang' })
    const watch = new CompletionObserver(async (given) => {
      const { decision } = await callCompletionObserver(
        { client: openai.client, model: 'gpt-5.6-terra', timeoutMs: 100, retry: { maxAttempts: 1 } },
        given,
      )
      return decision
    })
    await watch.consider(moment(), () => input)
    expect(watch.failure).toContain('timeout')
  })

  it('an answer still in flight when the call ends is abandoned, and nothing is asked after the close', async () => {
    openai.responses.push(structuredAnswer(resolved, { delayMs: 100 }))
    const watch = observer()
    const pending = watch.consider(moment(), () => input)
    watch.close()
    await pending
    expect(watch.records[0]?.result).toBe('abandoned')
    expect(watch.takeSignal(moment())).toBeNull()
    expect(watch.consider(moment({ nowMs: 20_000, revision: 9 }), () => input)).toBeNull()
    expect(watch.failure).toBeNull()
  })
})
