// The remote client architecture end to end, in one process: the engine runs bundled CRAWL scenarios against
// the offline GPT-Live server (through openai's LiveWS) with the reference client-assistant service on
// loopback playing the application. Pins that the evidence graded is the service's (its executions and
// states, its ready state as the initial one), that nothing runs in the evaluator, that only authorized data
// travels (sentinels), the scenario-state opt-in on both sides, and how a refused session or a full service
// becomes an infrastructure error.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { CrawlSettings } from '../../../config/index.ts'
import {
  bundledCrawlScenario,
  executeScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from '../../../phases/single-turn/test-support.ts'
import { assistantVisibleInput, type Scenario } from '../../../scenarios/index.ts'
import { parseDataset } from '../../../scenarios/load.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../../testing/live-server/index.ts'
import type { DelegationHandoff } from '../../client/backend/application-backend.ts'
import {
  offlineRestaurantApplication,
  restaurantTools,
  type ServiceApplication,
} from '../../client/service/application.ts'
import type { SessionConfigure } from '../../client/service/protocol/index.ts'
import { PeerClient } from '../../client/service/service.test-helpers.ts'
import { type ClientAssistantService, startClientAssistantService } from '../../client/service/service.ts'
import type { ToolExecutor } from '../../runtime/tool-executor.ts'
import { type RemoteClientArchitecture, remoteClientDelegation } from './remote-client.ts'

const TOKEN = 'remote-architecture-token-0123456789abcdef'
const SENTINEL = 'REMOTESENTINEL'

/** The reference restaurant application, recording what reached it: configures, handoffs, executors. */
function recordingApplication() {
  const seen = {
    configures: [] as SessionConfigure[],
    handoffs: [] as DelegationHandoff[],
    executors: [] as ToolExecutor[],
  }
  const application: ServiceApplication = {
    tools(configure) {
      seen.configures.push(structuredClone(configure))
      const executor = restaurantTools(configure)
      seen.executors.push(executor)
      return executor
    },
    backend(configure, context) {
      const backend = offlineRestaurantApplication.backend(configure, context)
      return {
        run(handoff, emit, options) {
          seen.handoffs.push(structuredClone(handoff))
          return backend.run(handoff, emit, options)
        },
        close: () => backend.close(),
      }
    },
  }
  return { application, seen }
}

let liveServer: OfflineLiveServer
let settings: CrawlSettings
const services: ClientAssistantService[] = []
beforeAll(async () => {
  liveServer = await startOfflineLiveServer()
  settings = await offlineCrawlSettings()
})
afterAll(() => liveServer.close())
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()))
})

async function service(options: { accept: boolean; maxConnections?: number }) {
  const recording = recordingApplication()
  const started = await startClientAssistantService({
    token: TOKEN,
    env: {},
    application: recording.application,
    acceptScenarioState: options.accept,
    ...(options.maxConnections === undefined ? {} : { limits: { max_connections: options.maxConnections } }),
  })
  services.push(started)
  return { service: started, seen: recording.seen }
}

function remote(target: ClientAssistantService, sendScenarioState: boolean): RemoteClientArchitecture {
  return remoteClientDelegation({
    endpoint: target.url,
    token: TOKEN,
    allowInsecureLoopback: true,
    openAiKeys: {},
    sendScenarioState,
    connection: { connectionLimitFirstPauseMs: 1 },
  })
}

async function run(scenario: Scenario, architecture: RemoteClientArchitecture) {
  const env = { ...offlineEnv(settings, liveServer, await freshRunDirectory(), 'client'), architecture }
  const application = architecture.createApplication(assistantVisibleInput(scenario))
  const execution = await executeScenario(scenario, env, { application })
  return { execution, application }
}

