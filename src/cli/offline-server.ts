// `live-evals offline-server [--port N] [--dataset FILE]...`: the dress-rehearsal server on 127.0.0.1. One port
// serves the GPT-Live sessions and the OpenAI HTTP endpoints a live run calls (speech, Responses, Decisions),
// answered from the bundled assistant's offline behaviours for the scenarios of the given datasets, so
// `LIVE_EVALS_MODE=live` runs the whole live path without a key. The first line of output is the environment a
// live run needs (scripts read it); any non-empty bearer token is accepted, a missing one is refused before the
// upgrade. Stops on SIGINT/SIGTERM.
import { DatasetValidationError, describeViolations } from '../scenarios/index.ts'
import {
  DEFAULT_LIMITS,
  LIMIT_CLOSE,
  LIMIT_ERROR_CODES,
  SEND_BUFFER_EXCEEDED_REASON,
} from '../testing/live-server/index.ts'
import { REHEARSAL_API_KEY, type RehearsalServer, startRehearsalServer } from '../testing/rehearsal/index.ts'
import { type CommandIO, EXIT_USAGE, untilStopped } from './main.ts'

const mib = (bytes: number) => `${bytes / (1024 * 1024)} MiB`

const USAGE = `Usage: live-evals offline-server [--port N] [--dataset FILE]...

Serves the dress-rehearsal server on 127.0.0.1 (port 0 = any free port): on one port, the GPT-Live sessions
(/v1/live/sessions) and the OpenAI endpoints a live run calls: POST /v1/audio/speech (CRAWL's text-to-speech,
a deterministic synthetic voice), POST /v1/responses (the client-delegation backend, the judge) and
POST /v1/decisions. Its first line is the environment a live run needs, for example

  OPENAI_BASE_URL=http://127.0.0.1:PORT/v1 OPENAI_LIVE_ENDPOINT=http://127.0.0.1:PORT/v1 \\
  OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK=true OPENAI_API_KEY=${REHEARSAL_API_KEY}

(prefix a command with it, or \`export\` it), then e.g. LIVE_EVALS_MODE=live npx vitest run specs/crawl.

--dataset FILE (repeatable, e.g. one per phase): the scenarios to rehearse. A session whose instructions are
one of theirs is played by the bundled assistant's offline behaviour (the one an offline run uses), in either
architecture; it hears the caller by content: speech this server synthesised, the synthetic voice of a row's
text, or one of the dataset's recordings (also when degraded by an acoustic preset); sound it cannot recognise
it hears as "[inaudible]" and asks again. The judge gets a scripted, schema-valid judgment that says so.
Without a dataset sessions hear nothing they can act on and never speak, but every protocol rule, timestamp
and close path is real. Stop with Ctrl-C.

Limits (ours; the service documents none): a frame over ${mib(DEFAULT_LIMITS.maxFrameBytes)} gets error
${LIMIT_ERROR_CODES.frameTooLarge}, over ${mib(DEFAULT_LIMITS.maxTransportFrameBytes)} closes the connection (${LIMIT_CLOSE.frameTooBig}); nesting deeper than ${DEFAULT_LIMITS.maxNestingDepth} gets
${LIMIT_ERROR_CODES.nestingTooDeep}; a client that leaves ${mib(DEFAULT_LIMITS.maxSendBufferBytes)} unread is disconnected (${LIMIT_CLOSE.sendBufferExceeded},
${SEND_BUFFER_EXCEEDED_REASON}) within ${DEFAULT_LIMITS.closeGraceMs / 1000} s. A connection that has not completed its upgrade within
${DEFAULT_LIMITS.upgradeTimeoutMs / 1000} s is closed, and at most ${DEFAULT_LIMITS.maxPendingConnections} such connections are kept (a new one closes the oldest).
No frame and no number of idle sockets can stop the server or another session.
`

export interface OfflineServerArgs {
  port: number
  datasets: string[]
}

/** Parses `--port N` / `--port=N` and `--dataset FILE` / `--dataset=FILE` (repeatable); an error for anything else. */
export function parseOfflineServerArgs(
  argv: readonly string[],
): OfflineServerArgs | { error: string } | 'help' {
  let port = 0
  const datasets: string[] = []
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] ?? ''
    if (argument === '--help' || argument === '-h') return 'help'
    const [name, inline] =
      argument.startsWith('--') && argument.includes('=')
        ? [argument.slice(0, argument.indexOf('=')), argument.slice(argument.indexOf('=') + 1)]
        : [argument, undefined]
    if (name !== '--port' && name !== '--dataset') return { error: `unknown argument ${argument}` }
    const value = inline ?? argv[++i]
    if (name === '--dataset') {
      if (value === undefined || value === '' || (inline === undefined && value.startsWith('--'))) {
        return { error: '--dataset needs a dataset file' }
      }
      datasets.push(value)
      continue
    }
    if (value === undefined || !/^\d+$/.test(value) || Number(value) > 65_535) {
      return { error: `--port needs an integer from 0 to 65535, got ${value ?? 'nothing'}` }
    }
    port = Number(value)
  }
  return { port, datasets }
}

/** The environment line: `NAME=value` pairs, space-separated (values hold no spaces or quotes). */
export function environmentLine(env: Readonly<Record<string, string>>): string {
  return Object.entries(env)
    .map(([name, value]) => `${name}=${value}`)
    .join(' ')
}

/**
 * Runs the server until SIGINT/SIGTERM (or until `stop` aborts, for tests), then closes it and returns 0.
 * Exit code 2 for bad arguments or a broken dataset (every problem named by file and field), 1 if the port
 * cannot be bound.
 */
export async function offlineServerCommand(
  argv: readonly string[],
  io: CommandIO,
  stop?: AbortSignal,
): Promise<number> {
  const parsed = parseOfflineServerArgs(argv)
  if (parsed === 'help') {
    io.out(USAGE)
    return 0
  }
  if ('error' in parsed) {
    io.err(`live-evals offline-server: ${parsed.error}\n\n${USAGE}`)
    return EXIT_USAGE
  }
  let server: RehearsalServer
  try {
    server = await startRehearsalServer({
      datasets: parsed.datasets,
      port: parsed.port,
      onUnknownSession: (config) => {
        // A session with no instructions is no assistant's or caller's: a live run's preflight opens one per
        // model to check the endpoint before its first scenario, so it is no sign of a missing dataset.
        if (!config.instructions) return
        io.err(
          'live-evals offline-server: a session started whose instructions belong to no rehearsed scenario; ' +
            'it hears, but never speaks (start the server with --dataset for this run).\n',
        )
      },
    })
  } catch (error) {
    if (error instanceof DatasetValidationError) {
      io.err(`live-evals offline-server: a dataset is broken:\n${describeViolations(error.violations)}\n`)
      return EXIT_USAGE
    }
    io.err(
      `live-evals offline-server: cannot listen on 127.0.0.1:${parsed.port}: ${(error as Error).message}\n`,
    )
    return 1
  }
  io.out(`${environmentLine(server.env)}\n`)
  io.err(
    `GPT-Live sessions at ${server.url}; openai client baseURL ${server.baseURL} (any API key). ` +
      `${server.scenarios.length} scenario${server.scenarios.length === 1 ? '' : 's'} rehearsed. Stop with Ctrl-C.\n`,
  )
  await untilStopped(stop)
  await server.close()
  return 0
}

/** The verb entry the `live-evals` dispatch table loads. */
export const run = (argv: readonly string[], io: CommandIO): Promise<number> => offlineServerCommand(argv, io)
