// `live-evals grade --cassettes <dir>`: re-grades recorded conversations with today's graders, every phase, RUN
// included, with no key and no network. Each phase's cassettes are replayed through the live code path of the
// project's own Vitest run (LIVE_EVALS_MODE=replay with replay.regrade, src/cassettes/regrade): today's observation
// code, graders, metrics and test bodies over the service's recorded answers, into a new run folder. The judge is
// answered from the recording when today's request equals a recorded one; otherwise the semantic grades stay null
// and the row's `regrade` extension says why. The rows equal the recorded run's when nothing changed.
import { readFile } from 'node:fs/promises'
import { resolve } from 'node:path'
import { CassetteFolderError, type PhaseCassettes, readCassetteCatalogue } from '../cassettes/catalogue.ts'
import { EXTENSION_KEY } from '../reporting/extensions/registry.ts'
import type { RegradeRowExtension } from '../reporting/extensions/regrade.ts'
import { type ResultsDocument, ResultsDocumentSchema } from '../reporting/result-schema.ts'
import { recordingsWithoutRow } from './cassette-coverage.ts'
import { byArchitecture, cassetteRunEnvironment, vitestArguments, withEnvironment } from './cassette-runs.ts'
import { type CommandIO, EXIT_USAGE, startCommand } from './command-start.ts'
import { rowsNotRegraded, rowsNotRegradedText } from './grade-exit.ts'
import {
  childEnvironment,
  runVitestChild,
  type VitestInvocation,
  type VitestOutcome,
} from './vitest-child.ts'

const USAGE = `Usage: live-evals grade --cassettes <dir> [--vitest-config FILE] [--project NAME] [--dataset FILE]
                         [--config TOML] [--out DIR] [--match strict|lenient]

Re-grades recorded conversations with today's graders, every phase (RUN included), with no key and no network.
<dir> is a cassettes folder written by LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1: one phase's (cassettes/crawl)
or their parent (cassettes/). Each phase's cassettes are replayed through your Vitest project (the phase's
project, the spec files and their assistant) as LIVE_EVALS_MODE=replay does, and graded as a run grades: a new
run folder per architecture, with a new results.json. A rubric, grader, expectation or metric change shows; the
rows equal the recorded run's when nothing changed.

The judge is answered from the recording: when today's judge request equals a recorded one its recorded answer
is used; otherwise the semantic grades stay null and the row's observability.live_evals.regrade says why (never
an old or made-up score). A change to what the assistant hears or sends is a divergence, as in any replay.

  --vitest-config FILE  the Vitest config (default: Vitest's lookup from the working directory)
  --project NAME        the Vitest project (default: the phase's name, as liveEvalsProject names it)
  --dataset FILE        the dataset to grade against (default: the project's); one phase's cassettes only
  --config TOML         the phase's config.toml (LIVE_EVALS_CONFIG)
  --out DIR             the results folder for the new run folders (default: the project's)
  --match strict|lenient  replay.match (default strict: a diverged conversation is an infrastructure error)

Every recorded architecture is re-graded in a run of its own (OPENAI_ASSISTANT_MODE), whatever architecture
the project's settings select. A recording that finds no test (its scenario left the dataset, --dataset names
another, the run had fewer trials) is named with the reason, on the console and in the summary.

Exit codes, as for live-evals grade <run-dir> (0: graded, whatever the verdicts; the gate judges those):
  0  every recording was re-graded over its recorded conversation (rows passed or failed)
  1  a recording was not: it found no test, a phase wrote no results, the folder holds no cassette, or a row is
     an infrastructure error (a divergence under strict, a missing or refused cassette, a failure to run) or
     diverged under --match lenient (graded, but not over what was recorded); each is named on stderr
  2  a wrong command line
`

export interface GradeCassettesArguments {
  cassettes: string
  vitestConfig: string | null
  project: string | null
  dataset: string | null
  config: string | null
  out: string | null
  match: 'strict' | 'lenient' | null
}

/** What a test may replace: the environment, the working directory and how Vitest is started. */
export interface GradeCassettesDependencies {
  env?: NodeJS.ProcessEnv
  cwd?: string
  runVitest?: (invocation: VitestInvocation, io: CommandIO) => Promise<VitestOutcome>
}

