// Benchmark: N concurrent real-time RUN conversations, two GPT-Live sessions each (the simulated caller and the
// assistant under test), driven by the live RUN driver (src/phases/run/live) against the offline GPT-Live server
// in its own process. Every conversation is a real call: the caller opens, the assistant books through its
// Responses backend, each side hears the other through the caption bridge, and the call drains after the
// farewell (or stops at --max-seconds).
//
// Run: npx node bench/run-realtime.ts [--conversations 32] [--max-seconds 60] [--tick-ms 200] [--aligned]
//        [--cpu-prof] [--trace-gc] [--gc-survivors] [--compare <worktree of the previous commit> [--rounds 2]]
//
// --cpu-prof writes this process's CPU profile (in the temp folder; open it in Chrome's DevTools) and prints the
// functions with the most self time, and those inside the event loop's long tasks (>= 15 ms), where frames go
// late. --trace-gc prints this process's garbage collections while the calls ran (count, total and longest
// pause by kind). --gc-survivors prints where the objects that outlived a scavenge were allocated, what each
// scavenge pause copies (bench/gc-survivors.ts). --compare runs the bench of another checkout (the "before") and
// this one alternately, each in its own process with the same arguments, --rounds times, and prints both side by
// side: absolute figures on a shared machine move with its load, so compare the ratio to the timers-only baseline
// of the same run.
//
// It prints this process's CPU (user+system, per conversation and as a share of the cores), the server
// process's CPU apart, RSS per conversation (peak RSS while the calls ran minus the RSS before they started,
// divided by N), event-loop delay, and the relay lateness: for every 20 ms frame of every call, how late its
// paired sends (caller's and assistant's input in the same slot) went out against the media clock's absolute
// schedule; then, for comparison, the lateness of as many bare 20 ms timer schedules on the same machine (what
// timers alone give at that load), 10 s right after the calls and 10 s before them on the harness's schedule, 10 s
// right after on bare timers (bare-timers.ts: without the loop waker), and the same schedules on bare timers in a
// process of their own during the calls (timers-alongside.ts: the machine's load without the client's event
// loop), and the under-way p99 over each. Figures are measured within one run; nothing here is a test.
//
// The server process is this file started with --serve: it builds the session scripts itself (behaviours are
// functions and cannot cross a pipe) and takes `hear` lines for the caption bridge.
import { spawn } from 'node:child_process'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { responsesDelegation } from '../src/assistants/architectures/index.ts'
import { models } from '../src/assistants/assistant-session.fixtures.ts'
import { type PacingClock, paceFrames } from '../src/audio/pacing.ts'
import { FRAME_MS } from '../src/audio/pcm.ts'
import { callerBriefOf } from '../src/phases/run/brief.ts'
import { runLiveConversation } from '../src/phases/run/live/conversation.ts'
import { scriptedCaller, TranscriptBridge } from '../src/phases/run/live/live-conversation.test-helpers.ts'
import { observerFactsOf } from '../src/phases/run/live/observer-call.ts'
import type { LiveConversation } from '../src/phases/run/live/result.ts'
import { DEFAULT_LIVE_RULES } from '../src/phases/run/live/rules.ts'
import { scriptedCallerLines } from '../src/phases/run/offline-caller.ts'
import { percentile as nearestRank } from '../src/reporting/statistics.ts'
import { loadDataset } from '../src/scenarios/load.ts'
import type { Scenario } from '../src/scenarios/scenario.ts'
import { assistantVisibleInput } from '../src/scenarios/visible.ts'
import { type HeardUtterance, startOfflineLiveServer } from '../src/testing/live-server/index.ts'
import { sizeRealTimeHeap } from '../src/vitest/plugin/real-time-heap.ts'
import { bareTimersClock } from './bare-timers.ts'
import { cpuProfile, type Diagnostic, gcTrace } from './cpu-profile.ts'
import { gcSurvivors } from './gc-survivors.ts'
import { median } from './median.ts'
import { compare } from './run-realtime-diagnostics.ts'
import { startTimersAlongside } from './timers-alongside.ts'

