// `live-evals gate`: judge one or more results.json files against thresholds and an approved baseline, with an
// exit code CI can trust: 0 pass, 1 a named threshold or regression failed, 2 bad input, 3 inconclusive.

import { access } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { appendNamedFile, writeNamedFile } from '../artifacts/named-file.ts'
import { DEFAULT_PRICES, loadPriceTable, type PriceTable } from '../config/prices.ts'
import { compareModels } from '../gate/compare-models.ts'
import { GateInputError } from '../gate/errors.ts'
import { DEFAULT_GATE_OPTIONS, evaluateGate, GATE_EXIT_CODES, type GateOptions } from '../gate/evaluate.ts'
import { loadGateFile } from '../gate/load.ts'
import { gateMarkdown } from '../gate/markdown.ts'
import { type MetricThreshold, parseMetricThreshold } from '../gate/metric-thresholds.ts'
import { type ModelGateOptions, modelChecks, withModelChecks } from '../gate/model-checks.ts'
import { modelComparisonLines } from '../gate/model-comparison-text.ts'
import { REPORT_FILE_NAME } from '../report/report-file.ts'
import { type CommandIO, startCommand } from './command-start.ts'
import { byGroup, type FinishedRun, finishedRuns, runToJudge } from './run-selection.ts'

const USAGE = `Usage: live-evals gate <results.json>... [--baseline <results.json>...] [options]
       live-evals gate --latest <results-dir> [--baseline <results.json>...] [options]

Judges the rows of the results files (keyed by phase, architecture, scenario id and trial) and exits
0 pass, 1 a threshold or regression failed (named), 2 bad input, 3 inconclusive.
Infrastructure errors, missing baseline rows, missing required scenarios and duplicate rows always fail.

Options:
  --latest <results-dir>      judge the newest finished run of each phase and architecture in that folder
                              (results/crawl keeps every run, so a glob over it names old runs too); newer
                              runs that were interrupted, killed or filtered (-t, a spec file) are skipped
                              and named, unless --allow-partial; a newest run whose spec file failed to
                              load is taken and refused (exit 2), unless --allow-partial
  --allow-partial             judge interrupted, partial or filtered results instead of refusing them
  --baseline <results.json>...
                              approved baseline files: every argument up to the next option (so name
                              the results files first); see approve-baseline
  --min-pass-rate <0..1>      lowest pass rate; with repeated trials judged on its 95% Wilson interval
                              (inconclusive when the interval contains it)
  --pass-rate-interval        judge the pass rate on its interval even when every scenario ran once
  --max-p95-latency-ms <N>    highest P95 response latency over responses
  --max-metric <name>=<N>     highest mean of a row metric over the rows that measured it (repeatable;
                              e.g. stop_time_ms=800, entity_errors=0); inconclusive when none measured it
  --min-metric <name>=<N>     lowest mean of a row metric (e.g. backchannel_selectivity=1); the names are
                              the README's metric table (live-evals gate --max-metric x=1 lists them)
  --required <id,...>         scenarios that must be present and pass in every trial
  --no-regressions            fail when a row that passed in the baseline does not pass now
  --no-thresholds             judge only the checks that always apply (infrastructure errors, duplicate
                              rows): without it, a gate given none of the checks above is refused
  --summary <file>            write the Markdown summary there (default: append to $GITHUB_STEP_SUMMARY when set)

Comparing models (files of several models, e.g. a LIVE_EVALS_MODELS run; rows pair by phase, architecture,
scenario id and trial, and each model is compared with the reference):
  --compare-models            print each metric's delta with its 95% interval, the changed verdicts and the cost
  --reference-model <id>      the model the others are compared with (default: gpt-live-1 when
                              present, else the first file's)
  --max-pass-rate-drop <0..1> fail when a model's pass rate falls more than this below the reference's
  --max-p95-latency-increase-ms <N>
                              fail when a model's P95 response latency rises more than N ms over the reference's
                              (with --pass-rate-interval or repeated trials, both judge the delta's interval)
  --prices <file.json>        a price table replacing the built-in one (read_on, currency, sources,
                              voice_per_minute, tokens_per_million: see the README's "Comparing models")
`

interface ModelsCommand extends ModelGateOptions {
  compare: boolean
  reference: string | null
  prices: string | null
}

interface GateCommand {
  models: ModelsCommand
  files: string[]
  /** Results folders whose newest run per phase and architecture is judged (`--latest`). */
  latest: string[]
  baselines: string[]
  summary: string | null
  options: GateOptions
}

function numberOption(flag: string, text: string | undefined, min: number, max: number): number {
  const value = text === undefined || text.trim() === '' ? Number.NaN : Number(text)
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new GateInputError(flag, `needs a number from ${min} to ${max} (got ${text ?? 'nothing'})`)
  }
  return value
}

const UNBOUNDED = Number.MAX_SAFE_INTEGER

/** The options that take a number: the range it must fall in and where it goes. */
const NUMBER_OPTIONS: Readonly<
  Record<string, { min: number; max: number; set: (command: GateCommand, value: number) => void }>
