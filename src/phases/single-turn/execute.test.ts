import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type AssistantArchitecture, clientDelegation } from '../../assistants/architectures/index.ts'
import { EXTENSION_KEY } from '../../reporting/extensions/registry.ts'
import { ResultItemSchema } from '../../reporting/result-schema.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import type { ScenarioExecution as SingleTurnExecution } from '../engine/execution.ts'
import {
  bundledCrawlScenario,
  executeScenario as executeSingleTurnScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from './test-support.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

const BOOKING = 'crawl_001_booking_complete_request'

describe('executeSingleTurnScenario offline (responses delegation)', () => {
  it('passes a booking scenario, writes private artifacts and a valid row', async () => {
    const settings = await offlineCrawlSettings()
    const runDirectory = await freshRunDirectory()
    const scenario = await bundledCrawlScenario(BOOKING)
    const execution = await executeSingleTurnScenario(
      scenario,
      offlineEnv(settings, server, runDirectory, 'responses'),
    )
    expect(execution.failure).toBeNull()
    expect(execution.row.status, JSON.stringify(execution.grade?.assessment)).toBe('passed')
    expect(ResultItemSchema.parse(execution.row)).toEqual(execution.row)
    expect(execution.observation?.termination_reason).toBe('response_completed')
    expect(execution.observation?.tool_executions.map((call) => call.name)).toEqual(['create_reservation'])
    // The voice metrics of a single turn: its one tool turn measured, its entities, and what a single turn cannot hold (a backchannel, a barge-in, a greeting: the caller spoke first) unknown.
    const voice = execution.row.observability?.[EXTENSION_KEY]?.voice_metrics
    expect(voice?.delegation_latency.tool_turns.count).toBe(1)
    expect(voice?.delegation_latency.tool_turns.first_word_ms).toBeGreaterThan(0)
    expect(voice?.delegation_latency.tool_turns.verified_answer_ms).toBeGreaterThanOrEqual(
      voice?.delegation_latency.tool_turns.first_word_ms ?? Number.POSITIVE_INFINITY,
    )
    expect(voice?.delegation_latency.greeting_latency_ms).toBeNull()
    // The name, date and time went to the tool as expected; the id the booking created is in the expected state,
    // and the offline assistant does not read it back: missing, as the metric defines it.
    expect(voice?.entity_errors.by_entity.map((entity) => [entity.kind, entity.status])).toEqual([
      ['name', 'correct'],
      ['date', 'correct'],
      ['time', 'correct'],
      ['id', 'missing'],
    ])
    expect(voice?.talk_ratio.ratio).toBeGreaterThan(0)
    expect(voice?.stop_time.mean_ms).toBeNull()
    expect(voice?.backchannel_selectivity.selectivity).toBeNull()
    for (const path of Object.values(execution.artifacts)) {
      expect(path).not.toBeNull()
      expect((await stat(path as string)).mode & 0o777).toBe(0o600)
    }
    const events = (await readFile(join(runDirectory, `events/${BOOKING}.jsonl`), 'utf8'))
      .trimEnd()
      .split('\n')
    const records = events.map((line) => JSON.parse(line))
    expect(records[0].type).toBe('session.start')
    expect(records[0].event.session.model).toBe('gpt-live-1')
    expect(records.map((record) => record.event_index)).toEqual(records.map((_, index) => index + 1))
    expect(records.map((record) => record.type)).toContain('evaluation.outcome.assessed')
    expect(events.join('\n')).not.toMatch(/"(audio|delta)":"[A-Za-z0-9+/]{200,}/)
  })
})

describe('executeSingleTurnScenario offline (client delegation)', () => {
  it('passes the booking scenario with the in-process application controller', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const execution = await executeSingleTurnScenario(
      scenario,
      offlineEnv(settings, server, await freshRunDirectory(), 'client'),
    )
    expect(execution.failure).toBeNull()
    expect(execution.row.status, JSON.stringify(execution.grade?.assessment)).toBe('passed')
    expect(execution.observation?.tool_executions.map((call) => call.name)).toEqual(['create_reservation'])
    expect(ResultItemSchema.parse(execution.row)).toEqual(execution.row)
  })
})

/** The events JSONL of one execution, parsed. */
async function traceOf(execution: SingleTurnExecution): Promise<Array<Record<string, unknown>>> {
  const text = await readFile(execution.artifacts.events as string, 'utf8')
  return text
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)
}

const sentTypes = (records: Array<Record<string, unknown>>) =>
  records.filter((record) => record.direction === 'sent').map((record) => record.type)

