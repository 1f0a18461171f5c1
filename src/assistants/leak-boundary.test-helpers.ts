// What the leak-boundary tests share (the evaluator-only sentinels, the fault profile sentinels): the stand-ins (the
// offline GPT-Live server, and a loopback Responses API whose model is scripted for the OpenAI reference backend), a
// WebSocket proxy in front of the offline server that records every frame the client sends to GPT-Live, the three
// backend variants an assistant can have, and a client backend wrapper that records every handoff, event and
// answer it saw.
import type { AddressInfo } from 'node:net'
import OpenAI from 'openai'
import { WebSocket, WebSocketServer } from 'ws'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { type ResponsesRequest, responsesRoute } from '../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'
import {
  type AssistantArchitecture,
  clientDelegation,
  offlineClientBackend,
  responsesDelegation,
} from './architectures/index.ts'
import { liveClientBackend } from './architectures/live-client-backend.ts'
import type { ApplicationBackend } from './client/backend/application-backend.ts'

export interface RecordingProxy {
  baseURL: string
  /** Every text frame the client sent, and the upgrade request's headers, as strings. */
  sent: string[]
  close(): Promise<void>
}

/** A WebSocket proxy in front of the offline server that records what the client sends. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const sent: string[] = []
  const wss = new WebSocketServer({ host: '127.0.0.1', port: 0 })
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()))
  wss.on('connection', (client, request) => {
    sent.push(JSON.stringify({ url: request.url, headers: request.headers }))
    const upstream = new WebSocket(target, {
      headers: { authorization: request.headers.authorization ?? '' },
    })
    const queued: string[] = []
    upstream.on('open', () => {
      for (const frame of queued.splice(0)) upstream.send(frame)
    })
    client.on('message', (data) => {
      const frame = data.toString()
      sent.push(frame)
      if (upstream.readyState === WebSocket.OPEN) upstream.send(frame)
      else queued.push(frame)
    })
    upstream.on('message', (data) => client.send(data.toString()))
    upstream.on('close', (code) => client.close(code === 1005 || code === 1006 ? 1000 : code))
    client.on('close', () => upstream.close())
  })
  const { port } = wss.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    sent,
    close() {
      for (const client of wss.clients) client.terminate()
      return new Promise((resolve) => wss.close(() => resolve()))
    },
  }
}

/** Wraps a client backend so the test sees every handoff it got, every event it emitted and every answer. */
export function recordingBackend(inner: ApplicationBackend, seen: string[]): ApplicationBackend {
  return {
    async run(handoff, emit, options) {
      seen.push(JSON.stringify(handoff))
      const recordAndEmit: typeof emit = (event) => {
        seen.push(JSON.stringify(event))
        emit(event)
      }
      const answer = await inner.run(handoff, recordAndEmit, options)
      seen.push(answer)
      return answer
    },
    close: () => inner.close(),
  }
}

/**
 * The reference backend's model, scripted: it calls the tool with these arguments, then, once the tool's output is
 * in its input, answers `answer`. What it is sent is recorded by the Responses test server.
 */
export function scriptedBackendModel(tool: string, args: Record<string, unknown>, answer: string) {
  return (request: ResponsesRequest) => {
    const items = Array.isArray(request.input) ? request.input : []
    const answered = items.some((item) => item.type === 'function_call_output')
    return {
      output: [
        answered
          ? { type: 'message' as const, text: answer }
          : { type: 'function_call' as const, name: tool, arguments: JSON.stringify(args) },
      ],
    }
  }
}

export interface SentinelStandIns {
  server: OfflineLiveServer
  responsesApi: ResponsesServer
  close(): Promise<void>
}

/** The offline GPT-Live server, and a Responses API whose model calls `tool` with `args`, then answers `answer`. */
export async function startSentinelStandIns(
  tool: string,
  args: Record<string, unknown>,
  answer: string,
): Promise<SentinelStandIns> {
  const server = await startOfflineLiveServer()
  const responsesApi = await startResponsesServer({
    routes: { 'POST /v1/responses': responsesRoute({ respond: scriptedBackendModel(tool, args, answer) }) },
  })
  return {
    server,
    responsesApi,
    close: async () => {
      await server.close()
      await responsesApi.close()
    },
  }
}

/** Every backend an assistant under test can have: Responses delegation, client delegation (offline, reference). */
export const BACKEND_VARIANTS = [
  'responses',
  'client, offline backend',
  'client, OpenAI reference backend',
] as const
export type BackendVariant = (typeof BACKEND_VARIANTS)[number]

/**
 * The architecture of a variant, and what its backend was given from now on: the offline backend's handoffs,
 * events and answers, or every request body the OpenAI reference backend sends to `responsesApi`.
 */
export function recordedVariant(
  variant: BackendVariant,
  responsesApi: ResponsesServer,
): { architecture: AssistantArchitecture; backendSaw: () => string[] } {
  if (variant === 'responses') return { architecture: responsesDelegation(), backendSaw: () => [] }
  if (variant === 'client, offline backend') {
    const seen: string[] = []
    const architecture = clientDelegation((context) => recordingBackend(offlineClientBackend(context), seen))
    return { architecture, backendSaw: () => seen }
  }
  const before = responsesApi.requestsTo('POST', '/v1/responses').length
  const client = new OpenAI({ apiKey: 'test-backend-key', baseURL: responsesApi.baseURL, maxRetries: 0 })
  // The live wiring itself (plan backend instructions, client tool definitions, runtime callback).
  const backend = liveClientBackend(
    { credentials: { openai_api_key: null, responses_api_key: null, client_assistant_token: null } },
    { client },
  )
  const bodies = () =>
    responsesApi
      .requestsTo('POST', '/v1/responses')
      .slice(before)
      .map((request) => request.rawBody.toString('utf8'))
  return { architecture: clientDelegation(backend), backendSaw: bodies }
}