const VALUE_OPTIONS: Record<string, keyof GradeCassettesArguments> = {
  '--cassettes': 'cassettes',
  '--vitest-config': 'vitestConfig',
  '--project': 'project',
  '--dataset': 'dataset',
  '--config': 'config',
  '--out': 'out',
  '--match': 'match',
}

export function parseGradeCassettesArguments(argv: readonly string[]): GradeCassettesArguments | string {
  const parsed: GradeCassettesArguments = {
    cassettes: '',
    vitestConfig: null,
    project: null,
    dataset: null,
    config: null,
    out: null,
    match: null,
  }
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    const key = VALUE_OPTIONS[argument]
    if (key === undefined) {
      if (argument === '--judge') {
        return '--judge re-judges a run folder over the network; with --cassettes the judge is answered from the recordings'
      }
      return argument.startsWith('-')
        ? `unknown option ${argument}`
        : `unexpected argument ${argument} (with --cassettes, name the folder after it)`
    }
    const value = argv[++index]
    if (value === undefined || value.startsWith('-')) return `${argument} needs a value`
    ;(parsed as unknown as Record<string, string>)[key] = value
  }
  if (parsed.cassettes === '') return '--cassettes needs a folder'
  if (parsed.match !== null && parsed.match !== 'strict' && parsed.match !== 'lenient') {
    return `--match must be strict or lenient (got ${JSON.stringify(parsed.match)})`
  }
  return parsed
}

/** A re-grade never asks the network: no key, no endpoint, no recording, no cache of other runs' judgments. */
export const REGRADE_ENVIRONMENT: Record<string, string | null> = {
  LIVE_EVALS_MODE: 'replay',
  LIVE_EVALS_REPLAY_REGRADE: '1',
  LIVE_EVALS_JUDGE_CACHE: 'false',
  LIVE_EVALS_RECORD: null,
  LIVE_EVALS_REPLAY_CALLER: null,
  OPENAI_API_KEY: null,
  OPENAI_RESPONSES_API_KEY: null,
  OPENAI_BASE_URL: null,
  OPENAI_LIVE_ENDPOINT: null,
}

/** A results.json as the schema reads it; null when it is missing or not one. */
export async function readResults(file: string): Promise<ResultsDocument | null> {
  try {
    return ResultsDocumentSchema.parse(JSON.parse(await readFile(file, 'utf8')))
  } catch {
    return null
  }
}

/** One line per run folder: the verdicts, and what became of the judge and the scenarios. */
export function regradeSummary(file: string, document: ResultsDocument): string {
  const judge = { reused: 0, not_rejudged: 0, not_run: 0 }
  let changed = 0
  let reason: string | null = null
  for (const row of document.results) {
    const block = row.observability?.[EXTENSION_KEY] as { regrade?: RegradeRowExtension } | undefined
    const regrade = block?.regrade
    if (regrade === undefined) continue
    judge[regrade.judge] += 1
    if (regrade.scenario_changed) changed += 1
    reason ??= regrade.reason
  }
  const { total, passed, failed, infrastructure_errors: errors } = document.summary
  return (
    `${file}: ${total} rows re-graded, ${passed} passed, ${failed} failed, ${errors} infrastructure errors; ` +
    `judge answers reused in ${judge.reused}, not re-judged in ${judge.not_rejudged}, not run in ${judge.not_run}` +
    (changed > 0 ? `; ${changed} scenario(s) changed since recording` : '') +
    (reason === null ? '' : `\n  not re-judged: ${reason}`)
  )
}