> = {
  '--min-pass-rate': { min: 0, max: 1, set: (command, value) => (command.options.minPassRate = value) },
  '--max-p95-latency-ms': {
    min: 0,
    max: UNBOUNDED,
    set: (command, value) => (command.options.maxP95LatencyMs = value),
  },
  '--max-pass-rate-drop': {
    min: 0,
    max: 1,
    set: (command, value) => (command.models.maxPassRateDrop = value),
  },
  '--max-p95-latency-increase-ms': {
    min: 0,
    max: UNBOUNDED,
    set: (command, value) => (command.models.maxP95LatencyIncreaseMs = value),
  },
}

/**
 * The options that give the gate something to judge beyond the checks that always apply. Decision: a gate with
 * none of them is refused (exit 2), since it would pass a run whatever its rows' verdicts (4/6 passed read as
 * `gate pass`); `--no-thresholds` says that is meant. A baseline counts (its rows missing now fail), and so does
 * `--compare-models`, which is asked for by name and prints the comparison.
 */
const CHECK_OPTIONS = [
  '--min-pass-rate',
  '--max-p95-latency-ms',
  '--max-metric',
  '--min-metric',
  '--required',
  '--baseline',
  '--no-regressions',
  '--compare-models',
] as const

/** The options that only mean something when models are compared, in the order a refusal names them. */
const MODEL_OPTIONS = ['--max-pass-rate-drop', '--max-p95-latency-increase-ms', '--reference-model'] as const

export function parseGateArguments(argv: readonly string[]): GateCommand {
  const command: GateCommand = {
    files: [],
    latest: [],
    baselines: [],
    summary: null,
    options: { ...DEFAULT_GATE_OPTIONS },
    models: {
      compare: false,
      reference: null,
      prices: null,
      maxPassRateDrop: null,
      maxP95LatencyIncreaseMs: null,
      useInterval: false,
    },
  }
  const required: string[] = []
  const metricThresholds: MetricThreshold[] = []
  const given = new Set<string>()
  let noThresholds = false
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (argument.startsWith('-')) given.add(argument)
    const value = () => {
      const next = argv[++index]
      if (next === undefined || next.startsWith('--')) throw new GateInputError(argument, 'needs a value')
      return next
    }
    const numeric = Object.hasOwn(NUMBER_OPTIONS, argument) ? NUMBER_OPTIONS[argument] : undefined
    if (numeric !== undefined) {
      numeric.set(command, numberOption(argument, value(), numeric.min, numeric.max))
      continue
    }
    switch (argument) {
      case '--baseline':
        // Every argument up to the next option is a baseline file, as in `gate a.json --baseline b.json c.json`.
        command.baselines.push(value())
        while (index + 1 < argv.length && !(argv[index + 1] as string).startsWith('-')) {
          command.baselines.push(argv[++index] as string)
        }
        break
      case '--latest':
        command.latest.push(value())
        break
      case '--max-metric':
      case '--min-metric':
        metricThresholds.push(parseMetricThreshold(argument, value()))
        break
      case '--required':
        required.push(
          ...value()
            .split(',')
            .map((id) => id.trim())
            .filter((id) => id !== ''),
        )
        break
      case '--no-regressions':
        command.options.noRegressions = true
        break
      case '--allow-partial':
        command.options.allowPartial = true
        break
      case '--no-thresholds':
        noThresholds = true
        break
      case '--pass-rate-interval':
        command.options.passRateInterval = true
        break
      case '--summary':
        command.summary = value()
        break
      case '--compare-models':
        command.models.compare = true
        break
      case '--reference-model':
        command.models.reference = value()
        break
      case '--prices':
        command.models.prices = value()
        break
      default:
        if (argument.startsWith('-'))
          throw new GateInputError(argument, 'is not an option of live-evals gate')
        command.files.push(argument)
    }
  }
  if (command.files.length === 0 && command.latest.length === 0)
    throw new GateInputError('<results.json>', 'name at least one results.json (or --latest <results-dir>)')
  if (command.options.noRegressions && command.baselines.length === 0) {
    throw new GateInputError('--no-regressions', 'needs a --baseline to compare with')
  }
  command.options.required = required
  command.options.metricThresholds = metricThresholds
  const modelFlag = MODEL_OPTIONS.find((flag) => given.has(flag))
  if (modelFlag !== undefined && !command.models.compare) {
    throw new GateInputError(modelFlag, 'compares models: add --compare-models')
  }
  command.models.useInterval = command.options.passRateInterval
  if (!noThresholds && !CHECK_OPTIONS.some((flag) => given.has(flag))) {
    throw new GateInputError(
      '<threshold>',
      `nothing to check: name a threshold (${CHECK_OPTIONS.join(', ')}), or --no-thresholds to judge only ` +
        'infrastructure errors and duplicate rows',
    )
  }
  return command
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path)
    return true
  } catch {
    return false
  }
}

