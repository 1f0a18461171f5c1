import { join, resolve } from 'node:path'
import type OpenAI from 'openai'
import { RESULTS_FILE } from '../artifacts/results-file-name.ts'
import { HarnessConfigError, loadPhaseConfig } from '../config/index.ts'
import type { SemanticJudgeOptions } from '../grading/judge/options.ts'
import { judgeOptionsFromSettings } from '../grading/judge/options-from-settings.ts'
import {
  type RegradedScenario,
  RegradeInputError,
  readFinishedRun,
  regradeRun,
} from '../phases/engine/regrade.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { DEFAULT_BODY_MATCHERS } from '../vitest/default-body.ts'
import { defaultBodyVerdict } from '../vitest/default-body-verdict.ts'
import type { ScenarioRun } from '../vitest/scenario-run.ts'
import type { AssistantArchitecture } from '../vitest/settings.ts'
import type { AssertionFailure } from '../vitest/verdict.ts'
import { type CommandIO, startCommand } from './command-start.ts'
import { gradeCassettesCommand } from './grade-cassettes.ts'
import { rowsNotRegraded, rowsNotRegradedText } from './grade-exit.ts'

// `live-evals grade <run-dir> [--judge] [--out DIR] [--config TOML]`: re-assesses a finished CRAWL or WALK run
// from its artifacts with today's graders (src/phases/engine/regrade.ts says what is recomputed, copied and
// referenced) and writes a new results.json in a new run folder. The row verdict is the default test body's: its
// matchers are applied again (toMatchToolCalls, toFollowDelegationPolicy, toCompleteTask, and toSatisfyRubric with
// --judge); a custom body's other assertions cannot be re-run, so their failed checks are carried over as failed.
// Without --judge the rows are the deterministic graders' alone: no semantic grades, semantic_quality null, and
// nothing of the graded run's judgment (its semantic_outcome check, its rubric assertion) carried over.

const USAGE = `Usage: live-evals grade <run-dir> [--judge] [--out DIR] [--config TOML]

Re-grades a finished CRAWL or WALK run from its saved artifacts (the observation in each details JSON and the
scenario snapshot beside it) with the current graders, and writes a new results.json into a new run folder
(<run-id>-graded_<time>) next to <run-dir>, or inside DIR with --out. No GPT-Live session is opened.

  --judge        also run the semantic judge (needs OPENAI_API_KEY; judge model, effort and the [grading]
                 settings come from the environment, or from --config TOML); judgments already in the judge cache
                 are not paid for again
  --out DIR      the results folder to create the new run folder in
  --config TOML  a phase config.toml to read the judge settings from

Recomputed: grades, assessment, row status and task metrics, observability. Copied: audio metrics, consumption.
Referenced: audio, transcripts and event logs stay in the original run (relative paths).

Exit codes (--cassettes adds its own cases: see its --help): 0 every row was graded (passed or failed: the gate judges verdicts);
1 the run cannot be read, or a row is an infrastructure error (made by the re-grade, such as a broken details
file, or copied from the run), each named on stderr; 2 a wrong command line.

live-evals grade --cassettes <dir> re-grades recorded conversations instead, every phase, RUN included, with no
key and no network (live-evals grade --cassettes --help).
`

/** What a test may replace: the judge's openai client, and the environment settings are read from. */
export interface GradeDependencies {
  client?: OpenAI
  env?: Record<string, string | undefined>
  now?: Date
}

interface GradeArguments {
  runDirectory: string
  judge: boolean
  out: string | null
  config: string | null
}

function parseArguments(argv: readonly string[]): GradeArguments | string {
  const parsed: GradeArguments = { runDirectory: '', judge: false, out: null, config: null }
  const positional: string[] = []
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (argument === '--judge') parsed.judge = true
    else if (argument === '--out' || argument === '--config') {
      const value = argv[++index]
      if (value === undefined || value.startsWith('-')) return `${argument} needs a value`
      if (argument === '--out') parsed.out = value
      else parsed.config = value
    } else if (argument.startsWith('-')) return `unknown option ${argument}`
    else positional.push(argument)
  }
  if (positional.length !== 1) return 'name exactly one run folder'
  parsed.runDirectory = positional[0] as string
  return parsed
}

/**
 * The default test body's verdict over a re-graded row (src/vitest/default-body-verdict.ts), with the failed
 * assertions of a custom body carried over: they cannot be re-checked.
 */