const SCENARIO_ID = 'run_001_booking_complete'
const BRIDGE_QUIET_MS = { toAssistant: 700, toCaller: 1_500 }

async function scenario(): Promise<Scenario> {
  const dataset = await loadDataset(
    fileURLToPath(new URL('../scenarios/run/restaurant.json', import.meta.url)),
  )
  const found = dataset.scenarios.find((candidate) => candidate.id === SCENARIO_ID)
  if (found === undefined) throw new Error(`bench: no bundled RUN scenario ${SCENARIO_ID}`)
  return found as Scenario
}

/** The caller's lines after its opening (the opening itself is the commentary trigger). */
function callerLines(chosen: Scenario): string[] {
  const parameters = chosen.simulation_parameters
  if (parameters === null) throw new Error(`bench: ${SCENARIO_ID} has no simulation parameters`)
  return scriptedCallerLines(parameters, chosen.input.text)
    .slice(1)
    .map((line) => line.text)
}

type Request =
  | { id: number; op: 'register'; assistantToken: string; callerToken: string }
  | { id: number; op: 'cpu' }
  | { op: 'hear'; token: string; utterance: HeardUtterance }

/** The server process: the offline server, session scripts built here, commands on stdin, answers on stdout. */
async function serve(): Promise<void> {
  const chosen = await scenario()
  const server = await startOfflineLiveServer()
  const visibleInput = assistantVisibleInput(chosen)
  const architecture = responsesDelegation()
  const reply = (value: object) => process.stdout.write(`${JSON.stringify(value)}\n`)
  reply({ baseURL: server.baseURL })
  const lines = createInterface({ input: process.stdin })
  lines.on('line', (line) => {
    const request = JSON.parse(line) as Request
    try {
      if (request.op === 'register') {
        server.registerSession(request.assistantToken, {
          hearing: [],
          behaviour: architecture.offlineBehaviour(visibleInput),
        })
        server.registerSession(request.callerToken, {
          hearing: [],
          behaviour: scriptedCaller(callerLines(chosen)).behaviour,
        })
        reply({ id: request.id, ok: true })
      } else if (request.op === 'cpu') {
        const usage = process.cpuUsage()
        reply({ id: request.id, cpuMs: (usage.user + usage.system) / 1000 })
      } else server.hear(request.token, request.utterance)
    } catch (error) {
      process.stderr.write(`bench server: ${error instanceof Error ? error.message : String(error)}\n`)
    }
  })
  lines.on('close', () => {
    void server.close().then(() => process.exit(0))
  })
}

interface ServerProcess {
  baseURL: string
  register(assistantToken: string, callerToken: string): Promise<void>
  hear(token: string, utterance: HeardUtterance): void
  cpuMs(): Promise<number>
  stop(): Promise<void>
}

async function startServerProcess(): Promise<ServerProcess> {
  const child = spawn(process.execPath, [fileURLToPath(import.meta.url), '--serve'], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const waiting = new Map<number | 'ready', (value: Record<string, unknown>) => void>()
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as Record<string, unknown>
    const key = typeof message.id === 'number' ? message.id : 'ready'
    waiting.get(key)?.(message)
    waiting.delete(key)
  })
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()))
  const answer = (key: number | 'ready') =>
    Promise.race([
      new Promise<Record<string, unknown>>((resolve) => waiting.set(key, resolve)),
      exited.then(() => {
        throw new Error('bench: the server process exited before answering')
      }),
    ])
  const ready = await answer('ready')
  let nextId = 0
  const ask = (request: object) => {
    const id = ++nextId
    const answered = answer(id)
    child.stdin.write(`${JSON.stringify({ ...request, id })}\n`)
    return answered
  }
  return {
    baseURL: String(ready.baseURL),
    register: async (assistantToken, callerToken) => {
      await ask({ op: 'register', assistantToken, callerToken })
    },
    hear: (token, utterance) => child.stdin.write(`${JSON.stringify({ op: 'hear', token, utterance })}\n`),
    cpuMs: async () => Number((await ask({ op: 'cpu' })).cpuMs),
    stop: async () => {
      child.stdin.end()
      await exited
    },
  }
}

