// `live-evals drift <cassettes-dir> --max-scenarios N`: records the same scenarios again, live, and reports how
// the service now differs from the recordings (src/cassettes/drift): metric drift (verdicts, response latency
// p50/p95, response rate, delegation, tool calls and their arguments, yield) and protocol drift (event types and
// fields the offline server does not model). Opt-in and bounded: it is billed, so it refuses to run without a key
// or without a positive --max-scenarios. Per phase: the first N recorded scenarios (in the folder's order) are
// recorded again through the project's Vitest run (LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1, into a new folder),
// their recordings are re-graded with no network (the same replay as `grade --cassettes`), and the two sets of
// rows are compared. Writes drift.json and drift.md into --out; prints the Markdown.
// Exit codes follow the gate's: 0 no drift, 1 drift, 2 bad input, 3 incomplete (a run wrote no results).
import { join, resolve } from 'node:path'
import { writeJsonArtifact } from '../artifacts/index.ts'
import { writeNamedFile } from '../artifacts/named-file.ts'
import { makePrivateDirectories } from '../artifacts/private-directories.ts'
import { CassetteFolderError, type PhaseCassettes, readCassetteCatalogue } from '../cassettes/catalogue.ts'
import { driftMarkdown } from '../cassettes/drift/markdown.ts'
import {
  type ArchitectureRows,
  DEFAULT_DRIFT_TOLERANCES,
  type DriftTolerances,
  metricDrift,
} from '../cassettes/drift/metric-drift.ts'
import { protocolDrift } from '../cassettes/drift/protocol-drift.ts'
import {
  DRIFT_REPORT_VERSION,
  type DriftReport,
  driftOutcome,
  type PhaseDrift,
} from '../cassettes/drift/report.ts'
import { readCassette } from '../cassettes/files.ts'
import type { Cassette } from '../cassettes/schema.ts'
import { cassetteRunEnvironment, vitestArguments, withEnvironment } from './cassette-runs.ts'
import { type CommandIO, refuseUsage, startCommand } from './command-start.ts'
import { REGRADE_ENVIRONMENT, readResults } from './grade-cassettes.ts'
import {
  childEnvironment,
  runVitestChild,
  type VitestInvocation,
  type VitestOutcome,
} from './vitest-child.ts'

const EXIT_DRIFT = 1
const EXIT_INCOMPLETE = 3

const USAGE = `Usage: live-evals drift <cassettes-dir> --max-scenarios N [--out DIR] [--vitest-config FILE]
                        [--project NAME] [--latency-tolerance-ms MS] [--ratio-tolerance R]

Records the scenarios of <cassettes-dir> again against the live service (it is billed: needs OPENAI_API_KEY,
and --max-scenarios bounds how many scenarios are recorded, over all phases) and reports what changed against
the recordings:
  metric drift    verdicts, response latency P50/P95, response rate, delegation (accuracy and counts), tool
                  calls and their arguments, RUN's yield to barge-ins; both sides graded by today's graders
                  (the recordings re-graded with no network, as grade --cassettes does)
  protocol drift  event types and fields the service sent that the offline server does not model
                  (its schema of every server event), so that model can be corrected from real traffic

  --max-scenarios N        how many scenarios to record again (required, at least 1)
  --out DIR                where the new recordings, run folders, drift.json and drift.md go (default drift/)
  --vitest-config FILE     the Vitest config (default: Vitest's lookup from the working directory)
  --project NAME           the Vitest project (default: the phase's name); one phase's cassettes only
  --latency-tolerance-ms   a P50 or P95 latency change beyond this is drift (default ${DEFAULT_DRIFT_TOLERANCES.latencyMs})
  --ratio-tolerance R      a response rate, delegation accuracy or yield rate change beyond this is drift
                           (default ${DEFAULT_DRIFT_TOLERANCES.ratio})

Exits 0 without drift, 1 with drift, 2 for a wrong command line (no key, no bound), 3 when a phase could not be
compared (a run wrote no results).
`

interface DriftArguments {
  cassettes: string
  maxScenarios: number
  out: string
  vitestConfig: string | null
  project: string | null
  tolerances: DriftTolerances
}

