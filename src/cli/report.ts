// `live-evals report <run-dir>...`: write the HTML report of each run (report.html in its folder, with a timeline
// image beside each scenario's WAVs); given several runs, also one comparison page.

import { join } from 'node:path'
import { loadPriceTable } from '../config/prices.ts'
import { explainedRunOf } from '../explain/explain-folder.ts'
import { REPORT_FILE_NAME } from '../report/report-file.ts'
import { writeComparisonReport, writeRunReport } from '../report/write-report.ts'
import { type CommandIO, EXIT_USAGE, startCommand } from './command-start.ts'

const USAGE = `Usage: live-evals report <run-dir>... [--out <comparison.html>] [--reference-model <id>] [--prices <file.json>]

Writes <run-dir>/report.html for each run: a self-contained page (no network) with the pass rate and its
interval, metrics with P50/P90/P95 and n, latency by turn kind, a filterable table and, per scenario, audio
players, a clickable timeline, checks with evidence, the state difference and semantic scores.
With several runs it also writes a comparison page (default: comparison.html beside the first run). Runs of
several GPT-Live models (a LIVE_EVALS_MODELS run) get the model comparison: each metric's delta with its 95%
interval, the scenarios that changed verdict, and cost per scenario and model (--prices replaces the built-in
price table; --reference-model names the model the others are compared with, default gpt-live-1 when present, else the
first run's). --out, --prices and --reference-model need two or more runs: with one run folder they are refused;
--prices and --reference-model are said to be unused when every run is of one model.
An explain folder (<run-id>-explained_<time>/, written by live-evals explain beside the run) is not a run: it
is skipped with a line naming the run it explains, whose report.html shows its findings.
Exits 2 if a run folder has no readable results.json, or --out names a file in a missing folder.
`

interface ReportArguments {
  runDirectories: string[]
  out: string | undefined
  pricesFile: string | undefined
  referenceModel: string | null
}

function parseArguments(argv: readonly string[]): ReportArguments | string {
  const parsed: ReportArguments = {
    runDirectories: [],
    out: undefined,
    pricesFile: undefined,
    referenceModel: null,
  }
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (argument === '--out' || argument === '--prices' || argument === '--reference-model') {
      const value = argv[++index]
      if (value === undefined || value.startsWith('-') || value === '') return `${argument} needs a value`
      if (argument === '--out') parsed.out = value
      else if (argument === '--prices') parsed.pricesFile = value
      else parsed.referenceModel = value
    } else if (argument.startsWith('-')) return `unknown option ${argument}`
    else parsed.runDirectories.push(argument)
  }
  if (parsed.runDirectories.length === 0) return 'name at least one run folder, <run-dir>'
  // One run has no comparison page: its report is always <run-dir>/report.html (its audio links are relative to
  // the run folder), and it has no models to price or compare. An option it would ignore is refused by name.
  const comparisonOnly = [
    ['--out', parsed.out],
    ['--prices', parsed.pricesFile],
    ['--reference-model', parsed.referenceModel],
  ].find(([, value]) => value !== undefined && value !== null)
  if (parsed.runDirectories.length === 1 && comparisonOnly !== undefined) {
    return (
      `${comparisonOnly[0]} applies to a comparison of two or more runs; with one run folder the report is ` +
      `${join(parsed.runDirectories[0] as string, REPORT_FILE_NAME)} (drop ${comparisonOnly[0]}, or name the ` +
      'other runs to compare)'
    )
  }
  return parsed
}

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const args = startCommand(argv, io, { name: 'report', usage: USAGE, parse: parseArguments })
  if (typeof args === 'number') return args
  const { out, pricesFile, referenceModel } = args
  // Decision: a loop over `results/crawl/*/` meets explain folders beside the runs; each costs one line and exit 0
  // (it is not a run with a missing results.json), and the runs named beside it are reported as if it were absent.
  const runDirectories: string[] = []
  for (const directory of args.runDirectories) {
    const explained = await explainedRunOf(directory)
    if (explained === null) runDirectories.push(directory)
    else
      io.out(
        `skipped ${directory}: an explain folder of run ${explained}, not a run (its findings are in that run's ${REPORT_FILE_NAME})\n`,
      )
  }
  try {
    if (runDirectories.length === 0) return 0
    if (runDirectories.length === 1) {
      io.out(`${await writeRunReport(runDirectories[0] as string)}\n`)
      return 0
    }
    const prices = pricesFile === undefined ? undefined : await loadPriceTable(pricesFile)
    const modelOptions = [
      pricesFile === undefined ? null : '--prices',
      referenceModel === null ? null : '--reference-model',
    ].filter((option) => option !== null)
    const comparison = await writeComparisonReport(runDirectories, {
      ...(out === undefined ? {} : { outFile: out }),
      ...(prices === undefined ? {} : { prices }),
      referenceModel,
      onOneModel: (model) => {
        if (modelOptions.length === 0) return
        io.err(
          `live-evals report: ${modelOptions.join(' and ')} not used: they apply to runs of several GPT-Live ` +
            `models, and every run here is of ${model} (the page compares the runs side by side)\n`,
        )
      },
    })
    io.out(`comparison of ${runDirectories.length} runs: ${comparison}\n`)
    return 0
  } catch (error) {
    // A GateInputError (no readable results.json) already names the file; anything else is said as it is.
    const reason = error instanceof Error ? error.message : String(error)
    io.err(`live-evals report: ${reason}\n`)
    return EXIT_USAGE
  }
}
