// gate, report, results, validate and approve-baseline start like every other verb (command-start.ts): `--help`
// or `-h` prints the usage on stdout and exits 0, whatever else is on the line; a missing or wrong argument names
// it, repeats the usage on stderr and exits 2, before any file is read. Through main, as a user runs them.
import { describe, expect, test } from 'vitest'
import { captureIO } from './capture-io.ts'
import { EXIT_USAGE } from './command-start.ts'
import { main } from './main.ts'

/** Each verb with command lines it refuses and the reason it must give (naming the argument). */
const REFUSALS: Record<string, readonly (readonly [readonly string[], string])[]> = {
  gate: [
    [[], '<results.json>: name at least one results.json (or --latest <results-dir>)'],
    [['a.json', '--min-pass-rate', '90'], '--min-pass-rate: needs a number from 0 to 1 (got 90)'],
    [['a.json', '--frobnicate'], '--frobnicate: is not an option of live-evals gate'],
    [['a.json'], '<threshold>: nothing to check: name a threshold (--min-pass-rate, --max-p95-latency-ms,'],
  ],
  report: [
    [[], 'name at least one run folder, <run-dir>'],
    [['run-a', 'run-b', '--out'], '--out needs a value'],
    [['run-a', '--colour'], 'unknown option --colour'],
    [['run-a', '--out', 'c.html'], '--out applies to a comparison of two or more runs'],
  ],
  results: [
    [[], 'name exactly one run folder, <run-dir> (got none)'],
    [['run-a', 'run-b'], 'name exactly one run folder, <run-dir> (got 2)'],
    [['--force', 'run-a'], 'unknown option --force'],
  ],
  validate: [
    [[], 'name at least one dataset file, <dataset.json>'],
    [['--strict', 'a.json'], 'unknown option --strict'],
  ],
  'approve-baseline': [
    [[], 'name the results file to approve, <results.json>, and the baseline to write'],
    [['a.json'], 'name the baseline to write, <baseline.json>, after the results file'],
    [
      ['a.json', 'b.json', 'c.json'],
      'takes two files, <results.json> and <baseline.json> (got 3: a.json b.json c.json)',
    ],
    [['--force', 'a.json', 'b.json'], 'unknown option --force'],
  ],
}

describe.each(Object.keys(REFUSALS))('live-evals %s', (verb) => {
  const usageStart = `Usage: live-evals ${verb} `

  test('--help and -h print the usage and exit 0, even beside a wrong argument', async () => {
    for (const argv of [['--help'], ['-h'], ['--no-such-option', '--help']]) {
      const io = captureIO()
      expect(await main([verb, ...argv], io), argv.join(' ')).toBe(0)
      expect(io.stdout().startsWith(usageStart), io.stdout()).toBe(true)
      expect(io.stderr()).toBe('')
    }
  })

  test('a missing or wrong argument is named, with the usage, and exits 2', async () => {
    for (const [argv, reason] of REFUSALS[verb] ?? []) {
      const io = captureIO()
      expect(await main([verb, ...argv], io), argv.join(' ')).toBe(EXIT_USAGE)
      expect(io.stderr().startsWith(`live-evals ${verb}: ${reason}`), io.stderr()).toBe(true)
      expect(io.stderr()).toContain(`\n\n${usageStart}`)
      expect(io.stdout()).toBe('')
    }
  })
})
