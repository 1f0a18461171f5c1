import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { RawLiveClient } from '../testing/live-server/test-support.ts'
import { captureIO } from './capture-io.ts'
import { offlineServerCommand, parseOfflineServerArgs } from './offline-server.ts'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

describe('live-evals offline-server', () => {
  it('parses --port N and --port=N, and refuses anything else', () => {
    expect(parseOfflineServerArgs([])).toEqual({ port: 0 })
    expect(parseOfflineServerArgs(['--port', '8123'])).toEqual({ port: 8123 })
    expect(parseOfflineServerArgs(['--port=0'])).toEqual({ port: 0 })
    expect(parseOfflineServerArgs(['--port', 'x'])).toHaveProperty('error')
    expect(parseOfflineServerArgs(['--port', '70000'])).toHaveProperty('error')
    expect(parseOfflineServerArgs(['--verbose'])).toHaveProperty('error')
  })

  it('exits 2 on a bad argument', async () => {
    const capture = captureIO()
    expect(await offlineServerCommand(['--port'], capture)).toBe(2)
    expect(capture.stderr()).toContain('--port needs an integer')
  })

  it('prints the URL first, accepts any bearer token, refuses a missing one, and stops when told', async () => {
    const capture = captureIO()
    const stop = new AbortController()
    const running = offlineServerCommand(['--port', '0'], capture, stop.signal)
    await expect.poll(() => capture.stdout()).toMatch(/\n/)
    const url = capture.stdout().split('\n')[0] ?? ''
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/live\/sessions$/)
    await expect(RawLiveClient.connect(url, null)).rejects.toThrow('HTTP 401')
    const client = await RawLiveClient.connect(url, 'any-key-at-all')
    await client.start()
    client.close()
    stop.abort()
    expect(await running).toBe(0)
  })

  it('as a process: the first stdout line is the URL, and SIGTERM stops it with exit code 0', async () => {
    const child = spawn(process.execPath, ['bin/live-evals.js', 'offline-server', '--port', '0'], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const lines = createInterface({ input: child.stdout })
      const first = await new Promise<string>((resolve, reject) => {
        lines.once('line', resolve)
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)))
      })
      expect(first).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/live\/sessions$/)
      const client = await RawLiveClient.connect(first, 'token')
      await client.start()
      client.close()
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
