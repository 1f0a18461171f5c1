// `live-evals client-assistant`: the command-line checks (loopback host, exact origins, port), the token check
// at start, and a running service whose first two lines are its URL and its backend with the reason.
import { spawn } from 'node:child_process'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { captureIO } from './capture-io.ts'
import { clientAssistantCommand, DEFAULT_PORT, parseClientAssistantArgs } from './client-assistant.ts'

const TOKEN = 'cli-test-token-0123456789-abcdefghijkl'
const repoRoot = fileURLToPath(new URL('../../', import.meta.url))

describe('live-evals client-assistant arguments', () => {
  it('defaults to 127.0.0.1:8795 with no origins and the refusal of scenario state', () => {
    expect(parseClientAssistantArgs([])).toEqual({
      host: '127.0.0.1',
      port: DEFAULT_PORT,
      allowedOrigins: [],
      offline: false,
      acceptScenarioState: false,
    })
    expect(DEFAULT_PORT).toBe(8795)
  })

  it('takes loopback hosts, a port, repeated origins and the two flags', () => {
    expect(
      parseClientAssistantArgs([
        '--host=::1',
        '--port',
        '0',
        '--allow-origin',
        'https://example.com',
        '--allow-origin=http://localhost:5173',
        '--offline',
        '--accept-scenario-state',
      ]),
    ).toEqual({
      host: '::1',
      port: 0,
      allowedOrigins: ['https://example.com', 'http://localhost:5173'],
      offline: true,
      acceptScenarioState: true,
    })
  })

  it.each([
    [['--host', '0.0.0.0'], 'The reference assistant must bind to a loopback address'],
    [['--host', '10.0.0.2'], 'The reference assistant must bind to a loopback address'],
    [['--allow-origin', 'https://example.com/app'], 'Allowed Origins must be exact HTTP(S) origins'],
    [['--allow-origin', 'null'], 'Allowed Origins must be exact HTTP(S) origins'],
    [['--port', '65536'], '--port needs an integer'],
    [['--port', 'http'], '--port needs an integer'],
    [['--verbose'], 'Unknown option'],
    [['serve'], 'serve'],
  ])('refuses %j', (argv, message) => {
    const parsed = parseClientAssistantArgs(argv)
    expect(parsed).toHaveProperty('error')
    expect((parsed as { error: string }).error).toContain(message)
  })

  it('exits 2 with the reason and the usage for a bad command line', async () => {
    const capture = captureIO()
    expect(await clientAssistantCommand(['--host', '0.0.0.0'], capture, { env: {} })).toBe(2)
    expect(capture.stderr()).toContain('must bind to a loopback address')
    expect(capture.stderr()).toContain('Usage: live-evals client-assistant')
    expect(capture.stdout()).toBe('')
  })
})

