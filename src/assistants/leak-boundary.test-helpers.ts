// What the leak-boundary tests share: a WebSocket proxy in front of the offline server that records every frame the
// client sends to GPT-Live, and a client backend wrapper that records every handoff, event and answer it saw.
import type { AddressInfo } from 'node:net'
import { WebSocket, WebSocketServer } from 'ws'
import type { ResponsesRequest } from '../testing/responses-server/responses-route.ts'
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
