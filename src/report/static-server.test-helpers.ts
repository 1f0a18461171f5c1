// A loopback HTTP server for a folder, with byte ranges (the browser seeks WAV audio through them). Test support
// for the browser test and the report bench: 127.0.0.1, port 0, GET only, nothing outside the folder.

import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { extname, join, normalize, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.wav': 'audio/wav',
  '.svg': 'image/svg+xml',
  '.json': 'application/json',
}

export interface StaticServer extends AsyncDisposable {
  origin: string
  /** Every path requested, in order. */
  requested: string[]
}

export async function serveFolder(root: string): Promise<StaticServer> {
  const requested: string[] = []
  const server = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1')
    requested.push(url.pathname)
    const relativePath = normalize(decodeURIComponent(url.pathname)).replace(/^[/\\]+/, '')
    const path = join(root, relativePath)
    if (request.method !== 'GET' || relativePath.split(sep).includes('..')) {
      response.writeHead(403).end()
      return
    }
    let size: number
    try {
      const info = await stat(path)
      if (!info.isFile()) throw new Error('not a file')
      size = info.size
    } catch {
      response.writeHead(404).end()
      return
    }
    const type = TYPES[extname(path)] ?? 'application/octet-stream'
    const range = /^bytes=(\d*)-(\d*)$/.exec(request.headers.range ?? '')
    if (range === null) {
      response.writeHead(200, { 'content-type': type, 'content-length': size, 'accept-ranges': 'bytes' })
      createReadStream(path).pipe(response)
      return
    }
    const start = range[1] === '' ? Math.max(0, size - Number(range[2])) : Number(range[1])
    const end = range[1] !== '' && range[2] !== '' ? Math.min(size - 1, Number(range[2])) : size - 1
    if (start > end || start >= size) {
      response.writeHead(416, { 'content-range': `bytes */${size}` }).end()
      return
    }
    response.writeHead(206, {
      'content-type': type,
      'content-length': end - start + 1,
      'content-range': `bytes ${start}-${end}/${size}`,
      'accept-ranges': 'bytes',
    })
    createReadStream(path, { start, end }).pipe(response)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    requested,
    [Symbol.asyncDispose]: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