/** One replay of one architecture's recordings; null when it wrote no results (said on the console). */
async function regradeGroup(
  group: PhaseCassettes,
  label: string,
  args: GradeCassettesArguments,
  io: CommandIO,
  deps: GradeCassettesDependencies,
): Promise<{ summaries: string[]; ungraded: string[]; rows: string[] } | null> {
  const cwd = deps.cwd ?? process.cwd()
  const path = (value: string | null) => (value === null ? null : resolve(cwd, value))
  const env = withEnvironment(childEnvironment(deps.env ?? process.env), {
    ...REGRADE_ENVIRONMENT,
    ...(cassetteRunEnvironment(group) as Record<string, string | null>),
    ...(args.out === null ? {} : { LIVE_EVALS_RESULTS_DIR: path(args.out) }),
    ...(args.dataset === null ? {} : { LIVE_EVALS_DATASET: path(args.dataset) }),
    ...(args.config === null ? {} : { LIVE_EVALS_CONFIG: path(args.config) }),
    ...(args.match === null ? {} : { LIVE_EVALS_REPLAY_MATCH: args.match }),
  })
  io.out(
    `live-evals grade: re-grading ${group.headers.length} ${label} cassette(s) from ${group.directory}\n`,
  )
  const outcome = await (deps.runVitest ?? runVitestChild)(
    {
      args: vitestArguments(group, { vitestConfig: path(args.vitestConfig), project: args.project }),
      env,
      cwd,
    },
    io,
  )
  const documents = await Promise.all(outcome.resultFiles.map(readResults))
  const read = documents.filter((document) => document !== null)
  if (read.length === 0) {
    io.err(
      `live-evals grade: the ${label} re-grade wrote no results (Vitest exited ${outcome.code}); ` +
        'see its output above (a wrong --project or --vitest-config selects no test)\n',
    )
    return null
  }
  return {
    summaries: outcome.resultFiles.flatMap((file, index) => {
      const document = documents[index]
      return document === null || document === undefined ? [] : [regradeSummary(file, document)]
    }),
    ungraded: recordingsWithoutRow(group, read).map(({ cassette, reason }) => `${cassette}: ${reason}`),
    rows: read.flatMap(rowsNotRegraded),
  }
}

export async function gradeCassettesCommand(
  argv: readonly string[],
  io: CommandIO,
  deps: GradeCassettesDependencies = {},
): Promise<number> {
  const args = startCommand(argv, io, { name: 'grade', usage: USAGE, parse: parseGradeCassettesArguments })
  if (typeof args === 'number') return args
  const cwd = deps.cwd ?? process.cwd()
  let phases: PhaseCassettes[]
  try {
    const catalogue = await readCassetteCatalogue(resolve(cwd, args.cassettes))
    for (const problem of catalogue.problems) io.err(`live-evals grade: skipped ${problem}\n`)
    phases = catalogue.phases
  } catch (error) {
    if (!(error instanceof CassetteFolderError)) throw error
    io.err(`live-evals grade: ${error.message}\n`)
    return 1
  }
  if (phases.length > 1 && (args.dataset !== null || args.project !== null || args.config !== null)) {
    io.err(
      `live-evals grade: ${args.cassettes} holds ${phases.map((phase) => phase.phase).join(', ')} cassettes; ` +
        '--dataset, --project and --config apply to one phase: name that phase’s folder (e.g. cassettes/crawl)\n',
    )
    return EXIT_USAGE
  }
  const summaries: string[] = []
  const ungraded: string[] = []
  const rows: string[] = []
  let incomplete = false
  for (const phase of phases) {
    const refused = cassetteRunEnvironment(phase)
    if (typeof refused === 'string') {
      io.err(`live-evals grade: ${refused}\n`)
      incomplete = true
      continue
    }
    // One run per recorded architecture: the project's own choice of architecture must not leave any out.
    const groups = byArchitecture(phase)
    for (const group of groups) {
      const label = `${phase.phase}${groups.length > 1 ? ` (${group.headers[0]?.architecture})` : ''}`
      const outcome = await regradeGroup(group, label, args, io, deps)
      if (outcome === null) incomplete = true
      else {
        summaries.push(...outcome.summaries)
        ungraded.push(...outcome.ungraded)
        rows.push(...outcome.rows)
      }
    }
  }
  if (ungraded.length > 0) {
    io.err(`live-evals grade: ${ungraded.length} recording(s) not re-graded:\n  ${ungraded.join('\n  ')}\n`)
    incomplete = true
  }
  // A row the replay could not grade over its recording is as unfinished as a recording that found no test.
  if (rows.length > 0) {
    io.err(rowsNotRegradedText(rows))
    incomplete = true
  }
  if (summaries.length > 0) io.out(`\nRe-graded from cassettes:\n${summaries.join('\n')}\n`)
  if (ungraded.length > 0) {
    io.out(`Not re-graded (${ungraded.length} recording(s)):\n  ${ungraded.join('\n  ')}\n`)
  }
  if (rows.length > 0) {
    io.out(`Not re-graded over what was recorded (${rows.length} row(s)):\n  ${rows.join('\n  ')}\n`)
  }
  return incomplete ? 1 : 0
}
