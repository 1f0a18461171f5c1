// The contract fuzzer at scale: the same mutated datasets as src/scenarios/contract-fuzz.test.ts, 100,000 of
// them by default (one seed, so a run is repeatable). Prints how many loaded, how many were refused, the
// crashes (must be 0; the first one is printed with its seed and path to replay), and the time per input.
// Run: npx node bench/contract-fuzz.ts [runs] [seed]
import { loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import fc from 'fast-check'
import {
  type FuzzOutcome,
  fuzzedBytes,
  fuzzedDataset,
  fuzzOutcome,
} from '../src/scenarios/fixtures/contract-fuzz.ts'

const runs = Number(process.argv[2] ?? 100_000)
const seed = Number(process.argv[3] ?? 20260901)
const outcomes: Record<FuzzOutcome, number> = { loaded: 0, refused: 0 }
let bytesLoaded = 0

const loadBefore = loadavg()[0] ?? 0
const started = performance.now()
const result = fc.check(
  fc.property(fuzzedDataset, (input) => {
    const bytes = fuzzedBytes(input)
    bytesLoaded += bytes.length
    outcomes[fuzzOutcome(bytes)]++
  }),
  { seed, numRuns: runs, endOnFailure: true },
)
const elapsedMs = performance.now() - started

const crashes = result.failed ? 1 : 0
console.log(`contract fuzzer: ${result.numRuns} inputs, seed ${seed}`)
console.log(`  loaded   ${outcomes.loaded}`)
console.log(`  refused  ${outcomes.refused}`)
console.log(`  crashes  ${crashes}${result.failed ? ' (the run stops at the first)' : ''}`)
console.log(
  `  ${(elapsedMs / 1000).toFixed(1)} s wall, ${(elapsedMs / result.numRuns).toFixed(2)} ms per input, ` +
    `${(bytesLoaded / 1024 / 1024).toFixed(0)} MiB of dataset text, load average ${loadBefore.toFixed(1)} -> ${(loadavg()[0] ?? 0).toFixed(1)}`,
)
if (result.failed) {
  console.log(`  first crash: ${String(result.errorInstance)}`)
  console.log(`  replay with seed ${result.seed}, path ${result.counterexamplePath}`)
  process.exitCode = 1
}
