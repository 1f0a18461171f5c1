// A real HTTP server on loopback that answers the openai SDK in tests (text-to-speech built in; Responses
// and any other endpoint are added as routes, e.g. responses-route.ts). It records every request so tests can assert on
// what the harness actually sent, and it answers unknown routes and failures the way the OpenAI API does
// (a JSON `error` object), so the SDK raises its ordinary typed errors.

import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { openAiError, type RecordedRequest, type RouteHandler, type RouteReply } from './routes.ts'
import { speechRoute } from './speech-route.ts'

export interface ResponsesServer {
  /** Base URL for `new OpenAI({ apiKey, baseURL })`, ending in `/v1`. */
  readonly baseURL: string
  readonly port: number
  /** Every request received, in arrival order (including refused ones). */
  readonly requests: readonly RecordedRequest[]
  /** Requests to one route, in arrival order. */
  requestsTo(method: string, path: string): RecordedRequest[]
  /** Add or replace the handler for `METHOD path` (exact path match, query ignored). */
  route(method: string, path: string, handler: RouteHandler): void
  /** Stop listening and drop open connections. Safe to call more than once. */
  close(): Promise<void>
}

export interface ResponsesServerOptions {
  /** Extra routes, added after the built-in ones (so they can replace them). */
  routes?: Record<string, RouteHandler>
  /** When set, requests must carry exactly `Authorization: Bearer <apiKey>`; otherwise any non-empty key. */
  apiKey?: string
}

const routeKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`

/** The request handling of the server, for a server of someone else's (the dress rehearsal shares one port). */
export interface OpenAiRouteHandler {
  /** Answers one HTTP request; never rejects (a failing handler answers a 500 in the API's shape). */
  handle(incoming: IncomingMessage, response: ServerResponse): void
  /** Every request received, in arrival order (empty when recording is off). */
  readonly requests: readonly RecordedRequest[]
  route(method: string, path: string, handler: RouteHandler): void
}

export interface OpenAiRouteHandlerOptions extends ResponsesServerOptions {
  /** Keep every request for `requests` (default true); a long-running server turns it off. */
  record?: boolean
}

/** Routes OpenAI-shaped HTTP requests (built-in: `POST /v1/audio/speech`, replaceable), checking the key. */
export function openAiRouteHandler(options: OpenAiRouteHandlerOptions = {}): OpenAiRouteHandler {
  const routes = new Map<string, RouteHandler>([[routeKey('POST', '/v1/audio/speech'), speechRoute()]])
  for (const [key, handler] of Object.entries(options.routes ?? {})) {
    const [method = '', path = ''] = key.split(' ')
    routes.set(routeKey(method, path), handler)
  }
  const requests: RecordedRequest[] = []
  const keep = options.record ?? true

  async function handle(incoming: IncomingMessage, response: ServerResponse): Promise<void> {
    const recorded = await record(incoming)
    if (keep) requests.push(recorded)
    const authorization = incoming.headers.authorization ?? ''
    const token = authorization.startsWith('Bearer ') ? authorization.slice('Bearer '.length).trim() : ''
    if (token === '' || (options.apiKey !== undefined && token !== options.apiKey)) {
      send(response, openAiError(401, 'Incorrect or missing API key.', { code: 'invalid_api_key' }))
      return
    }
    const handler = routes.get(routeKey(recorded.method, recorded.path))
    if (handler === undefined) {
      send(response, openAiError(404, `No test route for ${recorded.method} ${recorded.path}.`))
      return
    }
    const reply = await handler(recorded, response)
    if (reply !== undefined) send(response, reply)
  }

  return {
    requests,
    route: (method, path, handler) => {
      routes.set(routeKey(method, path), handler)
    },
    handle(incoming, response) {
      handle(incoming, response).catch((error: unknown) => {
        const message = error instanceof Error ? error.message : String(error)
        if (!response.headersSent) send(response, openAiError(500, `Test server handler failed: ${message}`))
        else response.destroy()
      })
    },
  }
}

/** Start the server on 127.0.0.1 with an OS-assigned port. Built-in route: `POST /v1/audio/speech`. */
export async function startResponsesServer(options: ResponsesServerOptions = {}): Promise<ResponsesServer> {
  const handler = openAiRouteHandler(options)
  const server = createServer((incoming, response) => handler.handle(incoming, response))

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  // Tests must not hang on a forgotten server: it never keeps the process alive by itself.
  server.unref()
  const { port } = server.address() as AddressInfo
  let closing: Promise<void> | null = null
  const { requests } = handler

  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    port,
    requests,
    requestsTo: (method, path) =>
      requests.filter((r) => r.method === method.toUpperCase() && r.path === path),
    route: (method, path, route) => handler.route(method, path, route),
    close: () => {
      closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
      return closing
    },
  }
}

async function record(incoming: IncomingMessage): Promise<RecordedRequest> {
  const chunks: Buffer[] = []
  for await (const chunk of incoming) chunks.push(chunk as Buffer)
  const rawBody = Buffer.concat(chunks)
  const url = new URL(incoming.url ?? '/', 'http://127.0.0.1')
  let body: unknown = null
  if (rawBody.length > 0) {
    try {
      body = JSON.parse(rawBody.toString('utf8'))
    } catch {
      body = null
    }
  }
  return {
    method: (incoming.method ?? 'GET').toUpperCase(),
    path: url.pathname,
    query: Object.fromEntries(url.searchParams),
    headers: incoming.headers,
    body,
    rawBody,
  }
}

function send(response: ServerResponse, reply: RouteReply): void {
  const isBytes = reply.body instanceof Uint8Array
  const isText = typeof reply.body === 'string'
  const payload = isBytes || isText ? reply.body : JSON.stringify(reply.body)
  const contentType = isBytes ? 'application/octet-stream' : isText ? 'text/plain' : 'application/json'
  response.writeHead(reply.status ?? 200, { 'content-type': contentType, ...reply.headers })
  response.end(payload)
}
