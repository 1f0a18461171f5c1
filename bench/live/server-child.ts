import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'

/** The offline server running in a child process (see offline-server-process.ts). */
export interface ServerChild {
  baseURL: string
  /** CPU the server process has used so far, in ms. */
  cpuMs(): Promise<number>
  stop(): Promise<void>
}

const SCRIPT = fileURLToPath(new URL('./offline-server-process.ts', import.meta.url))

export async function startServerChild(): Promise<ServerChild> {
  const child = spawn(process.execPath, [SCRIPT], { stdio: ['pipe', 'pipe', 'inherit'] })
  const lines: string[] = []
  const waiting: Array<(line: string) => void> = []
  createInterface({ input: child.stdout }).on('line', (line) => {
    const waiter = waiting.shift()
    if (waiter) waiter(line)
    else lines.push(line)
  })
  const exited = once(child, 'exit')
  const nextLine = async (): Promise<Record<string, unknown>> => {
    const line =
      lines.shift() ??
      (await Promise.race([
        new Promise<string>((resolve) => waiting.push(resolve)),
        exited.then(() => {
          throw new Error('bench: the offline server process exited before answering')
        }),
      ]))
    return JSON.parse(line) as Record<string, unknown>
  }

  const ready = await nextLine()
  if (typeof ready.baseURL !== 'string')
    throw new Error(`bench: unexpected server greeting ${JSON.stringify(ready)}`)
  return {
    baseURL: ready.baseURL,
    async cpuMs() {
      child.stdin.write('cpu\n')
      return Number((await nextLine()).cpuMs)
    },
    async stop() {
      child.stdin.end()
      if (child.exitCode === null) await exited
    },
  }
}
