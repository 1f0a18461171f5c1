import type { ServerEvent } from 'openai/resources/live/live'
import { describe, expect, it } from 'vitest'
import { CallerBackendWatch } from './validity.ts'

const created = (id: string, target: 'client' | 'responses'): ServerEvent => ({
  type: 'session.delegation.created',
  event_id: `event_${id}`,
  offset_ms: 1_000,
  delegation: { id, type: 'delegation', target },
})

const nested = (delegationId: string, type: string, usage?: object): ServerEvent =>
  ({
    type: 'response.event',
    event_id: `event_${delegationId}_${type}`,
    delegation_id: delegationId,
    event: {
      type,
      response: { id: `resp_${delegationId}`, status: type.slice(9), ...(usage ? { usage } : {}) },
    },
  }) as ServerEvent

const usage = { input_tokens: 30, output_tokens: 8, total_tokens: 38 }

describe('CallerBackendWatch', () => {
  it('a caller that thinks with its own backend and finishes is valid, its usage kept and its ids counted once', () => {
    const watch = new CallerBackendWatch(true)
    watch.observe(created('d1', 'responses'))
    watch.observe(created('d1', 'responses'))
    expect(watch.working).toBe(true)
    watch.observe(nested('d1', 'response.created'))
    watch.observe(nested('d1', 'response.completed', usage))
    expect(watch.working).toBe(false)
    expect(watch.validity()).toEqual({
      scope: 'caller_responses_delegation',
      status: 'valid',
      target_metrics_eligible: true,
      reason: null,
      unexpected_delegation_count: 0,
      delegation_ids: ['d1'],
    })
    expect(watch.usage).toEqual([usage])
  })

  it('a client delegation, or any delegation without a configured backend, is unsupported', () => {
    const configured = new CallerBackendWatch(true)
    configured.observe(created('d1', 'client'))
    expect(configured.validity()).toMatchObject({
      status: 'invalid',
      reason: 'unsupported_caller_delegation',
    })
    const frontendOnly = new CallerBackendWatch(false)
    frontendOnly.observe(created('d2', 'responses'))
    expect(frontendOnly.validity()).toMatchObject({
      scope: 'frontend_only_caller_delegation',
      reason: 'unsupported_caller_delegation',
      unexpected_delegation_count: 1,
      target_metrics_eligible: false,
    })
  })

  it('a failed or incomplete backend response is caller_backend_failed', () => {
    for (const ending of ['response.failed', 'response.incomplete']) {
      const watch = new CallerBackendWatch(true)
      watch.observe(created('d1', 'responses'))
      watch.observe(nested('d1', ending))
      expect(watch.validity()).toMatchObject({ status: 'invalid', reason: 'caller_backend_failed' })
    }
  })

  it('reasoning still pending at the end is caller_backend_pending; a cancelled response is settled', () => {
    const pending = new CallerBackendWatch(true)
    pending.observe(created('d1', 'responses'))
    pending.observe(nested('d1', 'response.created'))
    expect(pending.validity()).toMatchObject({ status: 'invalid', reason: 'caller_backend_pending' })
    const cancelled = new CallerBackendWatch(true)
    cancelled.observe(created('d1', 'responses'))
    cancelled.observe(nested('d1', 'response.cancelled'))
    expect(cancelled.validity().status).toBe('valid')
  })
})
