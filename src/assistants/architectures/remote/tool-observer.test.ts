// The read-only tool observer (contract §4): state and records come only from the service's events.
import { describe, expect, it } from 'vitest'
import { ToolRuntime } from '../../runtime/tool-runtime.ts'
import { REMOTE_EXECUTION_MESSAGE, RemoteToolObserver } from './tool-observer.ts'

const record = (callId: string | null, name = 'check_availability') => ({
  call_id: callId,
  name,
  arguments: { party_size: 2 },
  status: 'completed',
  output: { ok: true },
})

describe('RemoteToolObserver', () => {
  it('replaces its state with each object application_state and ignores anything else', () => {
    const observer = new RemoteToolObserver([], { before: 1 })
    observer.observe({ type: 'tool.completed', application_state: { after: 2 } })
    observer.observe({ type: 'x', application_state: 'not an object' })
    observer.observe({ type: 'x', application_state: [1, 2] })
    expect(observer.snapshot()).toEqual({ after: 2 })
    expect(observer.initialState).toEqual({ before: 1 })
  })

  it('appends execution records, once per non-empty call_id', () => {
    const observer = new RemoteToolObserver([], {})
    observer.observe({ type: 'tool.completed', tool_execution: record('call_1') })
    observer.observe({ type: 'tool.completed', tool_execution: record('call_1') })
    observer.observe({ type: 'tool.failed', tool_execution: record(null) })
    observer.observe({ type: 'tool.failed', tool_execution: record(null) })
    observer.observe({ type: 'tool.completed', tool_execution: record('') })
    observer.observe({ type: 'tool.completed', tool_execution: record('') })
    expect(observer.executions.map((execution) => execution.call_id)).toEqual(['call_1', null, null, '', ''])
  })

  it('refuses a tool_execution that is not an execution record', () => {
    const observer = new RemoteToolObserver([], {})
    expect(() => observer.observe({ type: 'tool.completed', tool_execution: { name: 1 } })).toThrow(
      'tool_execution is not an execution record',
    )
  })

  it('never executes a tool, directly or through a runtime', async () => {
    const observer = new RemoteToolObserver([], {})
    expect(() => observer.execute()).toThrow(REMOTE_EXECUTION_MESSAGE)
    const runtime = new ToolRuntime(observer)
    await expect(runtime.run({ callId: 'c', name: 'check_availability', arguments: {} })).rejects.toThrow(
      REMOTE_EXECUTION_MESSAGE,
    )
  })

  it('hands out copies: nothing a reader changes reaches the evidence', () => {
    const observer = new RemoteToolObserver([], { list: [1] })
    observer.observe({
      type: 'tool.completed',
      tool_execution: record('c1'),
      application_state: { list: [2] },
    })
    observer.snapshot().list = []
    ;(observer.executions[0] as { name: string }).name = 'changed'
    expect(observer.snapshot()).toEqual({ list: [2] })
    expect(observer.executions[0]?.name).toBe('check_availability')
  })

  it("takes the service's ready state as the initial state", () => {
    const observer = new RemoteToolObserver([], { scenario: 1 })
    observer.started({ service: 1 })
    expect(observer.initialState).toEqual({ service: 1 })
    expect(observer.snapshot()).toEqual({ service: 1 })
    expect(observer.initialStateSource).toBe('service')
  })
})
