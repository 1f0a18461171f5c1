// printUnderTest puts console output under its own test while another test of the worker is the one Vitest holds as
// current (two concurrent tests, the second started last), as two scenarios of a RUN with execution.concurrency 2
// are. What is checked is what the worker sends the main process (`onUserConsoleLog` and its taskId), from which
// the reporters print the `stdout | <file> > <test>` header.
import { describe, expect, it, type RunnerTask, type UserConsoleLog } from 'vitest'
import { printUnderTest } from './test-console.ts'

interface WorkerRpc {
  onUserConsoleLog(log: UserConsoleLog): Promise<void>
}

/** The logs the worker sends while `body` runs (its console sends them a microtask after the write). */
async function sentLogs(body: () => void): Promise<UserConsoleLog[]> {
  const state = Reflect.get(globalThis, '__vitest_worker__') as { rpc: WorkerRpc }
  const rpc = state.rpc
  const sent: UserConsoleLog[] = []
  state.rpc = new Proxy(rpc, {
    get(target, key) {
      if (key !== 'onUserConsoleLog') return Reflect.get(target, key)
      // Kept from the reporters: the unit run's output is not the place for these lines.
      return async (log: UserConsoleLog) => {
        sent.push(log)
      }
    },
  })
  try {
    body()
    await new Promise((resolve) => setImmediate(resolve))
  } finally {
    state.rpc = rpc
  }
  return sent
}

let secondStarted: () => void = () => {}
const second = new Promise<void>((resolve) => {
  secondStarted = resolve
})
let firstPrinted: () => void = () => {}
const first = new Promise<void>((resolve) => {
  firstPrinted = resolve
})
const tasks = new Map<string, RunnerTask>()

describe.concurrent('console output of concurrent tests', () => {
  it('the first test', async ({ task }) => {
    tasks.set('first', task)
    try {
      await second
      const plain = await sentLogs(() => console.log('── plain console.log of the first test'))
      const own = await sentLogs(() => printUnderTest(task, '── run_refill_hours'))
      const secondTest = tasks.get('second')
      // What the defect was: Vitest puts a plain console.log under the test that started last.
      expect(plain.map((log) => log.taskId)).toEqual([secondTest?.id])
      expect(own.map((log) => [log.taskId, log.content])).toEqual([[task.id, '── run_refill_hours\n']])
      // Printing did not change which test Vitest holds as current.
      const after = await sentLogs(() => console.log('after'))
      expect(after.map((log) => log.taskId)).toEqual([secondTest?.id])
    } finally {
      firstPrinted()
    }
  })

  it('the second test', async ({ task }) => {
    tasks.set('second', task)
    secondStarted()
    await first
  })
})