describe('live-evals client-assistant at start', () => {
  it.each([
    [{}, 'must contain a separate random token'],
    [{ OPENAI_CLIENT_ASSISTANT_TOKEN: 'short' }, 'must contain a separate random token'],
    [{ OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN, OPENAI_API_KEY: TOKEN }, 'must not reuse an OpenAI API key'],
  ])('exits 1 without listening when the token is refused (%j)', async (env, message) => {
    const capture = captureIO()
    expect(await clientAssistantCommand(['--port', '0'], capture, { env })).toBe(1)
    expect(capture.stderr()).toContain(`OPENAI_CLIENT_ASSISTANT_TOKEN ${message}`)
    expect(capture.stderr()).not.toContain(TOKEN)
    expect(capture.stdout()).toBe('')
  })

  it('prints the URL, then the offline backend and why; serves health and authenticated sessions; stops', async () => {
    const capture = captureIO()
    const stop = new AbortController()
    const running = clientAssistantCommand(
      ['--port', '0', '--allow-origin', 'https://example.com'],
      capture,
      {
        env: { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN },
        stop: stop.signal,
      },
    )
    await expect.poll(() => capture.stdout().split('\n').length).toBeGreaterThanOrEqual(3)
    const [url = '', backend] = capture.stdout().split('\n')
    expect(url).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws\/assistant$/)
    expect(backend).toBe(
      'backend: offline (the deterministic restaurant backend), because neither OPENAI_RESPONSES_API_KEY nor OPENAI_API_KEY is set',
    )
    const health = await fetch(url.replace('ws://', 'http://').replace('/ws/assistant', '/health'))
    expect(await health.json()).toEqual({ status: 'ok', assistant: 'client' })
    const ready = await new Promise<unknown>((resolve, reject) => {
      const socket = new WebSocket(url, {
        headers: { Authorization: `Bearer ${TOKEN}`, Origin: 'https://example.com' },
      })
      socket.once('open', () => socket.send(JSON.stringify({ type: 'session.configure', initial_items: [] })))
      socket.once('message', (data) => {
        resolve(JSON.parse(data.toString()))
        socket.close()
      })
      socket.once('error', reject)
    })
    expect(ready).toEqual({ type: 'session.ready', application_state: {} })
    stop.abort()
    expect(await running).toBe(0)
  })

  it('says the OpenAI backend when a key is set, and --offline overrides it', async () => {
    for (const [argv, expected] of [
      [[], 'backend: OpenAI Responses (model gpt-5.6-terra'],
      [['--offline'], 'backend: offline (the deterministic restaurant backend), because --offline was given'],
    ] as const) {
      const capture = captureIO()
      const stop = new AbortController()
      const running = clientAssistantCommand(['--port', '0', ...argv], capture, {
        env: { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN, OPENAI_API_KEY: 'sk-not-used-here' },
        stop: stop.signal,
        baseURL: 'http://127.0.0.1:9/v1',
      })
      await expect.poll(() => capture.stdout().split('\n').length).toBeGreaterThanOrEqual(3)
      expect(capture.stdout().split('\n')[1]).toContain(expected)
      expect(capture.stdout()).not.toContain('sk-not-used-here')
      stop.abort()
      expect(await running).toBe(0)
    }
  })

  it('exits 1 when the port is taken', async () => {
    const capture = captureIO()
    const stop = new AbortController()
    const env = { OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN }
    const first = clientAssistantCommand(['--port', '0'], capture, { env, stop: stop.signal })
    await expect.poll(() => capture.stdout()).toMatch(/\n/)
    const port = /:(\d+)\//.exec(capture.stdout())?.[1] ?? ''
    const second = captureIO()
    expect(await clientAssistantCommand(['--port', port], second, { env })).toBe(1)
    expect(second.stderr()).toContain('EADDRINUSE')
    stop.abort()
    expect(await first).toBe(0)
  })
})

describe('live-evals client-assistant as a process', () => {
  it('prints the URL then the backend as its first two lines, and SIGTERM stops it with exit code 0', async () => {
    const { OPENAI_API_KEY: _a, OPENAI_RESPONSES_API_KEY: _b, ...rest } = process.env
    const child = spawn(process.execPath, ['bin/live-evals.js', 'client-assistant', '--port', '0'], {
      cwd: repoRoot,
      env: { ...rest, OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    try {
      const lines = createInterface({ input: child.stdout })
      const firstTwo = await new Promise<string[]>((resolve, reject) => {
        const seen: string[] = []
        lines.on('line', (line) => {
          seen.push(line)
          if (seen.length === 2) resolve(seen)
        })
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)))
      })
      expect(firstTwo[0]).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/ws\/assistant$/)
      expect(firstTwo[1]).toMatch(
        /^backend: offline .*because neither OPENAI_RESPONSES_API_KEY nor OPENAI_API_KEY is set$/,
      )
      const health = await fetch(
        (firstTwo[0] ?? '').replace('ws://', 'http://').replace('/ws/assistant', '/health'),
      )
      expect(health.status).toBe(200)
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve))
      child.kill('SIGTERM')
      expect(await exited).toBe(0)
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL')
    }
  })
})
