import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { RawLiveClient } from '../testing/live-server/test-support.ts'
import { captureIO } from './capture-io.ts'
import { offlineServerCommand, parseOfflineServerArgs } from './offline-server.ts'

const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

describe('live-evals offline-server', () => {
  it('parses --port N, --port=N and repeated --dataset FILE, and refuses anything else', () => {
    expect(parseOfflineServerArgs([])).toEqual({ port: 0, datasets: [] })
    expect(parseOfflineServerArgs(['--port', '8123'])).toEqual({ port: 8123, datasets: [] })
    expect(parseOfflineServerArgs(['--port=0'])).toEqual({ port: 0, datasets: [] })
    expect(parseOfflineServerArgs(['--dataset', 'a.json', '--dataset=b.json', '--port', '1'])).toEqual({
      port: 1,
      datasets: ['a.json', 'b.json'],
    })
    expect(parseOfflineServerArgs(['--port', 'x'])).toHaveProperty('error')
    expect(parseOfflineServerArgs(['--port', '70000'])).toHaveProperty('error')
    expect(parseOfflineServerArgs(['--verbose'])).toHaveProperty('error')
    expect(parseOfflineServerArgs(['--dataset'])).toEqual({ error: '--dataset needs a dataset file' })
    expect(parseOfflineServerArgs(['--dataset', '--port', '1'])).toEqual({
      error: '--dataset needs a dataset file',
    })
  })

  it('exits 2 on a bad argument', async () => {
    const capture = captureIO()
    expect(await offlineServerCommand(['--port'], capture)).toBe(2)
    expect(capture.stderr()).toContain('--port needs an integer')
  })

  it('exits 2 for a broken dataset, naming the file, the scenario and the field', async () => {
    const broken = join(repoRoot, 'src/vitest/fixtures/bad-dataset.json')
    const capture = captureIO()
    expect(await offlineServerCommand(['--dataset', broken], capture)).toBe(2)
    expect(capture.stderr()).toContain('a dataset is broken')
    expect(capture.stderr()).toContain(broken)
    expect(capture.stderr()).toMatch(/scenarios\[\d+\]\.\w+/)
    const missing = join(repoRoot, 'no-such-dataset.json')
    const again = captureIO()
    expect(await offlineServerCommand(['--dataset', missing], again)).toBe(2)
    expect(again.stderr()).toContain(missing)
  })

  it('prints the live environment first, accepts any bearer token, refuses a missing one, and stops when told', async () => {
    const capture = captureIO()
    const stop = new AbortController()
    const running = offlineServerCommand(['--port', '0'], capture, stop.signal)
    await expect.poll(() => capture.stdout()).toMatch(/\n/)
    const env = environmentOf(capture.stdout().split('\n')[0] ?? '')
    const url = liveUrlOf(env)
    expect(env.OPENAI_BASE_URL).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1$/)
    expect(env.OPENAI_LIVE_ENDPOINT).toBe(env.OPENAI_BASE_URL)
    expect(env.OPENAI_LIVE_ALLOW_INSECURE_LOOPBACK).toBe('true')
    expect(env.OPENAI_API_KEY).toMatch(/\S/)
    await expect(RawLiveClient.connect(url, null)).rejects.toThrow('HTTP 401')
    const client = await RawLiveClient.connect(url, 'any-key-at-all')
    await client.start()
    client.close()
    // That session had no instructions, as a live run's preflight check has: no warning. A session whose
    // instructions belong to no rehearsed scenario is warned about.
    expect(capture.stderr()).not.toContain('no rehearsed scenario')
    const stranger = await RawLiveClient.connect(url, 'any-key-at-all')
    await stranger.start({
      model: 'gpt-live-1',
      instructions: 'You are a travel agent for a scenario nobody rehearsed.',
    })
    stranger.close()
    expect(capture.stderr()).toContain('belong to no rehearsed scenario')
    stop.abort()
    expect(await running).toBe(0)
  })

  it('as a process: the first stdout line is the environment, and SIGTERM stops it with exit code 0', async () => {
    const { child, url } = await spawnServer()
    try {
      const client = await RawLiveClient.connect(url, 'token')
      await client.start()
      client.close()
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })

  it('as a process: the frames that used to kill it (4.3 M base64 characters, tools nested 10,000 deep) are refused and it keeps serving', async () => {
    const { child, url } = await spawnServer()
    try {
      const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
      const nested = await RawLiveClient.connect(url, 'nested')
      nested.sendText(
        `{"type":"session.start","session":{"model":"gpt-live-1","delegation":{"type":"responses","responses":{"model":"m","tools":[{"type":"function","name":"f","parameters":{"p":${deep}}}]}}}}`,
      )
      expect(await nested.waitFor((event) => event.type === 'error')).toMatchObject({
        error: { code: 'nesting_too_deep' },
      })
      const flood = await RawLiveClient.connect(url, 'flood')
      await flood.start()
      // Too large to be parsed, so the error cannot name the frame's event_id.
      flood.send({ type: 'session.input_audio.append', event_id: 'big', audio: 'A'.repeat(4_300_000) })
      expect(await flood.waitFor((event) => event.type === 'error')).toMatchObject({
        error: { code: 'frame_too_large' },
      })
      const after = await RawLiveClient.connect(url, 'after')
      await after.start()
      after.send({ type: 'session.close', event_id: 'bye' })
      await after.waitFor((event) => event.type === 'session.closed')
      for (const client of [nested, flood, after]) client.close()
      expect(child.exitCode).toBeNull()
    } finally {
      child.kill('SIGKILL')
    }
  })
})

/** Spawns `live-evals offline-server --port 0` and reads the URL from its first stdout line. */
async function spawnServer() {
  const child = spawn(process.execPath, ['bin/live-evals.js', 'offline-server', '--port', '0'], {
    cwd: repoRoot,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const lines = createInterface({ input: child.stdout })
  const line = await new Promise<string>((resolve, reject) => {
    lines.once('line', resolve)
    child.once('exit', (code) => reject(new Error(`exited early with ${code}`)))
  })
  const url = liveUrlOf(environmentOf(line))
  expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/v1\/live\/sessions$/)
  return { child, url }
}

/** The `NAME=value NAME=value` first line as a record. */
function environmentOf(line: string): Record<string, string> {
  return Object.fromEntries(
    line.split(' ').map((pair) => [pair.slice(0, pair.indexOf('=')), pair.slice(pair.indexOf('=') + 1)]),
  )
}

/** Where LiveWS dials for a GPT-Live endpoint `http://host/v1`. */
function liveUrlOf(env: Record<string, string>): string {
  return `${(env.OPENAI_LIVE_ENDPOINT ?? '').replace(/^http/, 'ws')}/live/sessions`
}
