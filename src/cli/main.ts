// Entry point of the `live-evals` command: one verb per module, loaded only when used so that a verb's
// dependencies (audio, network) cost nothing to the others. Adding a verb is one line in VERBS.
import { redactText } from '../config/outbound-redaction.ts'
import { liveEvalsVersion } from '../package/version.ts'

/** Where a command writes; verbs receive it so tests can read what a command printed. */
export interface CommandIO {
  out(text: string): void
  err(text: string): void
}

const processIO: CommandIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}

/** A verb module exports `run`: the arguments after the verb in, the exit code out. */
export type Verb = (argv: readonly string[], io: CommandIO) => Promise<number>

interface VerbEntry {
  summary: string
  load: () => Promise<{ run: Verb }>
}

const VERBS: Record<string, VerbEntry> = {
  validate: {
    summary: '<dataset.json>...  check datasets against the scenario contract; print counts per phase',
    load: () => import('./validate.ts'),
  },
  'offline-server': {
    summary: '[--port N]  serve the offline GPT-Live server on 127.0.0.1 (its URL is the first line printed)',
    load: () => import('./offline-server.ts'),
  },
  'client-assistant': {
    summary:
      '[--port N] [--allow-origin O]...  serve the reference client-delegation application on loopback',
    load: () => import('./client-assistant.ts'),
  },
  audio: {
    summary: '<condition> <in.wav> <out.wav> [--seed N ...]  apply an acoustic condition to a WAV',
    load: () => import('./audio.ts'),
  },
  walk: {
    summary: 'generate-audio <dataset.json> [--engine espeak|openai ...]  record WALK requests as WAVs',
    load: () => import('./walk.ts'),
  },
  results: {
    summary: '<run-dir>  rebuild results.json of a killed run from its rows journal',
    load: () => import('./results.ts'),
  },
  grade: {
    summary:
      '<run-dir> [--judge] [--out DIR] | --cassettes <dir>  re-grade a finished CRAWL/WALK run from its artifacts, or recordings of any phase, into a new run',
    load: () => import('./grade.ts'),
  },
  explain: {
    summary:
      '<run-dir> [--scenario ID] [--trials K]  why failed scenarios failed: re-run each with one change at a time',
    load: () => import('./explain.ts'),
  },
  drift: {
    summary:
      '<cassettes-dir> --max-scenarios N  record the recorded scenarios again live; metric and protocol drift',
    load: () => import('./drift.ts'),
  },
  'import-call': {
    summary:
      '<stereo.wav> --caller-channel left|right [--transcript F] [--out DATASET]  a real call as a WALK scenario',
    load: () => import('./import-call.ts'),
  },
  report: {
    summary: '<run-dir>... [--out F]  write report.html in each run folder; several runs: a comparison page',
    load: () => import('./report.ts'),
  },
  gate: {
    summary:
      '<results.json>... [--baseline F] [options]  CI gate: exit 0 pass, 1 fail, 2 bad input, 3 inconclusive',
    load: () => import('./gate.ts'),
  },
  prune: {
    summary:
      '<results-dir> --keep N [--dry-run]  remove all but the newest N runs of each phase and architecture',
    load: () => import('./prune.ts'),
  },
  'approve-baseline': {
    summary: '<results.json> <baseline.json>  approve a complete results file as the baseline for gate',
    load: () => import('./approve-baseline.ts'),
  },
}

/** Exit code for a command line that cannot be understood (every verb uses it). */
export const EXIT_USAGE = 2

/** For the verbs that serve until stopped: resolves on SIGINT/SIGTERM, or when `stop` aborts (tests). */
export function untilStopped(stop?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done)
      process.off('SIGTERM', done)
      stop?.removeEventListener('abort', done)
      resolve()
    }
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
    stop?.addEventListener('abort', done, { once: true })
    if (stop?.aborted) done()
  })
}

function helpText(): string {
  const lines = ['Usage: live-evals <command> [arguments]', '', 'Commands:']
  for (const [name, verb] of Object.entries(VERBS)) lines.push(`  ${name.padEnd(16)} ${verb.summary}`)
  lines.push(
    '',
    'Run `live-evals <command> --help` for the arguments of one command; `live-evals --version` for the version.',
  )
  lines.push('Evaluations themselves run through Vitest (see README.md).')
  return `${lines.join('\n')}\n`
}

export async function main(argv: readonly string[], given: CommandIO = processIO): Promise<number> {
  // Whatever a verb prints (an upstream error quoting the key included) is scrubbed of credentials first.
  const io: CommandIO = {
    out: (text) => given.out(redactText(text)),
    err: (text) => given.err(redactText(text)),
  }
  const [verbName, ...rest] = argv
  if (verbName === '--help' || verbName === '-h' || verbName === 'help') {
    io.out(helpText())
    return 0
  }
  if (verbName === '--version' || verbName === '-v' || verbName === 'version') {
    io.out(`${liveEvalsVersion()}\n`)
    return 0
  }
  if (verbName === undefined) {
    io.err(`live-evals: no command given.\n\n${helpText()}`)
    return EXIT_USAGE
  }
  const verb = Object.hasOwn(VERBS, verbName) ? VERBS[verbName] : undefined
  if (verb === undefined) {
    io.err(`live-evals: unknown command "${verbName}".\n\n${helpText()}`)
    return EXIT_USAGE
  }
  const { run } = await verb.load()
  return run(rest, io)
}
