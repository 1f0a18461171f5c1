// Setup file of the unit project, which runs its files with `isolate: false` (vitest.config.ts): a worker process
// takes file after file and keeps Node's module cache, so openai, zod, ws and Vitest itself load once per worker
// instead of once per file. What must not carry from one file to the next is our own code's module state (caches,
// the shared frame schedule, rate limiters) and a file's `vi.mock` of one of our modules, which would not apply to
// a module an earlier file already loaded. So before each file imports anything, the module runner forgets every
// module it evaluated: the file gets fresh copies of ours, while the externalised packages stay loaded. Proved by
// src/testing/fresh-modules/fresh-modules.test.ts.
import { vi } from 'vitest'

vi.resetModules()