/**
 * The same number of 20 ms schedules with a consumer that does nothing: what the timers alone give on this machine
 * at this load, on the harness's shared schedule (its loop waker included) unless `clock` says otherwise. Stalled
 * frames count with their lateness against the missed slot.
 */
async function timersOnly(count: number, seconds: number, clock?: PacingClock): Promise<number[]> {
  const frames = Array.from({ length: (seconds * 1000) / FRAME_MS }, () => null)
  const origin = performance.now() + FRAME_MS
  const reports = await Promise.all(
    Array.from({ length: count }, (_, index) =>
      paceFrames(frames, () => true, {
        startAtMs: origin + (index * FRAME_MS) / count,
        ...(clock === undefined ? {} : { clock }),
      }),
    ),
  )
  return reports
    .flatMap((report) => {
      const missed = new Map(report.stalls.map((stall) => [stall.frameIndex, stall.lateMs]))
      return report.frames.map((frame) => missed.get(frame.index) ?? frame.lateMs)
    })
    .sort((a, b) => a - b)
}

/** The reports' nearest-rank percentile, NaN (printed as such) for no values. */
const percentile = (sorted: readonly number[], p: number) => nearestRank(sorted, p) ?? Number.NaN

/** Wall-clock milestones of one conversation (ms since the benchmark's origin). */
interface Milestones {
  begun: number
  started: number | null
  played: number | null
  done: number | null
}

async function oneConversation(
  server: ServerProcess,
  chosen: Scenario,
  index: number,
  settings: { maxSeconds: number; tickMs: number },
  milestones: Milestones,
): Promise<LiveConversation> {
  const assistantToken = `bench-assistant-${index}`
  const callerToken = `bench-caller-${index}`
  await server.register(assistantToken, callerToken)
  const lines = callerLines(chosen)
  let forwardedToCaller = 0
  // Longer pauses than the tests' bridges (300 / 1000 ms): a busy server process can fall silent for a few
  // hundred milliseconds mid-utterance, which a shorter pause would take for the end of the utterance.
  const toAssistant = new TranscriptBridge(server, assistantToken, BRIDGE_QUIET_MS.toAssistant)
  // The scripted caller says one line per thing it hears; once its lines are said it stops listening.
  const toCaller = new TranscriptBridge(
    {
      hear: (token, utterance) => {
        forwardedToCaller += 1
        server.hear(token, utterance)
      },
    },
    callerToken,
    BRIDGE_QUIET_MS.toCaller,
    () => forwardedToCaller < lines.length,
  )
  const architecture = responsesDelegation()
  const visibleInput = assistantVisibleInput(chosen)
  const connection = (apiKey: string) => ({ apiKey, baseURL: server.baseURL, allowInsecureLoopback: true })
  return runLiveConversation({
    visibleInput,
    architecture,
    application: architecture.createApplication(visibleInput),
    models,
    callerModel: models.liveModel,
    brief: callerBriefOf(chosen, 'caller'),
    callerBackend: { model: 'gpt-5.6-luna', reasoningEffort: 'low' },
    connections: { assistant: connection(assistantToken), caller: connection(callerToken) },
    observerFacts: observerFactsOf(chosen),
    backchannels: chosen.simulation_parameters?.persona.backchannels ?? [],
    clock: { mode: 'real_time', tickMs: settings.tickMs },
    preset: { condition: 'clean', seed: 7 },
    assistantFirstPrompt: null,
    rules: { ...DEFAULT_LIVE_RULES, maxDurationMs: settings.maxSeconds * 1000 },
    observer: null,
    hooks: {
      sessionsStarted: ({ assistant, caller }) => {
        milestones.started = performance.now()
        // The end of the relay: the first session.close either session sends.
        for (const session of [assistant.session, caller]) {
          session.onSent(({ event }) => {
            if (event.type === 'session.close') milestones.played ??= performance.now()
          })
        }
        toAssistant.attach(caller)
        toCaller.attach(assistant.session)
      },
      afterStep: (nowMs) => {
        toAssistant.afterStep(nowMs)
        toCaller.afterStep(nowMs)
      },
    },
  })
}