describe('the events JSONL holds what the assistant side sent', () => {
  it('Responses delegation: the function output (response.item.create) and the continuation (response.create)', async () => {
    const settings = await offlineCrawlSettings()
    const execution = await executeSingleTurnScenario(
      await bundledCrawlScenario(BOOKING),
      offlineEnv(settings, server, await freshRunDirectory(), 'responses'),
    )
    const records = await traceOf(execution)
    const sent = sentTypes(records)
    expect(sent[0]).toBe('session.start')
    expect(sent.at(-1)).toBe('session.close')
    expect(sent).toContain('session.input_audio.append')
    const itemCreate = records.find((record) => record.type === 'response.item.create')
    expect(itemCreate).toMatchObject({
      source: 'client',
      direction: 'sent',
      event: { item: { type: 'function_call_output' } },
    })
    const continuation = sent.indexOf('response.create')
    expect(continuation).toBeGreaterThan(sent.indexOf('response.item.create'))
    // Each sent record sits where it happened: after the delegation that caused it was received.
    const indexOf = (type: string) => records.findIndex((record) => record.type === type)
    expect(indexOf('response.item.create')).toBeGreaterThan(indexOf('session.delegation.created'))
    // Raw caller audio never reaches the file; its size does.
    const append = records.find((record) => record.type === 'session.input_audio.append')
    expect(append?.event).toEqual({ type: 'session.input_audio.append', audio_bytes: expect.any(Number) })
  })

  it('client delegation: the application answer as session.commentary.append with its delegation id', async () => {
    const settings = await offlineCrawlSettings()
    const execution = await executeSingleTurnScenario(
      await bundledCrawlScenario(BOOKING),
      offlineEnv(settings, server, await freshRunDirectory(), 'client'),
    )
    const records = await traceOf(execution)
    const commentary = records.find((record) => record.type === 'session.commentary.append')
    const delegation = records.find((record) => record.type === 'session.delegation.created')
    expect(commentary).toMatchObject({
      source: 'client',
      direction: 'sent',
      event: { event_id: 'commentary_1' },
    })
    const delegationId = (delegation?.event as { delegation?: { id: string } } | undefined)?.delegation?.id
    expect(delegationId).toEqual(expect.any(String))
    expect(commentary?.event).toMatchObject({ delegation_id: delegationId })
    expect(sentTypes(records)).not.toContain('response.create')
  })

  it('redacts the Responses-API key and the client assistant token wherever a sent frame carries them', async () => {
    const base = await offlineCrawlSettings()
    const responsesKey = 'resp-key-SENTINEL-0001'
    const clientToken = 'client-token-SENTINEL-0002'
    const settings = {
      ...base,
      credentials: {
        ...base.credentials,
        responses_api_key: responsesKey,
        client_assistant_token: clientToken,
      },
    }
    // An application that (wrongly) speaks its own credentials: the trace must still not hold them.
    const client = clientDelegation()
    const leaky: AssistantArchitecture = {
      ...client,
      attach(context) {
        const handle = client.attach(context)
        let leaked = false
        return {
          ...handle,
          get pending() {
            return handle.pending
          },
          wait(options) {
            if (!leaked) {
              leaked = true
              context.session.send({
                type: 'session.commentary.append',
                delegation_id: null,
                content: `keys ${responsesKey} and ${clientToken}`,
              })
            }
            return handle.wait(options)
          },
        }
      },
    }
    const execution = await executeSingleTurnScenario(
      await bundledCrawlScenario(BOOKING),
      offlineEnv(settings, server, await freshRunDirectory(), 'client', { architecture: leaky }),
    )
    const text = await readFile(execution.artifacts.events as string, 'utf8')
    expect(text).toContain('[redacted]')
    expect(text).not.toContain(responsesKey)
    expect(text).not.toContain(clientToken)
  })
})

describe('byte-determinism of a run', () => {
  for (const architecture of ['responses', 'client'] as const) {
    it(`${architecture}: the same input on a fresh offline server gives the same artifact bytes, trace included`, async () => {
      const settings = await offlineCrawlSettings()
      const scenario = await bundledCrawlScenario(BOOKING)
      const runs: SingleTurnExecution[] = []
      for (let i = 0; i < 2; i++) {
        // A fresh server per run: session tokens, session ids and event ids start over as for a new process.
        const fresh = await startOfflineLiveServer()
        try {
          runs.push(
            await executeSingleTurnScenario(
              scenario,
              offlineEnv(settings, fresh, await freshRunDirectory(), architecture),
            ),
          )
        } finally {
          await fresh.close()
        }
      }
      const [first, second] = runs
      expect(first?.row.status).toBe('passed')
      for (const key of [
        'input_audio',
        'output_audio',
        'conversation_audio',
        'conversation_transcript',
        'events',
      ] as const) {
        const a = await readFile(first?.artifacts[key] as string)
        const b = await readFile(second?.artifacts[key] as string)
        expect(a.equals(b), key).toBe(true)
      }
      expect(first?.row).toEqual(second?.row)
    })
  }
})
