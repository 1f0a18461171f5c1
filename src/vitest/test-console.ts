// Console output that shows under the test it belongs to. Vitest puts a worker's console output under the test the
// worker holds as current, which is the test that started last: under test.concurrent (execution.concurrency > 1)
// that is often another scenario's test, so a verbose transcript printed by one scenario showed under another's
// header (and `--silent=passed-only` or an `onConsoleLog` filter judged it by the wrong test). Vitest reads the
// current test when its console stream is written, which console.log does synchronously; so the test is made current
// for that one write and the previous one put back, with nothing else able to run in between.
// The current test is Vitest's worker state (`globalThis.__vitest_worker__.current`, read by its console in
// vitest/dist/chunks/console.*.js), not a public API: test-console.test.ts checks the attribution against the
// pinned Vitest, and where the state is missing (outside a Vitest worker) the text is printed as it is.
import type { RunnerTask } from 'vitest'

interface WorkerState {
  current?: RunnerTask | undefined
}

function workerState(): WorkerState | null {
  const state: unknown = Reflect.get(globalThis, '__vitest_worker__')
  return typeof state === 'object' && state !== null ? (state as WorkerState) : null
}

/** Prints `text` as `test`'s own console output, whichever test of the worker started last. */
export function printUnderTest(test: RunnerTask, text: string): void {
  const state = workerState()
  if (state === null) {
    console.log(text)
    return
  }
  const previous = state.current
  state.current = test
  try {
    console.log(text)
  } finally {
    state.current = previous
  }
}
