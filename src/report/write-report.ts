// Writing reports into run directories: the run report (report.html at the top, so the rows' relative audio
// paths work from it and the folder can be zipped), the timeline image beside each scenario's WAVs, and the
// comparison page for several runs. The reporter calls writeRunReport at the end of every run.

import { dirname, join, relative, resolve } from 'node:path'
import { writeNamedFile } from '../artifacts/named-file.ts'
import { writeArtifact } from '../artifacts/write.ts'
import { DEFAULT_PRICES, type PriceTable } from '../config/prices.ts'
import { compareModels } from '../gate/compare-models.ts'
import { architectureOf, modelOf } from '../gate/row-keys.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { anchorOf } from './html.ts'
import { type LoadedRun, loadRun, loadScenarioEvidence } from './load-run.ts'
import { type RunReportModel, runReportModel, type ScenarioModel, scenarioModel } from './model.ts'
import { type ComparedRun, renderComparison } from './render-comparison.ts'
import { renderModelComparison } from './render-model-comparison.ts'
import { renderRunReport } from './render-run.ts'
import { artifactHref } from './render-scenario.ts'
import { timelineSvg } from './render-timeline.ts'
import { COMPARISON_FILE_NAME, REPORT_FILE_NAME } from './report-file.ts'

const TIMELINE_IMAGE_NAME = 'timeline.svg'

/** Where a scenario's section of the run report is, for annotation text: `<run>/report.html#scenario-<id>-t<n>`. */
export function scenarioReportLink(runDirectory: string, scenarioId: string, trial = 1): string {
  return `${join(resolve(runDirectory), REPORT_FILE_NAME)}#${anchorOf(scenarioId, trial)}`
}

/** Where a scenario's timeline image goes: beside its conversation WAV; null when the row has no audio folder. */
function timelineImagePath(row: Pick<ResultItem, 'artifacts'>): string | null {
  const audio = row.artifacts.conversation_audio ?? row.artifacts.output_audio ?? row.artifacts.input_audio
  if (audio === null || artifactHref(audio) === null || !audio.includes('/')) return null
  return `${dirname(audio)}/${TIMELINE_IMAGE_NAME}`
}

async function writeTimelineImage(
  runDirectory: string,
  row: ResultItem,
  scenario: ScenarioModel,
): Promise<string | null> {
  const relativePath = timelineImagePath(row)
  if (relativePath === null) return null
  const svg = `<?xml version="1.0" encoding="UTF-8"?>\n${timelineSvg(scenario.timeline, { standalone: true }).text}\n`
  return writeArtifact(runDirectory, relativePath, svg)
}

/**
 * Writes the timeline image of one row (for `vitest --ui` attachments), from its details JSON and conversation WAV
 * already on disk; results.json need not exist yet. Returns the image's absolute path, or null when the row has no
 * audio folder.
 */
export async function writeScenarioTimelineImage(
  runDirectory: string,
  row: ResultItem,
): Promise<string | null> {
  const evidence = await loadScenarioEvidence(runDirectory, row)
  return writeTimelineImage(runDirectory, row, scenarioModel(row, evidence))
}

export interface WrittenRunReport {
  html: string
  timeline_images: string[]
  loaded: LoadedRun
  model: RunReportModel
}

/** Loads a run directory and writes its report and timeline images. */
export async function writeRunReportFiles(runDirectory: string): Promise<WrittenRunReport> {
  const loaded = await loadRun(runDirectory)
  const model = runReportModel(loaded)
  const images: string[] = []
  for (const [index, row] of loaded.file.document.results.entries()) {
    const image = await writeTimelineImage(runDirectory, row, model.scenarios[index] as ScenarioModel)
    if (image !== null) images.push(image)
  }
  const html = await writeArtifact(runDirectory, REPORT_FILE_NAME, renderRunReport(model))
  return { html, timeline_images: images, loaded, model }
}

/** Writes `<runDirectory>/report.html` (and the timeline images); returns the HTML file's absolute path. */
export async function writeRunReport(runDirectory: string): Promise<string> {
  return (await writeRunReportFiles(runDirectory)).html
}

export interface ComparisonReportOptions {
  /** Where the page goes (default: comparison.html in the first run's parent folder). */
  outFile?: string
  /** Prices for the cost of a model comparison (default: the built-in table). */
  prices?: PriceTable
  /** The model the others are compared with (default: the first run's). */
  referenceModel?: string | null
  /** Called when every run is of one GPT-Live model: the page compares runs, and prices and reference go unused. */
  onOneModel?: (model: string) => void
}

/**
 * Writes each run's report and one comparison page linking to them: runs of several GPT-Live models get the model
 * comparison (deltas with intervals, changed verdicts, cost); runs of one model the side-by-side status page.
 * Returns the comparison page's path.
 */
export async function writeComparisonReport(
  runDirectories: readonly string[],
  options: ComparisonReportOptions | string = {},
): Promise<string> {
  const { outFile, prices, referenceModel, onOneModel } =
    typeof options === 'string' ? { outFile: options, onOneModel: undefined } : options
  const destination = resolve(
    outFile ?? join(dirname(resolve(runDirectories[0] ?? '.')), COMPARISON_FILE_NAME),
  )
  const runs: ComparedRun[] = []
  const written: WrittenRunReport[] = []
  for (const runDirectory of runDirectories) {
    const one = await writeRunReportFiles(runDirectory)
    written.push(one)
    runs.push({
      model: one.model,
      report_href: relative(dirname(destination), one.html).split('/').map(encodeURIComponent).join('/'),
    })
  }
  const models = new Set(written.map((one) => modelOf(one.loaded.file.document)))
  if (models.size === 1) onOneModel?.([...models][0] as string)
  const text =
    models.size > 1
      ? modelComparisonPage(written, runs, prices ?? DEFAULT_PRICES, referenceModel ?? null)
      : renderComparison(runs)
  // Outside any run directory, so not an artifact, but written like one: 0600, atomically, never through a link.
  return writeNamedFile(destination, text)
}

function modelComparisonPage(
  written: readonly WrittenRunReport[],
  runs: readonly ComparedRun[],
  prices: PriceTable,
  reference: string | null,
): string {
  const files = written.map((one) => one.loaded.file)
  const comparison = compareModels(files, {
    prices,
    reference,
    judgeEventsOf: (file, index) => {
      const one = written.find((candidate) => candidate.loaded.file === file)
      return one?.loaded.evidence[index]?.details?.judge_usage_events ?? null
    },
  })
  const hrefs = new Map(
    written.map((one, index) => [
      JSON.stringify([modelOf(one.loaded.file.document), architectureOf(one.loaded.file.document)]),
      runs[index]?.report_href ?? null,
    ]),
  )
  return renderModelComparison(comparison, {
    href: (model, architecture) => hrefs.get(JSON.stringify([model, architecture])) ?? null,
  })
}