function regradedVerdict(regraded: RegradedScenario, judged: boolean): ResultItem {
  const { scenario, details, grade, row, original } = regraded
  const run: ScenarioRun = {
    interaction: 'single_turn',
    scenarioId: scenario.id,
    architecture: details.assistant_mode as AssistantArchitecture,
    expected: scenario.expected,
    observation: details.observation,
    grade,
    failure: row.status === 'infrastructure_error' ? (row.error as ScenarioRun['failure']) : null,
    row,
    detailsPath: null,
  }
  // toSatisfyRubric is the judge's: re-run with --judge, and dropped without it (a deterministic re-grade reports
  // no judgment, neither the old one's semantic_outcome nor its rubric assertion).
  const rerun = new Set<string>(DEFAULT_BODY_MATCHERS)
  const carried: AssertionFailure[] = (original.assessment?.checks ?? [])
    .filter((check) => check.id.startsWith('assertion:') && check.status === 'failed')
    .filter((check) => !rerun.has(check.id.slice('assertion:'.length)))
    .map((check) => ({ id: check.id, message: 'carried over from the graded run (not re-checked)' }))
  return defaultBodyVerdict(run, {
    // The phase follows from the caller audio.
    phase: details.audio_source === 'recorded' ? 'walk' : 'crawl',
    scenarioType: details.scenario_type,
    judged,
    carried,
  })
}

function judgeOptions(
  module: 'crawl' | 'walk',
  args: GradeArguments,
  resultsDir: string,
  runId: string,
  deps: GradeDependencies,
): SemanticJudgeOptions {
  const settings = loadPhaseConfig(module, args.config === null ? null : resolve(args.config), {
    env: deps.env ?? process.env,
    // Asking for the judge is asking for live calls, whatever mode the graded run had.
    overrides: { execution: { mode: 'live' }, grading: { enabled: true } },
  })
  // The cache lives in the results folder (.judge_cache) the new run folder is reserved in.
  const options = judgeOptionsFromSettings(settings, {
    runDirectory: join(resultsDir, runId),
    ...(deps.client === undefined ? {} : { client: deps.client }),
  })
  if (options === null) {
    throw new HarnessConfigError(['--judge needs OPENAI_API_KEY (the judge calls the OpenAI Responses API)'])
  }
  return options
}

export async function gradeCommand(
  argv: readonly string[],
  io: CommandIO,
  deps: GradeDependencies = {},
): Promise<number> {
  // Re-grading recordings is its own command line (grade-cassettes.ts).
  if (argv.includes('--cassettes')) return gradeCassettesCommand(argv, io)
  const args = startCommand(argv, io, { name: 'grade', usage: USAGE, parse: parseArguments })
  if (typeof args === 'number') return args
  const runDirectory = resolve(args.runDirectory)
  const resultsDir = args.out === null ? resolve(runDirectory, '..') : resolve(args.out)
  try {
    const original = await readFinishedRun(runDirectory)
    const module = original.run.module as 'crawl' | 'walk'
    const judge = args.judge ? judgeOptions(module, args, resultsDir, original.run.id, deps) : null
    const outcome = await regradeRun({
      runDirectory,
      resultsDir,
      judge,
      verdict: (regraded) => regradedVerdict(regraded, judge !== null),
      ...(deps.now === undefined ? {} : { now: deps.now }),
    })
    const { total, passed, failed, infrastructure_errors: infrastructure } = outcome.document.summary
    io.out(
      `graded ${outcome.regraded} of ${total} rows again${judge === null ? '' : ' with the judge'} ` +
        `(${outcome.copied} copied as they were): ${passed} passed, ${failed} failed, ` +
        `${infrastructure} infrastructure errors.\nResults: ${join(outcome.directory, RESULTS_FILE)}\n`,
    )
    // A row that could not be graded is not a re-grade's success, whatever the other rows say.
    const ungraded = rowsNotRegraded(outcome.document)
    if (ungraded.length > 0) io.err(rowsNotRegradedText(ungraded))
    return ungraded.length > 0 ? 1 : 0
  } catch (error) {
    if (error instanceof RegradeInputError || error instanceof HarnessConfigError) {
      io.err(`live-evals grade: ${error.message}\n`)
      return 1
    }
    throw error
  }
}

export function run(argv: readonly string[], io: CommandIO): Promise<number> {
  return gradeCommand(argv, io)
}
