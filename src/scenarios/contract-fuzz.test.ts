import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  FUZZ_FILE,
  type FuzzOutcome,
  fuzzedBytes,
  fuzzedDataset,
  fuzzOutcome,
} from './fixtures/contract-fuzz.ts'
import { DatasetValidationError, type DatasetViolation } from './violations.ts'

// Property: no dataset file crashes the loader. Seeded, so every CI run checks the same inputs and a failure
// reproduces; bench/contract-fuzz.ts runs the same fuzzer over a hundred thousand inputs.
const RUNS = 2000
const SEED = 20260901

describe('contract fuzzer', () => {
  // Bounded work (each input is at most a few hundred kilobytes); the timeout only covers a loaded machine.
  it(`loads or cleanly refuses each of ${RUNS} mutated datasets`, { timeout: 120_000 }, () => {
    const outcomes: Record<FuzzOutcome, number> = { loaded: 0, refused: 0 }
    fc.assert(
      fc.property(fuzzedDataset, (input) => {
        outcomes[fuzzOutcome(fuzzedBytes(input))]++
      }),
      { seed: SEED, numRuns: RUNS },
    )
    expect(outcomes.loaded + outcomes.refused).toBe(RUNS)
    // Both sides are exercised: mutations that keep a dataset valid, and ones that break it.
    expect(outcomes.loaded).toBeGreaterThan(RUNS * 0.02)
    expect(outcomes.refused).toBeGreaterThan(RUNS * 0.5)
  })

  it('counts as a crash anything but a load or a well-formed refusal', () => {
    const bytes = Buffer.from('{"schema_version": "1.0", "scenarios": []}')
    expect(fuzzOutcome(bytes)).toBe('loaded')
    const refusing = (violations: DatasetViolation[]) => () => {
      throw new DatasetValidationError(violations)
    }
    const violation = { file: FUZZ_FILE, path: '', message: 'bad' }
    expect(fuzzOutcome(bytes, refusing([violation]))).toBe('refused')
    expect(() => fuzzOutcome(bytes, refusing([]))).toThrow('a refusal without violations')
    expect(() => fuzzOutcome(bytes, refusing([{ ...violation, message: 'two\nlines' }]))).toThrow(
      'a malformed violation message',
    )
    expect(() => fuzzOutcome(bytes, refusing([{ ...violation, file: 'other.json' }]))).toThrow(
      'names another file',
    )
    const overflowing = () => {
      throw new RangeError('Maximum call stack size exceeded')
    }
    expect(() => fuzzOutcome(bytes, overflowing)).toThrow(RangeError)
  })
})