/**
 * Per folder, the run of each phase and architecture that `--latest` judges: the newest finished run. Passed over,
 * each named with the reason: a run that never finished (interrupted, killed, a journal without its end line) and a
 * filtered run (a deliberate part: `-t`, a file filter), so neither stands in for the run CI means to judge. Taken
 * and then refused (exit 2) unless --allow-partial: a finished run that is incomplete because a spec file failed to
 * load (`completion` `spec_files_failed`), never an older whole run behind it. With --allow-partial the newest run
 * is taken, as it is. A folder, or a group in it, without one is bad input.
 */
async function latestResultsFiles(
  folders: readonly string[],
  allowPartial: boolean,
  io: CommandIO,
): Promise<string[]> {
  const files: string[] = []
  for (const folder of folders) {
    let groups: Map<string, FinishedRun[]>
    try {
      groups = byGroup(await finishedRuns(folder))
    } catch (error) {
      throw new GateInputError('--latest', `cannot read ${folder}: ${(error as Error).message}`)
    }
    if (groups.size === 0)
      throw new GateInputError('--latest', `${folder} holds no finished run (no results.json)`)
    for (const group of [...groups.keys()].sort()) {
      const chosen = await runToJudge(groups.get(group) as FinishedRun[], allowPartial, (run, partial) =>
        io.out(`skipped ${run.group}: ${run.resultsFile}: ${partial}\n`),
      )
      if (chosen === null) {
        throw new GateInputError(
          '--latest',
          `${folder} holds no complete, unfiltered run of ${group} (each is named above with why it was skipped); ` +
            'run the whole project again, or pass --allow-partial to judge the newest',
        )
      }
      io.out(`latest ${group}: ${chosen.resultsFile}\n`)
      files.push(chosen.resultsFile)
    }
  }
  return files
}

/** The built-in price table, or the file `--prices` names (bad input when it cannot be read). */
async function pricesFor(file: string | null): Promise<PriceTable> {
  if (file === null) return DEFAULT_PRICES
  try {
    return await loadPriceTable(file)
  } catch (error) {
    throw new GateInputError('--prices', (error as Error).message)
  }
}

/** The HTML report beside each results file, linked relative to where the summary is written. */
async function reportLinks(
  files: readonly string[],
  summaryPath: string | null,
): Promise<Map<string, string>> {
  const links = new Map<string, string>()
  for (const file of files) {
    const html = join(dirname(resolve(file)), REPORT_FILE_NAME)
    if (!(await exists(html))) continue
    links.set(file, summaryPath === null ? html : relative(dirname(resolve(summaryPath)), html))
  }
  return links
}

/** parseGateArguments for startCommand: a refused command line is its reason, naming the option. */
function parseCommandLine(argv: readonly string[]): GateCommand | string {
  try {
    return parseGateArguments(argv)
  } catch (error) {
    if (error instanceof GateInputError) return error.message
    throw error
  }
}

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const command = startCommand(argv, io, { name: 'gate', usage: USAGE, parse: parseCommandLine })
  if (typeof command === 'number') return command
  try {
    command.files.push(...(await latestResultsFiles(command.latest, command.options.allowPartial, io)))
    const files = await Promise.all(command.files.map(loadGateFile))
    const baselines = await Promise.all(command.baselines.map(loadGateFile))
    let report = evaluateGate(files, baselines, command.options)
    if (command.models.compare) {
      const prices = await pricesFor(command.models.prices)
      const comparison = compareModels(files, { reference: command.models.reference, prices })
      for (const line of modelComparisonLines(comparison)) io.out(`${line}\n`)
      const useInterval = command.models.useInterval || report.repeated_trials
      report = withModelChecks(report, modelChecks(comparison, { ...command.models, useInterval }))
    }
    for (const check of report.checks) io.out(`${check.outcome.padEnd(12)} ${check.name}: ${check.message}\n`)
    const rate = report.pass_rate
    io.out(
      `gate ${report.outcome}: ${rate.successes}/${rate.n} rows passed; ` +
        `${report.checks.filter((check) => check.outcome === 'fail').length} check(s) failed.\n`,
    )
    const stepSummary = process.env.GITHUB_STEP_SUMMARY
    const destination =
      command.summary ?? (stepSummary === undefined || stepSummary === '' ? null : stepSummary)
    if (destination !== null) {
      const markdown = gateMarkdown(report, { reports: await reportLinks(command.files, destination) })
      // A step summary is shared by the job's steps, so it is appended to; a named file is ours to replace.
      if (command.summary === null) await appendNamedFile(destination, markdown)
      else await writeNamedFile(destination, markdown)
      io.out(`summary written to ${destination}\n`)
    }
    return GATE_EXIT_CODES[report.outcome]
  } catch (error) {
    if (error instanceof GateInputError) {
      // Reading a named file failed: its line says what to fix (the usage is for a wrong command line).
      io.err(`live-evals gate: ${error.message}\n`)
      return GATE_EXIT_CODES.bad_input
    }
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error)
    io.err(`live-evals gate: ${reason}\n`)
    return GATE_EXIT_CODES.bad_input
  }
}
