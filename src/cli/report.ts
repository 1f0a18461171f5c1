// `live-evals report <run-dir>...`: write the HTML report of each run (report.html in its folder, with a timeline
// image beside each scenario's WAVs); given several runs, also one comparison page.

import { join } from 'node:path'
import { loadPriceTable } from '../config/prices.ts'
import { REPORT_FILE_NAME } from '../report/report-file.ts'
import { writeComparisonReport, writeRunReport } from '../report/write-report.ts'
import { type CommandIO, EXIT_USAGE } from './command-start.ts'

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
Exits 2 if a run folder has no readable results.json, or --out names a file in a missing folder.
`

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE)
    return 0
  }
  const runDirectories: string[] = []
  let out: string | undefined
  let pricesFile: string | undefined
  let referenceModel: string | null = null
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (argument === '--out' || argument === '--prices' || argument === '--reference-model') {
      const value = argv[++index]
      if (value === undefined) {
        io.err(`live-evals report: ${argument} needs a value.\n\n${USAGE}`)
        return EXIT_USAGE
      }
      if (argument === '--out') out = value
      else if (argument === '--prices') pricesFile = value
      else referenceModel = value
    } else if (argument.startsWith('-')) {
      io.err(`live-evals report: unknown option ${argument}\n\n${USAGE}`)
      return EXIT_USAGE
    } else runDirectories.push(argument)
  }
  if (runDirectories.length === 0) {
    io.err(`live-evals report: name at least one run folder.\n\n${USAGE}`)
    return EXIT_USAGE
  }
  // One run has no comparison page: its report is always <run-dir>/report.html (its audio links are relative to
  // the run folder), and it has no models to price or compare. An option it would ignore is refused by name.
  const comparisonOnly = [
    ['--out', out],
    ['--prices', pricesFile],
    ['--reference-model', referenceModel],
  ].find(([, value]) => value !== undefined && value !== null)
  if (runDirectories.length === 1 && comparisonOnly !== undefined) {
    io.err(
      `live-evals report: ${comparisonOnly[0]} applies to a comparison of two or more runs; with one run folder ` +
        `the report is ${join(runDirectories[0] as string, REPORT_FILE_NAME)} (drop ${comparisonOnly[0]}, or name ` +
        'the other runs to compare)\n',
    )
    return EXIT_USAGE
  }
  try {
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
