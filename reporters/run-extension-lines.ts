// The console lines for what a run adds beyond the reference's counts: a filter that chose part of the project,
// spec files that failed before their scenarios ran (the run is incomplete), the assistants under test, repeated
// trials (pass^1, pass^k, the scenarios that were not repeatable, each measured metric's spread over the trials),
// condition robustness and the rows whose latency carries the pacing warning.
// Read from the results document's run extensions, so the console says what results.json says.

import { formatPercent, formatRatio, formatSpread } from '../src/gate/format.ts'
import { selectionPartiality } from '../src/gate/load.ts'
import { duplicateScenarioText } from '../src/reporting/extensions/completion.ts'
import type { SourceRobustness as Scenario } from '../src/reporting/extensions/condition-robustness.ts'
import { pacingWarningLine } from '../src/reporting/extensions/pacing-row.ts'
import { EXTENSION_KEY } from '../src/reporting/extensions/registry.ts'
import type { ResultsDocument } from '../src/reporting/result-schema.ts'
import { robustnessRatioText } from '../src/reporting/robustness-ratio.ts'
import { ROW_METRICS } from '../src/reporting/row-metrics.ts'

/** How many scenarios a line names before it says "and N more". */
const NAMED = 5

function named(items: readonly string[]): string {
  const shown = items.slice(0, NAMED).join(', ')
  return items.length > NAMED ? `${shown} and ${items.length - NAMED} more` : shown
}

/** `label`: how the lines name the run (src/vitest/plugin/console-label.ts). */
export function runExtensionLines(label: string, document: ResultsDocument): string[] {
  const block = document.run.configuration[EXTENSION_KEY]
  const lines: string[] = []
  const filtered = selectionPartiality(document.run)
  if (filtered !== null) {
    lines.push(
      `[${label}] Not a whole run: ${filtered}; gate --latest skips it, and gate refuses it without --allow-partial.`,
    )
  }
  const failed = block?.completion?.failed_spec_files ?? []
  if (failed.length > 0) {
    lines.push(
      `[${label}] Incomplete: ${named(failed.map(({ file, error }) => `${file} failed before its scenarios ran (${error})`))}; ` +
        'results.json is marked partial (the gate refuses it without --allow-partial).',
    )
  }
  const duplicates = block?.completion?.duplicate_scenarios ?? []
  if (duplicates.length > 0) {
    lines.push(
      `[${label}] Incomplete: scenarios evaluated by two spec files ran in whichever claimed them first (not ` +
        `deterministic): ${named(duplicates.map(duplicateScenarioText))}; results.json is marked partial (the gate ` +
        'refuses it without --allow-partial).',
    )
  }
  const assistants = block?.assistants
  if (assistants !== undefined) {
    const heading = assistants.length === 1 ? 'Assistant under test' : 'Assistants under test'
    lines.push(`[${label}] ${heading}: ${named(assistants)}.`)
  }
  const trials = block?.trials
  if (trials !== undefined) {
    lines.push(
      `[${label}] Trials: up to ${trials.k} per scenario; pass^1 ${formatRatio(trials.pass_1)}, ` +
        `pass^${trials.k} ${formatRatio(trials.pass_k)} (mean over ${trials.pass_k_scenarios} scenario(s) with ${trials.k} trials).`,
    )
    const flaky = trials.scenarios.filter(
      (scenario) => scenario.passed > 0 && scenario.passed < scenario.trials,
    )
    if (flaky.length > 0) {
      lines.push(
        `[${label}] Not repeatable (passed some trials, not all): ${named(flaky.map((scenario) => `${scenario.scenario_id} ${scenario.passed}/${scenario.trials}`))}.`,
      )
    }
    const spreads = ROW_METRICS.flatMap((metric) => {
      const spread = trials.metrics[metric.name]
      return spread === undefined || spread.n === 0
        ? []
        : [`${metric.label} ${formatSpread(metric.unit, spread)}`]
    })
    if (spreads.length > 0) lines.push(`[${label}] Over every trial: ${spreads.join('; ')}.`)
  }
  const robustness = block?.condition_robustness
  if (robustness !== undefined) {
    const sourcesWhere = (robust: boolean | null, conditionsOf: (scenario: Scenario) => string[]) =>
      robustness.scenarios
        .filter((scenario) => scenario.robust === robust)
        .map((scenario) => `${scenario.source_scenario_id} (${conditionsOf(scenario).join(', ')})`)
    const fragile = sourcesWhere(false, (scenario) => scenario.failed_conditions)
    // Sources a row of which did not run: neither robust nor not, and left out of the rate.
    const unknown = sourcesWhere(null, (scenario) => scenario.not_run_conditions ?? [])
    lines.push(
      `[${label}] Condition robustness: ${robustnessRatioText(robustness)} ` +
        `(${formatPercent(robustness.robust_rate)} of the known) ` +
        `passed under every condition they ran with (${robustness.conditions.join(', ')})` +
        (fragile.length === 0 ? '' : `; not robust: ${named(fragile)}`) +
        (unknown.length === 0
          ? ''
          : `; unknown: ${unknown.length}, a row made from it did not run (an infrastructure error or a refused ` +
            `recording) under: ${named(unknown)}`) +
        '.',
    )
  }
  const pacing = pacingWarningLine(label, document.results)
  if (pacing !== null) lines.push(pacing)
  lines.push(...cassetteLines(label, document))
  return lines
}

/**
 * Replay: how many scenarios replayed, diverged, were missing or refused (each row's `cassette` extension), and how
 * many rows of the replay run have no cassette block.
 */
function cassetteLines(label: string, document: ResultsDocument): string[] {
  const cassettes = document.results.flatMap((row) => {
    const cassette = row.observability?.[EXTENSION_KEY]?.cassette
    return cassette === undefined ? [] : [{ row, cassette }]
  })
  const replays = cassettes.filter(({ cassette }) => cassette.mode === 'replay')
  const recorded = cassettes.length - replays.length
  const lines: string[] = []
  if (recorded > 0) lines.push(`[${label}] Recorded ${recorded} cassette(s).`)
  if (replays.length === 0) return lines
  const count = (outcome: string) => replays.filter(({ cassette }) => cassette.outcome === outcome).length
  // Every row of a replay run lands in one bucket: a row that failed before its replay began and was not
  // classified by it (a timeout, a stopped run) is counted and named, never left out of the tally.
  const unreplayed = document.results.filter(
    (row) => row.observability?.[EXTENSION_KEY]?.cassette === undefined,
  )
  lines.push(
    `[${label}] Replay (${replays[0]?.cassette.match ?? 'strict'}): ${count('replayed')} replayed, ` +
      `${count('diverged')} diverged, ${count('missing')} missing, ${count('refused')} refused` +
      (unreplayed.length === 0
        ? '.'
        : `, ${unreplayed.length} not replayed (failed before the replay began: ${named(unreplayed.map((row) => row.scenario_id))}).`),
  )
  const diverged = replays.filter(({ cassette }) => cassette.first_divergence !== null)
  if (diverged.length > 0) {
    lines.push(
      `[${label}] First divergences: ${named(diverged.map(({ row, cassette }) => `${row.scenario_id}: ${cassette.first_divergence?.text}`))}.`,
    )
  }
  return lines
}
