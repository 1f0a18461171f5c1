// The leak boundary for a user's own assistant: every evaluator-only field of an inline scenario carries a
// sentinel, and none reaches anything the assistant's code is given (tool arguments and state, the offline
// behaviour's context and caller text) or anything sent to GPT-Live (the trace's sent frames).
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, expect, test } from 'vitest'
import type { AssistantApplication } from '../assistants/application.ts'
import { architectureFor } from '../phases/engine/architecture-choice.ts'
import {
  executeScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from '../phases/single-turn/test-support.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { pharmacy } from '../vitest/fixtures/own-agent/pharmacy.ts'
import { inlineDataset } from './scenario.ts'

const SENTINEL = 'EVALSENTINEL'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

/** The pharmacy, with everything its code receives written down. */
function recording(seen: string[]): AssistantApplication {
  return {
    ...pharmacy,
    createExecutor(options) {
      const executor = pharmacy.createExecutor(options)
      seen.push(JSON.stringify(options))
      return {
        get definitions() {
          return executor.definitions
        },
        get executions() {
          return executor.executions
        },
        execute(name, args, callId) {
          seen.push(JSON.stringify({ name, args }))
          return executor.execute(name, args, callId)
        },
        snapshot: () => executor.snapshot(),
      }
    },
    offlineBehaviour(context) {
      seen.push(JSON.stringify(context))
      const behaviour = pharmacy.offlineBehaviour?.(context)
      if (behaviour === undefined) throw new Error('the pharmacy has offline rules')
      return {
        inferToolCall(text) {
          seen.push(text)
          return behaviour.inferToolCall(text)
        },
        directAnswer(text) {
          seen.push(text)
          return behaviour.directAnswer(text)
        },
        finalAnswer(output) {
          seen.push(JSON.stringify(output))
          return behaviour.finalAnswer(output)
        },
      }
    },
  }
}

for (const architecture of ['responses', 'client'] as const) {
  test(`${architecture}: no evaluator-only sentinel reaches the own assistant or GPT-Live`, async () => {
    const [scenario] = inlineDataset(
      [
        {
          id: 'refill_sentinel',
          title: 'Refill',
          type: 'booking',
          interaction: 'single_turn',
          input: { text: 'I need a refill of prescription 4417 for pickup on August 14.' },
          application: {
            initial_state: {
              prescriptions: [{ rx_number: '4417', medication: 'x', refills_left: 1 }],
              refills: [],
            },
          },
          expected: {
            answer: `${SENTINEL} answer`,
            criteria: [`${SENTINEL} criterion`],
            tools: {
              required: [{ name: 'request_refill', arguments: { rx_number: '4417', note: SENTINEL } }],
              prohibited: [{ name: 'check_prescription', arguments: { rx_number: SENTINEL } }],
            },
            delegation: 'required',
            state: { refills: [{ rx_number: SENTINEL }] },
          },
        },
      ],
      '/specs/sentinel.spec.ts',
    )
    if (scenario === undefined) throw new Error('the scenario did not load')
    const seen: string[] = []
    const settings = await offlineCrawlSettings()
    const execution = await executeScenario(
      scenario,
      offlineEnv(settings, server, await freshRunDirectory(), architecture, {
        architecture: architectureFor(architecture, settings, { application: recording(seen) }),
      }),
    )
    expect(execution.observation?.tool_executions.map((call) => call.name)).toEqual(['request_refill'])
    expect(seen.length).toBeGreaterThan(2)
    expect(seen.join('\n')).not.toContain(SENTINEL)
    const sent = (await readFile(execution.artifacts.events as string, 'utf8'))
      .split('\n')
      .filter((line) => line.includes('"direction":"sent"'))
    expect(sent.length).toBeGreaterThan(0)
    expect(sent.join('\n')).not.toContain(SENTINEL)
  })
}
