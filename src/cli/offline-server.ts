// `live-evals offline-server [--port N]`: serves the offline GPT-Live server on 127.0.0.1 for anyone
// developing a client without an API key. The first line of output is the WebSocket URL (scripts read it);
// any non-empty bearer token is accepted, a missing one is refused before the upgrade. Stops on SIGINT/SIGTERM.
import {
  DEFAULT_LIMITS,
  LIMIT_CLOSE,
  LIMIT_ERROR_CODES,
  SEND_BUFFER_EXCEEDED_REASON,
  startOfflineLiveServer,
} from '../testing/live-server/index.ts'
import { type CommandIO, EXIT_USAGE, untilStopped } from './main.ts'

const mib = (bytes: number) => `${bytes / (1024 * 1024)} MiB`

const USAGE = `Usage: live-evals offline-server [--port N]

Serves a strict, deterministic offline GPT-Live server on 127.0.0.1 (port 0 = any free port) and prints
its URL (ws://127.0.0.1:PORT/v1/live/sessions) as the first line. Point the openai client at
baseURL http://127.0.0.1:PORT/v1 with any API key. Sessions hear nothing and never speak (no hearing
script is registered), but every protocol rule, timestamp and close path is real. Stop with Ctrl-C.

Limits (ours; the service documents none): a frame over ${mib(DEFAULT_LIMITS.maxFrameBytes)} gets error
${LIMIT_ERROR_CODES.frameTooLarge}, over ${mib(DEFAULT_LIMITS.maxTransportFrameBytes)} closes the connection (${LIMIT_CLOSE.frameTooBig}); nesting deeper than ${DEFAULT_LIMITS.maxNestingDepth} gets
${LIMIT_ERROR_CODES.nestingTooDeep}; a client that leaves ${mib(DEFAULT_LIMITS.maxSendBufferBytes)} unread is disconnected (${LIMIT_CLOSE.sendBufferExceeded},
${SEND_BUFFER_EXCEEDED_REASON}) within ${DEFAULT_LIMITS.closeGraceMs / 1000} s. A connection that has not completed its upgrade within
${DEFAULT_LIMITS.upgradeTimeoutMs / 1000} s is closed, and at most ${DEFAULT_LIMITS.maxPendingConnections} such connections are kept (a new one closes the oldest).
No frame and no number of idle sockets can stop the server or another session.
`

/** Parses `--port N` / `--port=N`; returns an error message for anything else. */
export function parseOfflineServerArgs(
  argv: readonly string[],
): { port: number } | { error: string } | 'help' {
  let port = 0
  for (let i = 0; i < argv.length; i++) {
    const argument = argv[i] ?? ''
    if (argument === '--help' || argument === '-h') return 'help'
    let value: string | undefined
    if (argument === '--port') value = argv[++i]
    else if (argument.startsWith('--port=')) value = argument.slice('--port='.length)
    else return { error: `unknown argument ${argument}` }
    if (value === undefined || !/^\d+$/.test(value) || Number(value) > 65_535) {
      return { error: `--port needs an integer from 0 to 65535, got ${value ?? 'nothing'}` }
    }
    port = Number(value)
  }
  return { port }
}

/**
 * Runs the server until SIGINT/SIGTERM (or until `stop` aborts, for tests), then closes it and returns 0.
 * Exit code 2 for bad arguments, 1 if the port cannot be bound.
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
  let server: Awaited<ReturnType<typeof startOfflineLiveServer>>
  try {
    server = await startOfflineLiveServer({ port: parsed.port, acceptAnyToken: true })
  } catch (error) {
    io.err(
      `live-evals offline-server: cannot listen on 127.0.0.1:${parsed.port}: ${(error as Error).message}\n`,
    )
    return 1
  }
  io.out(`${server.url}\n`)
  io.err(`openai client baseURL: ${server.baseURL} (any API key). Stop with Ctrl-C.\n`)
  await untilStopped(stop)
  await server.close()
  return 0
}

/** The verb entry the `live-evals` dispatch table loads. */
export const run = (argv: readonly string[], io: CommandIO): Promise<number> => offlineServerCommand(argv, io)
