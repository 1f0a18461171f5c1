// `live-evals client-assistant`: serves the reference client-delegation application endpoint on a loopback
// address, for evaluating the client architecture against a separately running application. The first line
// printed is the WebSocket URL (scripts read it), the second says which backend runs and why. The token comes
// from OPENAI_CLIENT_ASSISTANT_TOKEN and is checked before anything listens. Stops on SIGINT/SIGTERM.
import { parseArgs } from 'node:util'
import { chooseReferenceApplication } from '../assistants/client/service/backend-choice.ts'
import {
  assertLoopbackHost,
  type ClientAssistantService,
  DEFAULT_SERVICE_LIMITS,
  parseAllowedOrigin,
  startClientAssistantService,
  TOKEN_VARIABLE,
} from '../assistants/client/service/index.ts'
import { type CommandIO, EXIT_USAGE, untilStopped } from './main.ts'

export const DEFAULT_PORT = 8795

const USAGE = `Usage: live-evals client-assistant [--host H] [--port N] [--allow-origin O]... [--offline]
                                   [--accept-scenario-state]

Serves the reference client-delegation application (the restaurant application's client copy) at
ws://HOST:PORT/ws/assistant, and GET /health. The first line printed is that URL, the second the backend.

  --host H                  127.0.0.1 (default), localhost or ::1; nothing else is accepted
  --port N                  default ${DEFAULT_PORT}; 0 picks a free port
  --allow-origin O          a browser origin let in, exactly scheme://host[:port]; repeatable
  --offline                 the deterministic offline backend (also the default without an OpenAI key)
  --accept-scenario-state   accept the scenario's application_state and conversation_summary in
                            session.configure (refused as a protocol error otherwise)

Environment: ${TOKEN_VARIABLE} (required: 32-512 printable ASCII characters, not an OpenAI key);
OPENAI_RESPONSES_API_KEY or OPENAI_API_KEY for the OpenAI backend; OPENAI_LIVE_BACKEND_MODEL,
OPENAI_LIVE_BACKEND_REASONING_EFFORT, OPENAI_LIVE_BACKEND_MAX_OUTPUT_TOKENS for its settings.

A connection that has not completed its upgrade within ${DEFAULT_SERVICE_LIMITS.upgrade_timeout} s is closed, and at most ${DEFAULT_SERVICE_LIMITS.max_unauthenticated_connections}
such connections are kept (a new one closes the oldest), so idle sockets cannot starve /health or sessions.
`

export interface ClientAssistantArgs {
  host: string
  port: number
  allowedOrigins: string[]
  offline: boolean
  acceptScenarioState: boolean
}

/** The command line, checked: loopback host, port range, exact origins. */
export function parseClientAssistantArgs(
  argv: readonly string[],
): ClientAssistantArgs | { error: string } | 'help' {
  let values: ReturnType<typeof parse>['values']
  try {
    values = parse(argv).values
  } catch (error) {
    return { error: (error as Error).message }
  }
  if (values.help) return 'help'
  const host = values.host ?? '127.0.0.1'
  const portText = values.port ?? String(DEFAULT_PORT)
  if (!/^\d+$/.test(portText) || Number(portText) > 65_535) {
    return { error: `--port needs an integer from 0 to 65535, got ${portText}` }
  }
  const allowedOrigins = values['allow-origin'] ?? []
  // Each refusal names the flag and the value it refused, so a long command line points at its bad entry.
  try {
    assertLoopbackHost(host)
  } catch (error) {
    return { error: `--host ${JSON.stringify(host)}: ${(error as Error).message}` }
  }
  for (const origin of allowedOrigins) {
    try {
      parseAllowedOrigin(origin)
    } catch (error) {
      return { error: `--allow-origin ${JSON.stringify(origin)}: ${(error as Error).message}` }
    }
  }
  return {
    host,
    port: Number(portText),
    allowedOrigins,
    offline: values.offline ?? false,
    acceptScenarioState: values['accept-scenario-state'] ?? false,
  }
}

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      host: { type: 'string' },
      port: { type: 'string' },
      'allow-origin': { type: 'string', multiple: true },
      offline: { type: 'boolean' },
      'accept-scenario-state': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  })
}

export interface ClientAssistantCommandOptions {
  env?: Readonly<Record<string, string | undefined>>
  /** Ends the command (tests); otherwise SIGINT/SIGTERM. */
  stop?: AbortSignal
  /** Another Responses endpoint for the OpenAI backend (tests). */
  baseURL?: string
}

/** Exit codes: 0 after a clean stop, 2 for a bad command line, 1 for a bad environment or an unusable port. */
export async function clientAssistantCommand(
  argv: readonly string[],
  io: CommandIO,
  options: ClientAssistantCommandOptions = {},
): Promise<number> {
  const parsed = parseClientAssistantArgs(argv)
  if (parsed === 'help') {
    io.out(USAGE)
    return 0
  }
  if ('error' in parsed) {
    io.err(`live-evals client-assistant: ${parsed.error}\n\n${USAGE}`)
    return EXIT_USAGE
  }
  const env = options.env ?? process.env
  let service: ClientAssistantService
  let backend: string
  try {
    const choice = chooseReferenceApplication({
      offline: parsed.offline,
      env,
      ...(options.baseURL === undefined ? {} : { baseURL: options.baseURL }),
    })
    backend = choice.description
    service = await startClientAssistantService({
      token: env[TOKEN_VARIABLE],
      env,
      application: choice.application,
      host: parsed.host,
      port: parsed.port,
      allowedOrigins: parsed.allowedOrigins,
      acceptScenarioState: parsed.acceptScenarioState,
      log: (line) => io.err(`${line}\n`),
    })
  } catch (error) {
    io.err(`live-evals client-assistant: ${(error as Error).message}\n`)
    return 1
  }
  io.out(`${service.url}\n${backend}\n`)
  const scenario = parsed.acceptScenarioState ? 'accepted' : 'refused'
  io.err(`health: ${service.healthURL}; scenario state and summary ${scenario}. Stop with Ctrl-C.\n`)
  await untilStopped(options.stop)
  await service.close()
  return 0
}

/** The verb entry the `live-evals` dispatch table loads. */
export const run = (argv: readonly string[], io: CommandIO): Promise<number> =>
  clientAssistantCommand(argv, io)
