// A loopback front for the rehearsal server that notes which key each request carried, so a test can prove each
// part of a live run used its own configured credentials. It forwards every HTTP request and WebSocket upgrade to
// the server unchanged (bytes in both directions) and keeps, per request, its path, its bearer token and, for a
// JSON body, the body (a Responses request says whose it is: the observer's or the judge's text format, or the
// client backend's instructions).
import { createServer, request as httpRequest, type IncomingMessage } from 'node:http'
import { type AddressInfo, connect } from 'node:net'

export interface SeenRequest {
  kind: 'http' | 'upgrade'
  method: string
  path: string
  /** The bearer token, or null without one. */
  token: string | null
  body: unknown
}

export interface KeyRecordingProxy {
  /** http://127.0.0.1:PORT/v1 */
  baseURL: string
  readonly seen: readonly SeenRequest[]
  close(): Promise<void>
}

const tokenOf = (request: IncomingMessage) =>
  /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1] ?? null

const parsed = (text: string): unknown => {
  try {
    return JSON.parse(text)
  } catch {
    return null
  }
}

export async function startKeyRecordingProxy(targetPort: number): Promise<KeyRecordingProxy> {
  const seen: SeenRequest[] = []
  /** Upgraded sockets leave the HTTP server's books; they are ended at close from here. */
  const tunnels = new Set<{ destroy(): void }>()
  const server = createServer((incoming, response) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const body = Buffer.concat(chunks)
      seen.push({
        kind: 'http',
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        token: tokenOf(incoming),
        body: parsed(body.toString('utf8')),
      })
      const upstream = httpRequest(
        {
          host: '127.0.0.1',
          port: targetPort,
          method: incoming.method,
          path: incoming.url,
          headers: incoming.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers)
          answer.pipe(response)
        },
      )
      upstream.on('error', () => response.destroy())
      upstream.end(body)
    })
  })
  server.on('upgrade', (incoming: IncomingMessage, socket, head: Buffer) => {
    seen.push({
      kind: 'upgrade',
      method: incoming.method ?? '',
      path: incoming.url ?? '',
      token: tokenOf(incoming),
      body: null,
    })
    const upstream = connect(targetPort, '127.0.0.1', () => {
      const headers: string[] = []
      for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
        headers.push(`${incoming.rawHeaders[index]}: ${incoming.rawHeaders[index + 1]}`)
      }
      upstream.write(`${incoming.method} ${incoming.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`)
      upstream.write(head)
      socket.pipe(upstream).pipe(socket)
    })
    tunnels.add(socket)
    tunnels.add(upstream)
    const drop = () => {
      socket.destroy()
      upstream.destroy()
    }
    upstream.on('error', drop)
    socket.on('error', drop)
    upstream.on('close', () => socket.destroy())
    socket.on('close', () => upstream.destroy())
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()))
  const { port } = server.address() as AddressInfo
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const tunnel of tunnels) tunnel.destroy()
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
