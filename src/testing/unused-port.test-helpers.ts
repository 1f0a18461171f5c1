// A loopback port nothing listens on: a test points a client at it to see a refused connection, or hands it to a
// server it starts next (Vitest's UI, which takes a port, not 0). Bound on port 0 and closed again, so the port was
// free a moment ago; nothing else on this machine picks it in between except by the same chance as any port 0.
import { createServer } from 'node:net'

export async function unusedLoopbackPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening))
  const address = server.address()
  await new Promise<void>((closed) => server.close(() => closed()))
  if (address === null || typeof address === 'string') throw new Error('a port-0 listener reported no port')
  return address.port
}
