// Silent TCP clients for the idle-connection tests of both servers: sockets that connect and send nothing,
// opened one after another (so the server accepts them in that order) and watched for the server closing them.
import { connect, type Socket } from 'node:net'

export interface IdleSockets {
  /** In the order they connected. */
  sockets: Socket[]
  /** Indexes of the sockets the server has closed so far. */
  closedByServer(): number[]
  destroyAll(): void
}

export async function openIdleSockets(port: number, count: number): Promise<IdleSockets> {
  const sockets: Socket[] = []
  const closed = new Set<number>()
  let destroying = false
  for (let index = 0; index < count; index++) {
    const socket = connect(port, '127.0.0.1')
    // Reading (and discarding) is how the end the server sends is seen; a reset is an end too.
    socket.on('data', () => {})
    socket.on('error', () => {})
    socket.on('close', () => {
      if (!destroying) closed.add(index)
    })
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve)
      socket.once('error', reject)
    })
    sockets.push(socket)
  }
  return {
    sockets,
    closedByServer: () => [...closed].sort((a, b) => a - b),
    destroyAll() {
      destroying = true
      for (const socket of sockets) socket.destroy()
    },
  }
}

/** Polls `probe` every 10 ms until it holds; a bounded wait, never a timed assertion. */
export async function until(probe: () => boolean, what: string, attempts = 1_000): Promise<void> {
  for (let attempt = 0; attempt < attempts; attempt++) {
    if (probe()) return
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
  throw new Error(`never happened: ${what}`)
}