const USAGE =
  'usage: run-realtime.ts [--conversations N>=1] [--max-seconds S>0] [--tick-ms a multiple of 20] [--aligned] ' +
  '[--cpu-prof] [--trace-gc] [--gc-survivors] [--compare <checkout> [--rounds N>=1]]'

/** The command line's options; null (after printing why and the usage line) when they are not usable. */
function options() {
  let parsed: ReturnType<typeof parseOptions>
  try {
    parsed = parseOptions()
  } catch (error) {
    console.error(`${(error as Error).message}\n${USAGE}`)
    return null
  }
  const { values } = parsed
  const count = Number(values.conversations)
  const maxSeconds = Number(values['max-seconds'])
  const tickMs = Number(values['tick-ms'])
  const rounds = Number(values.rounds)
  if (
    !Number.isInteger(count) ||
    count < 1 ||
    !(maxSeconds > 0) ||
    !Number.isInteger(tickMs) ||
    tickMs % 20 !== 0 ||
    !Number.isInteger(rounds) ||
    rounds < 1
  ) {
    console.error(USAGE)
    return null
  }
  return { values, count, maxSeconds, tickMs, rounds }
}

function parseOptions() {
  return parseArgs({
    options: {
      conversations: { type: 'string', default: '32' },
      'max-seconds': { type: 'string', default: '60' },
      'tick-ms': { type: 'string', default: '200' },
      aligned: { type: 'boolean', default: false },
      'cpu-prof': { type: 'boolean', default: false },
      'trace-gc': { type: 'boolean', default: false },
      'gc-survivors': { type: 'boolean', default: false },
      compare: { type: 'string' },
      rounds: { type: 'string', default: '2' },
    },
  })
}