describe('remote client delegation through the engine', () => {
  it("passes a state-changing scenario with the service's executions and states as the evidence", async () => {
    const { service: target, seen } = await service({ accept: true })
    const scenario = await bundledCrawlScenario('crawl_013_cancel_authorized_r100')
    const { execution, application } = await run(scenario, remote(target, true))
    expect(execution.failure?.message ?? null).toBeNull()
    expect(execution.row.status).toBe('passed')
    const observation = execution.observation
    const serviceExecutor = seen.executors[0]
    expect(seen.executors).toHaveLength(1)
    expect(observation?.tool_executions.map((record) => [record.name, record.status])).toEqual([
      ['cancel_reservation', 'completed'],
    ])
    expect(observation?.tool_executions.map((record) => record.arguments)).toEqual(
      serviceExecutor?.executions.map((record) => record.arguments),
    )
    expect(observation?.final_application_state).toEqual(serviceExecutor?.snapshot())
    expect(observation?.initial_application_state).toEqual(scenario.application.initial_state)
    // The evaluator's own runtime never ran anything: its log is empty, the evidence is the observer's.
    expect(application.runtime.executions()).toEqual([])
    expect(application.executions()).toHaveLength(1)
    // Scenario state was sent only because the project opted in.
    expect(seen.configures[0]?.application_state).toEqual(scenario.application.initial_state)
  })

  it("without the opt-in sends the history alone and grades from the service's own initial state", async () => {
    const { service: target, seen } = await service({ accept: true })
    const scenario = await bundledCrawlScenario('crawl_009_availability_open_slot')
    const { execution } = await run(scenario, remote(target, false))
    expect(seen.configures).toEqual([{ type: 'session.configure', initial_items: [] }])
    expect(execution.observation?.initial_application_state).toEqual({})
    expect(execution.observation?.tool_executions.map((record) => record.name)).toEqual([
      'check_availability',
    ])
  })

  it('a service not accepting scenario state refuses the opted-in session: an infrastructure error', async () => {
    const { service: target, seen } = await service({ accept: false })
    const scenario = await bundledCrawlScenario('crawl_013_cancel_authorized_r100')
    const { execution } = await run(scenario, remote(target, true))
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.failure?.stage).toBe('connection')
    expect(execution.failure?.message).toContain('Client assistant endpoint rejected the evaluation session')
    expect(seen.executors).toEqual([])
  })

  it('a full service is retried, then reported as an infrastructure error naming its connection limit', async () => {
    const { service: target } = await service({ accept: true, maxConnections: 1 })
    const holder = await PeerClient.connect(target.url, { Authorization: `Bearer ${TOKEN}` })
    try {
      const scenario = await bundledCrawlScenario('crawl_009_availability_open_slot')
      const { execution } = await run(scenario, remote(target, true))
      expect(execution.row.status).toBe('infrastructure_error')
      expect(execution.failure?.stage).toBe('connection')
      expect(execution.failure?.message).toContain('max_connections')
      expect(execution.failure?.message).not.toContain(TOKEN)
      expect(execution.failure?.message).not.toContain(target.url)
    } finally {
      holder.socket.terminate()
    }
  })
})

/** A CRAWL scenario whose evaluator-only strings are sentinels, with an authorized history and summary. */
function sentinelScenario(): Scenario {
  const file = fileURLToPath(new URL('../../../../scenarios/crawl/restaurant.json', import.meta.url))
  // biome-ignore lint/suspicious/noExplicitAny: free-form edits of raw JSON, validated right after
  const raw = JSON.parse(readFileSync(file, 'utf8')) as { scenarios: any[] }
  const scenario = structuredClone(
    raw.scenarios.find((candidate) => candidate.id === 'crawl_013_cancel_authorized_r100'),
  )
  const mark = (what: string) => `${SENTINEL}-${what}`
  scenario.id = 'remote_leak_boundary'
  scenario.title = mark('title')
  scenario.input.context = {
    summary: 'The caller booked R-100 last week.',
    history: [
      { role: 'user', text: 'Hello, this is Jansen.' },
      { role: 'assistant', text: 'Hello Jansen, how can I help?' },
    ],
  }
  scenario.expected.answer = mark('answer')
  scenario.expected.criteria = [mark('criterion')]
  scenario.expected.state = { note: mark('state') }
  scenario.expected.tools.prohibited = [
    { name: 'create_reservation', arguments: { guest_name: mark('prohibited') } },
  ]
  const dataset = parseDataset(
    JSON.stringify({ schema_version: '1.0', scenarios: [scenario] }),
    'remote-leak.json',
  )
  const [loaded] = dataset.scenarios
  if (loaded === undefined) throw new Error('the sentinel dataset lost its scenario')
  return loaded as Scenario
}

describe('what reaches the service', () => {
  it('only the authorized history, state and summary: no evaluator-only sentinel, no tools or instructions', async () => {
    const { service: target, seen } = await service({ accept: true })
    const scenario = sentinelScenario()
    await run(scenario, remote(target, true))
    expect(seen.configures).toHaveLength(1)
    const configure = seen.configures[0]
    expect(Object.keys(configure ?? {}).sort()).toEqual([
      'application_state',
      'conversation_summary',
      'initial_items',
      'type',
    ])
    expect(configure?.initial_items).toEqual([
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Hello, this is Jansen.' }] },
      {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Hello Jansen, how can I help?' }],
      },
    ])
    expect(configure?.conversation_summary).toBe('The caller booked R-100 last week.')
    expect(seen.handoffs.length).toBeGreaterThan(0)
    expect(JSON.stringify(seen)).not.toContain(SENTINEL)
  })
})
