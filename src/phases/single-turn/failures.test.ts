import { access, readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { OfflineBehaviour } from '../../assistants/offline-behaviour.ts'
import type { SpeechSynthesizer } from '../../audio/synthesis.ts'
import { resolveResultStatus } from '../../reporting/result-status.ts'
import {
  type OfflineLiveServer,
  type OfflineSessionScript,
  startOfflineLiveServer,
} from '../../testing/live-server/index.ts'
import { ttsCallerSource } from '../engine/caller-sources.ts'
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

/** The same server, with each registered script rewritten by the test (what the voice model does). */
function scripted(rewrite: (script: OfflineSessionScript) => OfflineSessionScript): OfflineLiveServer {
  return { ...server, registerSession: (token, script) => server.registerSession(token, rewrite(script)) }
}

const BOOKING = 'crawl_001_booking_complete_request'

describe('single-turn failures', () => {
  it('grades a silent assistant as a target failure: failed, no error, response_timeout visible, artifacts kept', async () => {
    const settings = await offlineCrawlSettings({ timeoutSeconds: 2 })
    const scenario = await bundledCrawlScenario(BOOKING)
    const silent = scripted(({ behaviour: _behaviour, ...script }) => script)
    const execution = await executeSingleTurnScenario(
      scenario,
      offlineEnv(settings, silent, await freshRunDirectory(), 'responses'),
    )
    expect(execution.observation?.termination_reason).toBe('response_timeout')
    expect(execution.failure).toBeNull()
    expect(execution.row.status).toBe('failed')
    // No failure stage: the reference mapping would turn a failed row with one into an infrastructure_error.
    expect(execution.row.error).toBeNull()
    expect(resolveResultStatus('failed', false, null)).toBe(execution.row.status)
    expect(execution.row.metrics.task.task_completed).toBe(false)
    expect(execution.row.observability?.completion).toMatchObject({
      termination_reason: 'response_timeout',
      passed: false,
    })
    const completion = execution.row.observability?.completion as { failed_checks?: string[] } | undefined
    expect(completion?.failed_checks).toContain('conversation_completed')
    expect(execution.row.assessment?.checks).toContainEqual({
      id: 'conversation_completed',
      status: 'failed',
      required: true,
    })
    for (const path of Object.values(execution.artifacts)) await access(path as string)
    const details = JSON.parse(await readFile(execution.artifacts.details as string, 'utf8'))
    expect(details.termination_reason).toBe('response_timeout')
  })

  it('turns a disconnect mid-response into an infrastructure_error at response_collection with artifacts', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const dropping = scripted((script) => ({ ...script, faults: { disconnect: { atAudioMs: 6_000 } } }))
    const execution = await executeSingleTurnScenario(
      scenario,
      offlineEnv(settings, dropping, await freshRunDirectory(), 'responses'),
    )
    expect(execution.failure?.stage).toBe('response_collection')
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.row.error?.stage).toBe('response_collection')
    expect(execution.row.metrics.task.tool_calls).toBeNull()
    expect(execution.row.artifacts.events).toBe(`events/${BOOKING}.jsonl`)
    await access(execution.artifacts.conversation_audio as string)
    await access(execution.artifacts.events as string)
  })

  it('grades a wrong tool call as a real failure naming the failed checks', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const wrongDate = scripted((script) => {
      const behaviour = script.behaviour as OfflineBehaviour
      const wrong: OfflineBehaviour = {
        inferToolCall: (text) => {
          const call = behaviour.inferToolCall(text)
          return call === null ? null : { ...call, arguments: { ...call.arguments, date: '2026-08-13' } }
        },
        directAnswer: (text) => behaviour.directAnswer(text),
        finalAnswer: (output) => behaviour.finalAnswer(output),
      }
      return { ...script, behaviour: wrong }
    })
    const execution = await executeSingleTurnScenario(
      scenario,
      offlineEnv(settings, wrongDate, await freshRunDirectory(), 'responses'),
    )
    expect(execution.failure).toBeNull()
    expect(execution.row.status).toBe('failed')
    expect(execution.grade?.tool_call_grade.tool_call_arg_correctness).toBe(0)
    expect(execution.row.assessment?.checks.some((check) => check.status === 'failed')).toBe(true)
  })

  it('replaces a corrupted row by a result_validation infrastructure_error that keeps the artifacts', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const execution = await executeSingleTurnScenario(
      scenario,
      offlineEnv(settings, server, await freshRunDirectory(), 'responses'),
      {
        transformRow: (row) => {
          ;(row.metrics as { task: Record<string, unknown> }).task.task_completed = 'true'
          return row
        },
      },
    )
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.row.error?.stage).toBe('result_validation')
    expect(execution.failure?.stage).toBe('result_validation')
    expect(execution.row.artifacts.details).toBe(`transcripts/${BOOKING}.json`)
  })

  it('names audio_synthesis when text-to-speech fails, before any session opens', async () => {
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario(BOOKING)
    const failing = { synthesize: () => Promise.reject(new Error('speech route answered 500')) }
    const execution = await executeSingleTurnScenario(scenario, {
      ...offlineEnv(settings, server, await freshRunDirectory(), 'responses'),
      callerSource: ttsCallerSource(failing as unknown as SpeechSynthesizer, settings.models),
    })
    expect(execution.row.error).toEqual({
      stage: 'audio_synthesis',
      message: `Scenario ${BOOKING}: speech route answered 500`,
    })
    expect(execution.row.metrics.task.turns).toBeNull()
    expect(execution.artifacts.events).toBeNull()
  })
})
