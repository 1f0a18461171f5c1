// End to end, offline: the bundled CRAWL evaluation (`vitest run --project crawl`, specs/crawl) in client mode,
// run in a child Vitest against the reference client-assistant service on loopback (offline backend, scenario
// state accepted). Every bundled scenario must pass, with its tool evidence and states taken from the service:
// the service ran one session per scenario, every execution graded is one the service made, and the run
// records the endpoint it evaluated. The suite's concurrency keeps the service under its connection limit.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { SEND_SCENARIO_STATE_VARIABLE } from '../../../phases/engine/architecture-choice.ts'
import { type ResultsDocument, ResultsDocumentSchema } from '../../../reporting/result-schema.ts'
import {
  type ChildRun,
  runDirectoriesIn,
  runVitest,
  SPAWN_TIMEOUT_MS,
  scratch,
} from '../../../vitest/child-vitest.test-helpers.ts'
import type { ServiceApplication } from '../../client/service/application.ts'
import { chooseReferenceApplication } from '../../client/service/backend-choice.ts'
import { type ClientAssistantService, startClientAssistantService } from '../../client/service/service.ts'
import type { ToolExecutor } from '../../runtime/tool-executor.ts'

const TOKEN = 'crawl-remote-e2e-token-0123456789abcdefgh'

/** The reference offline application, counting its sessions and keeping every session's executor. */
function countingApplication(inner: ServiceApplication) {
  const seen = { sessions: 0, open: 0, mostOpen: 0, executors: [] as ToolExecutor[] }
  const application: ServiceApplication = {
    tools(configure) {
      const executor = inner.tools(configure)
      seen.executors.push(executor)
      return executor
    },
    backend(configure, context) {
      const backend = inner.backend(configure, context)
      seen.sessions += 1
      seen.open += 1
      seen.mostOpen = Math.max(seen.mostOpen, seen.open)
      return {
        run: (handoff, emit, options) => backend.run(handoff, emit, options),
        async close() {
          seen.open -= 1
          await backend.close()
        },
      }
    },
  }
  return { application, seen }
}

/** What graders compare of an execution. */
const evidenceKey = (record: { name: string; arguments: unknown; status: string }) =>
  JSON.stringify([record.name, record.arguments, record.status])

describe('CRAWL in client mode against the reference service', () => {
  let service: ClientAssistantService
  let seen: ReturnType<typeof countingApplication>['seen']
  let run: ChildRun = { code: null, output: '' }
  let document: ResultsDocument
  let runDirectory = ''

  beforeAll(async () => {
    const counting = countingApplication(chooseReferenceApplication({ offline: true, env: {} }).application)
    seen = counting.seen
    service = await startClientAssistantService({
      token: TOKEN,
      env: {},
      application: counting.application,
      acceptScenarioState: true,
    })
    const { dir, env } = await scratch()
    run = await runVitest(['run', '--project', 'crawl', '--reporter=default'], {
      ...env,
      LIVE_EVALS_MODE: 'offline',
      OPENAI_ASSISTANT_MODE: 'client',
      OPENAI_CLIENT_ASSISTANT_ENDPOINT: service.url,
      OPENAI_CLIENT_ASSISTANT_TOKEN: TOKEN,
      OPENAI_CLIENT_ASSISTANT_ALLOW_INSECURE_LOOPBACK: 'true',
      [SEND_SCENARIO_STATE_VARIABLE]: 'true',
    })
    const [name] = await runDirectoriesIn(join(dir, 'results'))
    runDirectory = join(dir, 'results', name ?? '')
    document = ResultsDocumentSchema.parse(
      JSON.parse(await readFile(join(runDirectory, 'results.json'), 'utf8')),
    )
  }, SPAWN_TIMEOUT_MS)
  afterAll(() => service?.close())

  test('every bundled CRAWL scenario passes', () => {
    expect(run.code, run.output).toBe(0)
    expect(document.summary.total).toBe(22)
    expect(document.summary).toMatchObject({ passed: 22, failed: 0, infrastructure_errors: 0 })
    expect(document.run.configuration.assistant_mode).toBe('client')
    expect(document.run.configuration.assistant_endpoint).toBe(service.url)
  })

  test('the run says its tool evidence came from the service, under a label of its own', () => {
    expect(document.run.id).toMatch(/^crawl_offline_client_remote_\d{8}_/)
    expect(document.run.configuration.live_evals).toEqual({
      version: '1.0',
      tool_evidence: { source: 'remote_service', architecture_only_comparison: false },
      // The spec names no assistant: the bundled example's prompts and tool definitions face the caller.
      assistants: ['juniper-table'],
    })
  })

  test('the tool evidence graded is the service’s: one session per scenario, the same executions', async () => {
    expect(seen.sessions).toBe(22)
    const graded: string[] = []
    for (const row of document.results) {
      const details = JSON.parse(
        await readFile(join(runDirectory, 'transcripts', `${row.scenario_id}.json`), 'utf8'),
      ) as { tool_executions: { name: string; arguments: unknown; status: string }[] }
      graded.push(...details.tool_executions.map(evidenceKey))
    }
    const executed = seen.executors.flatMap((executor) => executor.executions.map(evidenceKey))
    expect(graded.length).toBeGreaterThan(0)
    expect(graded.sort()).toEqual(executed.sort())
  })

  test('the suite stays under the service’s connection limit', () => {
    expect(seen.mostOpen).toBeLessThanOrEqual(document.run.configuration.concurrency as number)
    expect(seen.mostOpen).toBeLessThan(service.limits.max_connections)
    expect(service.activeConnections).toBe(0)
  })
})
