// `live-evals explain <run-dir> [--scenario id] [--trials k] ...`: why each failed scenario of a run failed, by
// re-running it unchanged and under one intervention at a time (src/explain). The plan and its budget are printed
// before anything runs; Ctrl-C stops it and keeps what finished.
import { join } from 'node:path'
import { HarnessConfigError, type PhaseSettings } from '../config/index.ts'
import { loadPriceTable, type PriceTable } from '../config/prices.ts'
import { explainRun } from '../explain/explain-run.ts'
import { EXPLAIN_FILE, SUMMARY_FILE } from '../explain/schema.ts'
import { ExplainInputError } from '../explain/source-run.ts'
import { writeRunReport } from '../report/write-report.ts'
import { type CommandIO, startCommand } from './command-start.ts'

const USAGE = `Usage: live-evals explain <run-dir> [--scenario ID] [--trials K] [--max-reruns N] [--seed N]
                           [--vitest-config FILE] [--project NAME] [--config TOML] [--out DIR]
                           [--prices FILE]

Explains why the failed scenarios of a finished run failed. Each one is re-run unchanged (the control) and
with one intervention at a time, each K times: the caller's clean audio instead of the acoustic preset, the
scenario's text instead of its recording, a scheduled barge-in removed, delegation suppressed or forced, the
faulted tool results replaced with the real ones, the fault profile off (only those that apply). Per
intervention it reports the pass rate with its 95% interval and the shift against the unchanged re-run, names
the one that fixes the failure ("fixed by ... in 5/5: a hearing failure") and the failure class.
The re-runs go through your Vitest project, as \`npx vitest run\` does: the spec file that evaluated the
scenario runs it again with its assistant, tools and test body (run explain where the run was made).
An offline run is re-run offline (free); a live run is re-run live (new calls: the estimated cost is printed first).

  --scenario ID     only this scenario (it must have failed in the run)
  --trials K        re-runs per arm (default explain.trials, 5)
  --max-reruns N    stop before the scenario that would pass N re-runs (default explain.max_reruns, 100)
  --seed N          the seed the trials' draws come from (default explain.seed, 1): the same seed gives the
                    same explanation
  --vitest-config FILE  the Vitest config (default: Vitest's lookup from the working directory)
  --project NAME    the Vitest project (default: the phase's name, as liveEvalsProject names it)
  --config TOML     the phase's config.toml, for the settings results.json does not record (RUN's interventions
                    file, [explain]); the re-runs read it too (LIVE_EVALS_CONFIG). Default: the project's own
  --out DIR         where to create the explain folder (default: beside the run)
  --prices FILE     a price table for the live cost estimate (default: the built-in one)

Writes <run-id>-explained_<time>/explain.json and explain.md, and rewrites the run's report.html with a "Why it
failed" section. Exits 0 when done (also when the cap left scenarios unexplained: they are listed), 1 when the
run cannot be explained (no run folder, no failed rows, unknown scenario, bad settings), 2 on a bad command
line, 130 when interrupted (what finished is kept).
`

/** What a test may replace: the environment settings are read from, the clock, the stop signal. */
export interface ExplainDependencies {
  env?: Record<string, string | undefined>
  cwd?: string
  now?: Date
  signal?: AbortSignal
}

interface ExplainArguments {
  runDirectory: string
  scenario: string | null
  config: string | null
  vitestConfig: string | null
  project: string | null
  out: string | null
  prices: string | null
  explain: Partial<PhaseSettings['explain']>
}

/** The options that take a value, and the argument each fills. */
const VALUE_FLAGS = {
  '--scenario': 'scenario',
  '--config': 'config',
  '--vitest-config': 'vitestConfig',
  '--project': 'project',
  '--out': 'out',
  '--prices': 'prices',
} as const

const INTEGER_FLAGS = {
  '--trials': { key: 'trials', min: 1, what: 'an integer of 1 or more' },
  '--max-reruns': { key: 'max_reruns', min: 1, what: 'an integer of 1 or more' },
  '--seed': { key: 'seed', min: Number.MIN_SAFE_INTEGER, what: 'an integer' },
} as const