async function main(): Promise<void> {
  // Checked before anything starts: a wrong argument costs neither the re-run below nor a compare round.
  const given = options()
  if (given === null) {
    process.exitCode = 2
    return
  }
  const { values, count, maxSeconds, tickMs, rounds } = given
  if (values.compare !== undefined) {
    const args = ['--conversations', values.conversations, '--max-seconds', values['max-seconds']]
    args.push('--tick-ms', values['tick-ms'], ...(values.aligned ? ['--aligned'] : []))
    const after = fileURLToPath(new URL('..', import.meta.url))
    await compare({ before: values.compare, after, args, rounds })
    return
  }
  // The client is the harness, whose real-time workers start with the plugin's heap flags (real-time-heap.ts): the
  // same rule decides which this process lacks, and it runs itself again with them, so the figures are the
  // product's. A flag given on the command line wins, as a project's own does: `node --max-semi-space-size=0
  // --heap-growing-percent=0 bench/run-realtime.ts` measures V8's own sizing.
  const worker = { pool: 'forks', execArgv: process.execArgv }
  sizeRealTimeHeap(worker, 'real_time')
  if (worker.execArgv.length > process.execArgv.length) {
    const child = spawn(
      process.execPath,
      [...worker.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
      {
        stdio: 'inherit',
      },
    )
    process.exitCode = await new Promise<number>((done) => child.on('close', (code) => done(code ?? 1)))
    return
  }
  const chosen = await scenario()
  const server = await startServerProcess()
  const cores = availableParallelism()
  const load = () =>
    loadavg()
      .map((value) => value.toFixed(2))
      .join(' ')
  try {
    console.log(
      `run-realtime: ${count} conversations (${2 * count} sessions) of ${SCENARIO_ID}, real time, tick ${tickMs} ms, ` +
        `${values.aligned ? 'all starting together' : 'starts spread over one 20 ms frame'}; ${cores} cores, load ${load()}`,
    )
    // The timers alone before the calls as well as after them: right after, the process still holds the finished
    // calls (a collection of them may fall in the window), so the two readings show how far the baseline itself
    // moves within one run.
    const baselineBefore = await timersOnly(count, 10)
    // process.memoryUsage.rss(), not memoryUsage(): the full call walks the heap's spaces, and every 250 ms that
    // was a long task of the bench's own inside the calls it measures.
    const rssBefore = process.memoryUsage.rss()
    let rssPeak = rssBefore
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
    }, 250)
    const diagnostics: Diagnostic[] = []
    if (values['cpu-prof']) {
      diagnostics.push(
        await cpuProfile(join(tmpdir(), 'live-evals-bench'), { name: 'run-realtime', longTaskMs: 15 }),
      )
    }
    if (values['trace-gc']) diagnostics.push(gcTrace())
    if (values['gc-survivors']) diagnostics.push(await gcSurvivors())
    const alongside = await startTimersAlongside(count)
    const loopDelay = monitorEventLoopDelay({ resolution: 1 })
    const serverCpuBefore = await server.cpuMs()
    const cpuBefore = process.cpuUsage()
    const wallBefore = performance.now()
    loopDelay.enable()
    const milestones: Milestones[] = new Array(count)
    const settled = await Promise.allSettled(
      Array.from({ length: count }, async (_, index) => {
        if (!values.aligned) await sleep((index * 20) / count)
        const marks: Milestones = { begun: performance.now(), started: null, played: null, done: null }
        milestones[index] = marks
        try {
          return await oneConversation(server, chosen, index, { maxSeconds, tickMs }, marks)
        } finally {
          marks.done = performance.now()
        }
      }),
    )
    const conversations = settled.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []))
    const failures = settled.flatMap((result) =>
      result.status === 'rejected'
        ? [result.reason instanceof Error ? result.reason.message : String(result.reason)]
        : [],
    )
    loopDelay.disable()
    const { frames: alongsideFrames, cpuMs: alongsideCpuMs } = await alongside.stop()
    const wallMs = performance.now() - wallBefore
    const cpu = process.cpuUsage(cpuBefore)
    const serverCpuMs = (await server.cpuMs()) - serverCpuBefore
    clearInterval(sampler)
    rssPeak = Math.max(rssPeak, process.memoryUsage.rss())
    const diagnosed: string[] = []
    for (const diagnostic of diagnostics) diagnosed.push(...(await diagnostic.stop()))

    const cpuMs = (cpu.user + cpu.system) / 1000
    const lateness = conversations
      .flatMap((conversation) => conversation.relay_lateness_ms ?? [])
      .sort((a, b) => a - b)
    // While all N calls were under way: frames whose slot fell after the last call started and before the first
    // one ended (each frame placed at its call's start plus 20 ms per frame), with a second's margin each side,
    // so the sessions' setup and teardown bursts are left out.
    const allStarted =
      Math.max(...milestones.map((marks) => marks.started ?? Number.POSITIVE_INFINITY)) + 1_000
    const firstEnded =
      Math.min(...milestones.map((marks) => marks.played ?? Number.NEGATIVE_INFINITY)) - 1_000
    const underWay = (slotMs: number) => slotMs >= allStarted && slotMs <= firstEnded
    const steady = settled
      .flatMap((result, index) => {
        const started = milestones[index]?.started
        if (result.status !== 'fulfilled' || started == null) return []
        return (result.value.relay_lateness_ms ?? []).filter((_, frame) =>
          underWay(started + frame * FRAME_MS),
        )
      })
      .sort((a, b) => a - b)
    const steadyAlongside = alongsideFrames
      .filter((frame) => underWay(frame.slotEpochMs - performance.timeOrigin))
      .map((frame) => frame.lateMs)
      .sort((a, b) => a - b)
    const endings: Record<string, number> = failures.length === 0 ? {} : { failed: failures.length }
    for (const failure of new Set(failures)) console.log(`  failed: ${failure}`)
    for (const conversation of conversations) {
      endings[conversation.termination_reason] = (endings[conversation.termination_reason] ?? 0) + 1
    }
    const mediaSeconds =
      conversations.reduce((sum, conversation) => sum + conversation.call.endedAtMs, 0) / 1000
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
    const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`
    console.log(
      `  endings: ${JSON.stringify(endings)}; ${mediaSeconds.toFixed(0)} s of calls in ${(wallMs / 1000).toFixed(1)} s wall`,
    )
    console.log(
      `  client CPU ${cpuMs.toFixed(0)} ms = ${(cpuMs / count).toFixed(0)} ms per conversation; ` +
        `${((100 * cpuMs) / wallMs).toFixed(0)}% of one core, ${((100 * cpuMs) / wallMs / cores).toFixed(0)}% of ${cores}`,
    )
    console.log(
      `  server CPU ${serverCpuMs.toFixed(0)} ms = ${(serverCpuMs / count).toFixed(0)} ms per conversation; ` +
        `${((100 * serverCpuMs) / wallMs).toFixed(0)}% of one core`,
    )
    console.log(
      `  RSS before ${mb(rssBefore)} MB, peak ${mb(rssPeak)} MB: ${mb((rssPeak - rssBefore) / count)} MB per conversation`,
    )
    console.log(
      `  relay lateness over ${lateness.length} paired frames: p50 ${percentile(lateness, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(lateness, 99).toFixed(2)} ms, max ${(lateness.at(-1) ?? Number.NaN).toFixed(2)} ms; ` +
        `event-loop delay p99 ${(loopDelay.percentile(99) / 1e6).toFixed(2)} ms`,
    )
    console.log(
      `  while all ${count} calls were under way (${steady.length} frames, ${seconds(Math.max(0, firstEnded - allStarted))}): ` +
        `p50 ${percentile(steady, 50).toFixed(2)} ms, p99 ${percentile(steady, 99).toFixed(2)} ms, ` +
        `max ${(steady.at(-1) ?? Number.NaN).toFixed(2)} ms`,
    )
    const medianOf = (pick: (marks: Milestones) => number | null) =>
      median(
        milestones.flatMap((marks) => {
          const value = pick(marks)
          return value === null ? [] : [value]
        }),
      )
    console.log(
      `  median wall time: starting both sessions ${seconds(medianOf((m) => (m.started ?? Number.NaN) - m.begun))}, ` +
        `the call ${seconds(medianOf((m) => (m.played ?? Number.NaN) - (m.started ?? Number.NaN)))} for ` +
        `${seconds((1000 * mediaSeconds) / Math.max(1, conversations.length))} of audio, ` +
        `closing ${seconds(medianOf((m) => (m.done ?? Number.NaN) - (m.played ?? Number.NaN)))}`,
    )
    const baseline = await timersOnly(count, 10)
    console.log(
      `  timers only (${count} schedules, no sockets, 10 s, right after): late p50 ${percentile(baseline, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(baseline, 99).toFixed(2)} ms`,
    )
    // Bare timers too: the harness's schedule wakes the loop on the millisecond (loop-waker.ts), which makes its
    // own timers-only reading better than what a timer alone gives; the goal is stated against timers alone.
    const bare = await timersOnly(count, 10, bareTimersClock())
    console.log(
      `  bare timers right after (same schedules, no loop waker): late p50 ${percentile(bare, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(bare, 99).toFixed(2)} ms`,
    )
    console.log(
      `  timers only before the calls (same schedules): late p50 ${percentile(baselineBefore, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(baselineBefore, 99).toFixed(2)} ms`,
    )
    console.log(
      `  timers only in a process of their own during the calls (same schedules, same window as the calls' ` +
        `under-way figure, ${steadyAlongside.length} frames; its CPU ${alongsideCpuMs.toFixed(0)} ms): late p50 ${percentile(steadyAlongside, 50).toFixed(2)} ms, ` +
        `p99 ${percentile(steadyAlongside, 99).toFixed(2)} ms`,
    )
    const ratio = (sorted: readonly number[]) =>
      `${(percentile(steady, 99) / percentile(sorted, 99)).toFixed(2)}×`
    console.log(
      `  p99 while all calls were under way / timers-only p99: ${ratio(baseline)} against right after, ` +
        `${ratio(bare)} against bare timers right after, ${ratio(baselineBefore)} against before, ` +
        `${ratio(steadyAlongside)} against the timers alongside`,
    )
    for (const line of diagnosed) console.log(line)
    console.log(`  load after: ${load()}`)
  } finally {
    await server.stop()
  }
}

if (process.argv.includes('--serve')) await serve()
else await main()