export interface DriftDependencies {
  env?: NodeJS.ProcessEnv
  cwd?: string
  runVitest?: (invocation: VitestInvocation, io: CommandIO) => Promise<VitestOutcome>
  now?: Date
}

function parseArguments(argv: readonly string[]): DriftArguments | string {
  const positional: string[] = []
  const values = new Map<string, string>()
  const options = [
    '--max-scenarios',
    '--out',
    '--vitest-config',
    '--project',
    '--latency-tolerance-ms',
    '--ratio-tolerance',
  ]
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (options.includes(argument)) {
      const value = argv[++index]
      if (value === undefined || value.startsWith('--')) return `${argument} needs a value`
      values.set(argument, value)
    } else if (argument.startsWith('-')) return `unknown option ${argument}`
    else positional.push(argument)
  }
  if (positional.length !== 1) return 'name exactly one cassettes folder'
  const bound = values.get('--max-scenarios')
  if (bound === undefined) {
    return '--max-scenarios N is required: drift records live and is billed, so how many scenarios it records is bounded'
  }
  const maxScenarios = Number(bound)
  if (!Number.isInteger(maxScenarios) || maxScenarios < 1) {
    return `--max-scenarios must be a whole number of at least 1 (got ${JSON.stringify(bound)})`
  }
  const number = (name: string, fallback: number) => {
    const text = values.get(name)
    if (text === undefined) return fallback
    const value = Number(text)
    return Number.isFinite(value) && value >= 0 ? value : null
  }
  const latencyMs = number('--latency-tolerance-ms', DEFAULT_DRIFT_TOLERANCES.latencyMs)
  const ratio = number('--ratio-tolerance', DEFAULT_DRIFT_TOLERANCES.ratio)
  if (latencyMs === null) return '--latency-tolerance-ms must be a number of milliseconds, 0 or more'
  if (ratio === null) return '--ratio-tolerance must be a number, 0 or more'
  return {
    cassettes: positional[0] as string,
    maxScenarios,
    out: values.get('--out') ?? 'drift',
    vitestConfig: values.get('--vitest-config') ?? null,
    project: values.get('--project') ?? null,
    tolerances: { latencyMs, ratio },
  }
}

/** The first `budget` scenarios of each phase in folder order, with every cassette of each (architectures, trials). */
function bounded(phases: readonly PhaseCassettes[], budget: number): PhaseCassettes[] {
  const chosen: PhaseCassettes[] = []
  let left = budget
  for (const phase of phases) {
    const ids = [...new Set(phase.headers.map((header) => header.scenario_id))].slice(0, left)
    if (ids.length === 0) break
    left -= ids.length
    chosen.push({ ...phase, headers: phase.headers.filter((header) => ids.includes(header.scenario_id)) })
  }
  return chosen
}

async function rowsOf(files: readonly string[]): Promise<ArchitectureRows[] | null> {
  const documents = await Promise.all(files.map(readResults))
  const runs = documents.flatMap((document) =>
    document === null
      ? []
      : [
          {
            architecture: String(document.run.configuration.assistant_mode ?? 'unknown'),
            rows: document.results,
          },
        ],
  )
  return runs.length === 0 ? null : runs
}