function parseArguments(argv: readonly string[]): ExplainArguments | string {
  const parsed: ExplainArguments = {
    runDirectory: '',
    scenario: null,
    config: null,
    vitestConfig: null,
    project: null,
    out: null,
    prices: null,
    explain: {},
  }
  const positional: string[] = []
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (Object.hasOwn(INTEGER_FLAGS, argument)) {
      const flag = INTEGER_FLAGS[argument as keyof typeof INTEGER_FLAGS]
      const value = argv[++index]
      const number = value === undefined || !/^-?\d+$/.test(value) ? Number.NaN : Number(value)
      if (!Number.isSafeInteger(number) || number < flag.min) {
        return `${argument} must be ${flag.what} (got ${value === undefined ? 'nothing' : JSON.stringify(value)})`
      }
      parsed.explain[flag.key] = number
    } else if (Object.hasOwn(VALUE_FLAGS, argument)) {
      const value = argv[++index]
      if (value === undefined || value.startsWith('-') || value === '') return `${argument} needs a value`
      parsed[VALUE_FLAGS[argument as keyof typeof VALUE_FLAGS]] = value
    } else if (argument.startsWith('-')) return `unknown option ${argument}`
    else positional.push(argument)
  }
  if (positional.length !== 1) return 'name exactly one run folder'
  parsed.runDirectory = positional[0] as string
  return parsed
}

/** Ctrl-C or SIGTERM aborts the returned signal once; the listeners go when `release` is called. */
function stopOnSignals(): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController()
  const stop = () => controller.abort()
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
  return {
    signal: controller.signal,
    release: () => {
      process.off('SIGINT', stop)
      process.off('SIGTERM', stop)
    },
  }
}

export async function explainCommand(
  argv: readonly string[],
  io: CommandIO,
  deps: ExplainDependencies = {},
): Promise<number> {
  const args = startCommand(argv, io, { name: 'explain', usage: USAGE, parse: parseArguments })
  if (typeof args === 'number') return args
  let prices: PriceTable | undefined
  if (args.prices !== null) {
    try {
      prices = await loadPriceTable(args.prices)
    } catch (error) {
      io.err(`live-evals explain: --prices: ${(error as Error).message}\n`)
      return 1
    }
  }
  const stopping = deps.signal === undefined ? stopOnSignals() : { signal: deps.signal, release: () => {} }
  try {
    const outcome = await explainRun({
      runDirectory: args.runDirectory,
      scenario: args.scenario,
      config: args.config,
      vitestConfig: args.vitestConfig,
      project: args.project,
      explain: args.explain,
      out: args.out,
      ...(prices === undefined ? {} : { prices }),
      ...(deps.env === undefined ? {} : { env: deps.env }),
      ...(deps.cwd === undefined ? {} : { cwd: deps.cwd }),
      ...(deps.now === undefined ? {} : { now: deps.now }),
      signal: stopping.signal,
      log: (line) => io.out(`${line}\n`),
    })
    const { document, directory } = outcome
    let report = ''
    try {
      report = `\nReport: ${await writeRunReport(document.run.directory)}`
    } catch (error) {
      report = `\n(the run's report.html was not rewritten: ${(error as Error).message})`
    }
    if (document.completion.ending !== 'complete') io.out(`${document.completion.message}\n`)
    io.out(
      `Explanation: ${join(directory, EXPLAIN_FILE)}\nSummary: ${join(directory, SUMMARY_FILE)}${report}\n`,
    )
    return document.completion.ending === 'interrupted' ? 130 : 0
  } catch (error) {
    if (error instanceof ExplainInputError || error instanceof HarnessConfigError) {
      io.err(`live-evals explain: ${error.message}\n`)
      return 1
    }
    throw error
  } finally {
    stopping.release()
  }
}

export function run(argv: readonly string[], io: CommandIO): Promise<number> {
  return explainCommand(argv, io)
}
