import { describe, expect, test } from 'vitest'
import { DelegationLifecycle, DelegationLifecycleError, untilAborted } from './delegation-lifecycle.ts'

/** A task the test finishes by hand. */
function gate() {
  let open!: () => void
  let fail!: (error: Error) => void
  const opened = new Promise<void>((resolve, reject) => {
    open = resolve
    fail = reject
  })
  return { opened, open, fail }
}

const settledState = async (promise: Promise<unknown>) => {
  const marker = Symbol('pending')
  // Two macrotask turns let every chained microtask run first.
  const timeout = new Promise((resolve) => setImmediate(() => setImmediate(() => resolve(marker))))
  const result = await Promise.race([
    promise.then(
      () => 'resolved',
      () => 'rejected',
    ),
    timeout,
  ])
  return result === marker ? 'pending' : result
}

describe('DelegationLifecycle', () => {
  test('counts a task as pending from acceptance until it finishes', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    const work = gate()
    expect(lifecycle.track('call_1', () => work.opened)).toBe(true)
    expect(lifecycle.pending).toBe(1)
    const waiting = lifecycle.wait()
    expect(await settledState(waiting)).toBe('pending')
    work.open()
    await waiting
    expect(lifecycle.pending).toBe(0)
  })

  test('wait() resolves at once when nothing is pending', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    expect(await settledState(lifecycle.wait())).toBe('resolved')
  })

  test('wait() rejects with the retained error of a failed task, now and later', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    const work = gate()
    const other = gate()
    lifecycle.track('call_1', () => work.opened)
    lifecycle.track('call_2', () => other.opened)
    const waiting = lifecycle.wait()
    work.fail(new Error('executor crashed'))
    // Rejects while call_2 is still pending: a failure does not wait for the rest.
    await expect(waiting).rejects.toThrow(/test delegation: call_1 failed: executor crashed/)
    expect(lifecycle.error).toBeInstanceOf(DelegationLifecycleError)
    other.open()
    await expect(lifecycle.wait()).rejects.toBe(lifecycle.error)
  })

  test('the first retained error wins', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    const first = new Error('first')
    lifecycle.fail(first)
    lifecycle.fail(new Error('second'))
    await expect(lifecycle.wait()).rejects.toBe(first)
  })

  test('cancelling a waiter rejects that wait only and does not cancel the work', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    const work = gate()
    let taskSignal: AbortSignal | undefined
    let finished = false
    lifecycle.track('call_1', async (signal) => {
      taskSignal = signal
      await work.opened
      finished = true
    })
    const waiter = new AbortController()
    const cancelled = lifecycle.wait({ signal: waiter.signal })
    const patient = lifecycle.wait()
    waiter.abort(new Error('turn deadline'))
    await expect(cancelled).rejects.toThrow('turn deadline')
    expect(taskSignal?.aborted).toBe(false)
    expect(lifecycle.pending).toBe(1)
    work.open()
    await patient
    expect(finished).toBe(true)
  })

  test('an already aborted waiter signal rejects without waiting', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    const reason = new Error('gone')
    await expect(lifecycle.wait({ signal: AbortSignal.abort(reason) })).rejects.toBe(reason)
  })

  test('close() stops acceptance, aborts and joins the tasks, and wakes waiters', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    let joined = false
    lifecycle.track('call_1', async (signal) => {
      await new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }))
      await new Promise((resolve) => setImmediate(resolve))
      joined = true
      throw signal.reason
    })
    const waiting = lifecycle.wait()
    await lifecycle.close()
    expect(joined).toBe(true)
    expect(lifecycle.pending).toBe(0)
    expect(lifecycle.closed).toBe(true)
    // Work cut short by close is reported (its result was never published), not swallowed.
    await expect(waiting).rejects.toMatchObject({ kind: 'closed_with_pending_work' })
    expect(lifecycle.track('call_2', async () => {})).toBe(false)
    expect(lifecycle.pending).toBe(0)
  })

  test('close() is idempotent and never rejects; a quiet close leaves wait() resolving', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    lifecycle.track('call_1', async () => {})
    await lifecycle.wait()
    const first = lifecycle.close()
    expect(lifecycle.close()).toBe(first)
    await first
    expect(lifecycle.error).toBeNull()
    expect(await settledState(lifecycle.wait())).toBe('resolved')
  })

  test('a task that fails because close() aborted it is not a second error', async () => {
    const lifecycle = new DelegationLifecycle('test delegation')
    const work = gate()
    lifecycle.track('call_1', async (signal) => {
      signal.addEventListener('abort', () => work.fail(new Error('aborted by close')))
      await work.opened
    })
    await lifecycle.close()
    expect(lifecycle.error).toMatchObject({ kind: 'closed_with_pending_work' })
  })
})

describe('untilAborted', () => {
  test('settles like the work while the signal stays quiet', async () => {
    await expect(untilAborted(Promise.resolve('done'), new AbortController().signal)).resolves.toBe('done')
    await expect(
      untilAborted(Promise.reject(new Error('broke')), new AbortController().signal),
    ).rejects.toThrow('broke')
  })

  test('rejects with the reason as soon as the signal aborts, though the work never ends', async () => {
    const controller = new AbortController()
    const waiting = untilAborted(new Promise<never>(() => {}), controller.signal)
    expect(await settledState(waiting)).toBe('pending')
    const reason = new Error('closing')
    controller.abort(reason)
    await expect(waiting).rejects.toBe(reason)
    await expect(untilAborted(Promise.resolve(1), controller.signal)).rejects.toBe(reason)
  })
})