export async function driftCommand(
  argv: readonly string[],
  io: CommandIO,
  deps: DriftDependencies = {},
): Promise<number> {
  const command = { name: 'drift', usage: USAGE, parse: parseArguments }
  const args = startCommand(argv, io, command)
  if (typeof args === 'number') return args
  const env = deps.env ?? process.env
  const refuse = (why: string) => refuseUsage(io, command, why)
  if ((env.OPENAI_API_KEY ?? '').trim() === '') {
    return refuse(
      'drift records the scenarios again against the live service and needs OPENAI_API_KEY (it is billed); ' +
        'to re-grade recordings without a key, use live-evals grade --cassettes',
    )
  }
  const cwd = deps.cwd ?? process.cwd()
  let phases: PhaseCassettes[]
  try {
    const catalogue = await readCassetteCatalogue(resolve(cwd, args.cassettes))
    for (const problem of catalogue.problems) io.err(`live-evals drift: skipped ${problem}\n`)
    phases = bounded(catalogue.phases, args.maxScenarios)
  } catch (error) {
    if (!(error instanceof CassetteFolderError)) throw error
    return refuse(error.message)
  }
  if (phases.length > 1 && args.project !== null) return refuse('--project applies to one phase’s cassettes')
  const out = resolve(cwd, args.out)
  await makePrivateDirectories(out, 'drift folder')
  const run = deps.runVitest ?? runVitestChild
  const base = childEnvironment(env)
  const options = {
    vitestConfig: args.vitestConfig === null ? null : resolve(cwd, args.vitestConfig),
    project: args.project,
  }
  const reports: PhaseDrift[] = []
  for (const phase of phases) {
    const environment = cassetteRunEnvironment(phase)
    const rerecorded = join(out, 'cassettes', phase.phase)
    const report: PhaseDrift = {
      phase: phase.phase,
      cassettes: phase.headers.map((header) => header.id),
      recordings: phase.directory,
      rerecorded,
      runs: { recorded: [], now: [] },
      metrics: null,
      protocol: null,
      protocol_unread: [],
      incomplete: null,
    }
    reports.push(report)
    if (typeof environment === 'string') {
      report.incomplete = environment
      continue
    }
    const scenarios = new Set(phase.headers.map((header) => header.scenario_id)).size
    io.out(
      `live-evals drift: recording ${scenarios} ${phase.phase} scenario(s) again (${phase.headers.length} cassette(s))\n`,
    )
    const live = await run(
      {
        args: vitestArguments(phase, options),
        env: withEnvironment(base, {
          ...environment,
          LIVE_EVALS_MODE: 'live',
          LIVE_EVALS_RECORD: '1',
          LIVE_EVALS_REPLAY_REGRADE: null,
          LIVE_EVALS_REPLAY_CALLER: null,
          LIVE_EVALS_CASSETTES: rerecorded,
          LIVE_EVALS_RESULTS_DIR: join(out, 'now'),
        }),
        cwd,
      },
      io,
    )
    io.out(`live-evals drift: re-grading the ${phase.phase} recordings (no network)\n`)
    const regraded = await run(
      {
        args: vitestArguments(phase, options),
        env: withEnvironment(base, {
          ...REGRADE_ENVIRONMENT,
          ...environment,
          LIVE_EVALS_RESULTS_DIR: join(out, 'recorded'),
        }),
        cwd,
      },
      io,
    )
    report.runs = { recorded: regraded.resultFiles, now: live.resultFiles }
    const [before, after] = [await rowsOf(regraded.resultFiles), await rowsOf(live.resultFiles)]
    if (before === null || after === null) {
      report.incomplete =
        `${before === null ? 'the re-grade of the recordings' : 'the live run'} wrote no results ` +
        `(Vitest exited ${before === null ? regraded.code : live.code}); see its output above`
      continue
    }
    report.metrics = metricDrift(before, after, args.tolerances)
    const recorded: Cassette[] = []
    for (const header of phase.headers) {
      const loaded = await readCassette(rerecorded, header.id).catch(() => null)
      if (loaded === null) report.protocol_unread.push(header.id)
      else recorded.push(loaded.cassette)
    }
    if (recorded.length === 0) {
      // Nothing the service sent was kept: the protocol is unknown, which is not the same as unchanged.
      report.incomplete =
        `no new recording could be read in ${rerecorded} (${report.protocol_unread.join(', ')}), ` +
        'so what the service sent was not checked; see the live run’s output above'
      continue
    }
    report.protocol = protocolDrift(recorded)
  }
  const document: DriftReport = {
    version: DRIFT_REPORT_VERSION,
    created_at: (deps.now ?? new Date()).toISOString(),
    phases: reports,
    outcome: driftOutcome(reports),
  }
  const markdown = driftMarkdown(document)
  await writeJsonArtifact(out, 'drift.json', document)
  await writeNamedFile(join(out, 'drift.md'), markdown)
  io.out(`\n${markdown}\nDrift report: ${join(out, 'drift.json')}\n`)
  return document.outcome === 'no_drift' ? 0 : document.outcome === 'drift' ? EXIT_DRIFT : EXIT_INCOMPLETE
}

export function run(argv: readonly string[], io: CommandIO): Promise<number> {
  return driftCommand(argv, io)
}
