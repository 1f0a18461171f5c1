// A hostile gateway for the redaction tests: a real HTTP and WebSocket server on 127.0.0.1 (port 0) that echoes
// the credential it was sent back in every place an upstream error can carry it — the status text, the JSON
// error body, response headers, and (GPT-Live) the protocol error event and the close reason. Paths listed in
// `passThrough` are answered normally instead (the test server's speech), so a run can get past them to the
// endpoint under test.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { type WebSocket, WebSocketServer } from 'ws'
import { pcm16ToBytes } from '../audio/pcm.ts'
import { syntheticSpeech } from '../audio/synthetic-voice.ts'

export interface SecretEchoGateway {
  /** `http://127.0.0.1:PORT/v1`, for OPENAI_BASE_URL and the GPT-Live endpoint alike. */
  readonly baseURL: string
  /** Every request path and method received, upgrades included (`GET /v1/...`). */
  readonly seen: string[]
  close(): Promise<void>
}

export interface SecretEchoGatewayOptions {
  /** Paths answered as the real service would (only `/v1/audio/speech`: synthetic PCM speech). */
  passThrough?: readonly string[]
  /**
   * Let the run's preflight through (src/vitest/preflight.ts): model lookups answer 200 and the first GPT-Live
   * session (the preflight's) is started and closed, so the refusal under test meets the scenarios themselves.
   */
  admitPreflight?: boolean
}

/** Everything the client sent that could be a credential, as one string to echo back. */
function credentialsOf(request: IncomingMessage): string {
  const authorization = request.headers.authorization ?? ''
  const apiKey = request.headers['api-key'] ?? ''
  return `${authorization} ${String(apiKey)}`.trim()
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of request) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

function echoRefusal(response: ServerResponse, credentials: string): void {
  const body = JSON.stringify({
    error: {
      message: `Gateway refused the request; it received Authorization: ${credentials}`,
      type: 'invalid_request_error',
      code: 'invalid_api_key',
      param: credentials,
      echoed_headers: { authorization: credentials },
    },
  })
  // Node checks a status message for control characters only; a gateway may put anything printable there.
  response.writeHead(401, `Unauthorized (${credentials})`, {
    'content-type': 'application/json',
    'x-echoed-authorization': credentials,
    'www-authenticate': `Bearer realm="${credentials}"`,
  })
  response.end(body)
}

/** Starts a session and closes it when asked: just enough protocol for the preflight's open and close. */
function admitSession(ws: WebSocket): void {
  ws.on('message', (data) => {
    const event = JSON.parse(String(data)) as { type?: string }
    if (event.type === 'session.start') {
      ws.send(
        JSON.stringify({
          type: 'session.started',
          event_id: 'event_admit_1',
          session: { id: 'sess_preflight' },
        }),
      )
    } else if (event.type === 'session.close') {
      ws.send(
        JSON.stringify({
          type: 'session.closed',
          event_id: 'event_admit_2',
          reason: 'client_closed',
          usage: { seconds: 0 },
        }),
      )
      ws.close(1000)
    }
  })
}

export async function startSecretEchoGateway(
  options: SecretEchoGatewayOptions = {},
): Promise<SecretEchoGateway> {
  const seen: string[] = []
  const passThrough = new Set(options.passThrough ?? [])
  let sessionsToAdmit = options.admitPreflight === true ? 1 : 0
  const server = createServer((request, response) => {
    const path = (request.url ?? '').split('?')[0] ?? ''
    seen.push(`${request.method} ${path}`)
    readBody(request)
      .then((body) => {
        if (options.admitPreflight === true && request.method === 'GET' && path.startsWith('/v1/models/')) {
          response.writeHead(200, { 'content-type': 'application/json' })
          response.end(JSON.stringify({ id: path.slice('/v1/models/'.length), object: 'model', created: 0 }))
          return
        }
        if (passThrough.has(path) && path === '/v1/audio/speech') {
          const input = (JSON.parse(body) as { input: string }).input
          response.writeHead(200, { 'content-type': 'audio/pcm' })
          response.end(pcm16ToBytes(syntheticSpeech(input)))
          return
        }
        echoRefusal(response, credentialsOf(request))
      })
      .catch(() => response.destroy())
  })
  const sockets = new WebSocketServer({ noServer: true })
  server.on('upgrade', (request, socket, head) => {
    seen.push(`GET ${(request.url ?? '').split('?')[0]} (upgrade)`)
    const credentials = credentialsOf(request)
    sockets.handleUpgrade(request, socket, head, (ws) => {
      if (sessionsToAdmit > 0) {
        sessionsToAdmit -= 1
        admitSession(ws)
        return
      }
      // The first client event is answered with an error event that quotes the credential, then the socket is
      // closed with it in the reason (a close reason is at most 123 bytes).
      ws.once('message', () => {
        ws.send(
          JSON.stringify({
            type: 'error',
            event_id: 'event_echo_1',
            error: {
              type: 'invalid_request_error',
              code: 'invalid_api_key',
              message: `Incorrect API key provided: ${credentials}`,
              param: credentials,
            },
          }),
        )
        ws.close(4001, credentials.slice(0, 120))
      })
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  let closed: Promise<void> | null = null
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    seen,
    close() {
      closed ??= new Promise<void>((resolve) => {
        for (const client of sockets.clients) client.terminate()
        sockets.close()
        server.closeAllConnections()
        server.close(() => resolve())
      })
      return closed
    },
  }
}
