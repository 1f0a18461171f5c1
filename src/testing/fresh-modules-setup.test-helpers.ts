// Setup file of the unit project, which runs its files with `isolate: false` (vitest.config.ts): a worker process
// takes file after file and keeps Node's module cache, so openai, zod, ws and Vitest itself load once per worker
// instead of once per file. What must not carry from one file to the next:
// - our own code's module state (caches, the shared frame schedule, rate limiters), and a file's `vi.mock` of one
//   of our modules, which would not apply to a module an earlier file already loaded. So before each file imports
//   anything, the module runner forgets every module it evaluated: the file gets fresh copies of ours, while the
//   externalised packages stay loaded;
// - what the file left on the process that the end of its own process used to clear: signal listeners (a run
//   folder's interrupt handler is installed once per copy of its module, and each file has its own copy) and
//   environment variables. Both are put back as the file found them once its own hooks have run.
// Proved by src/testing/fresh-modules.test.ts.
import { afterAll, vi } from 'vitest'

vi.resetModules()

// SIGINT and SIGTERM: the ones our run folders listen to. SIGHUP: the other signal that ends a run from outside,
// and the one the fresh-modules check leaves a listener on (a listener on SIGTERM left behind by a broken setup
// would keep the child worker from ending when Vitest stops it).
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const
const listenersBefore = new Map(SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]))
const environmentBefore = { ...process.env }

// Setup files' hooks are registered first, so with Vitest's default stacked hooks this runs after the file's own.
afterAll(() => {
  for (const signal of SIGNALS) {
    const before = listenersBefore.get(signal)
    for (const listener of process.listeners(signal)) {
      if (!before?.has(listener)) process.removeListener(signal, listener)
    }
  }
  for (const name of Object.keys(process.env)) if (!(name in environmentBefore)) delete process.env[name]
  Object.assign(process.env, environmentBefore)
})
