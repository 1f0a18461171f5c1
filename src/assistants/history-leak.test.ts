// The leak boundary on the conversation-memory path: over a whole offline RUN call, every earlier turn any
// offline behaviour is handed (the voice model's on the offline server, the client application's backend)
// is something the caller said or the assistant said, never evaluator-only text. The scenario's evaluator
// fields and the caller's hidden brief all carry sentinels; only the caller's spoken lines do not.
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { runOfflineConversation } from '../phases/run/conversation.ts'
import { scriptedCallerLines } from '../phases/run/offline-caller.ts'
import { parseDataset } from '../scenarios/load.ts'
import { assistantVisibleInput } from '../scenarios/visible.ts'
import { startOfflineLiveServer } from '../testing/live-server/index.ts'
import type { AssistantApplication } from './application.ts'
import { type AssistantArchitecture, clientDelegation, responsesDelegation } from './architectures/index.ts'
import { models } from './assistant-session.fixtures.ts'
import { restaurantApplication as clientRestaurant } from './client/application.ts'
import type { OfflineBehaviour, SpokenTurn } from './offline-behaviour.ts'
import { restaurantApplication as responsesRestaurant } from './responses/application.ts'

const SENTINEL = 'HISTORYSENTINEL'
const runDataset = fileURLToPath(new URL('../../scenarios/run/restaurant.json', import.meta.url))

/** run_006 (two checks, then a booking, over four caller turns) with every evaluator-only string a sentinel. */
function sentinelScenario() {
  // biome-ignore lint/suspicious/noExplicitAny: free-form edits of raw JSON, validated right after
  const raw = JSON.parse(readFileSync(runDataset, 'utf8')) as { scenarios: any[] }
  const scenario = structuredClone(
    raw.scenarios.find((candidate) => candidate.id === 'run_006_unavailable_then_alternative'),
  )
  const mark = (what: string) => `${SENTINEL}-${what}`
  scenario.title = mark('title')
  const expected = scenario.expected
  expected.answer = mark('answer')
  expected.criteria = [mark('criterion')]
  expected.golden_path.steps = [mark('golden-step')]
  expected.procedure.id = mark('procedure').toLowerCase()
  const simulation = scenario.simulation_parameters
  simulation.goal = mark('goal')
  simulation.expectations = [mark('expectation')]
  simulation.persona.description = mark('persona')
  simulation.persona.speech_instructions = mark('speech-instructions')
  for (const item of simulation.agenda) {
    item.commitment = mark(`commitment-${item.id}`)
    item.trigger_condition = mark(`trigger-${item.id}`)
    item.completion_condition = mark(`completion-${item.id}`)
  }
  const dataset = parseDataset(
    JSON.stringify({ schema_version: '1.0', scenarios: [scenario] }),
    'history.json',
  )
  const [loaded] = dataset.scenarios
  if (loaded === undefined) throw new Error('the sentinel dataset lost its scenario')
  return loaded
}

interface HandedOver {
  text: string
  earlier: readonly SpokenTurn[]
}

/** The application with every offline behaviour it builds recording what each turn is handed. */
function recording(application: AssistantApplication, seen: HandedOver[]): AssistantApplication {
  const build = application.offlineBehaviour
  if (build === undefined) throw new Error('the restaurant has an offline behaviour')
  return {
    ...application,
    offlineBehaviour(context): OfflineBehaviour {
      const inner = build(context)
      return {
        inferToolCall: (text, earlier = []) => {
          seen.push({ text, earlier: structuredClone(earlier) })
          return inner.inferToolCall(text, earlier)
        },
        directAnswer: (text, earlier = []) => inner.directAnswer(text, earlier),
        finalAnswer: (output) => inner.finalAnswer(output),
      }
    },
  }
}

const ARCHITECTURES: Record<string, (seen: HandedOver[]) => AssistantArchitecture> = {
  responses: (seen) => responsesDelegation(recording(responsesRestaurant(), seen)),
  client: (seen) => clientDelegation(undefined, recording(clientRestaurant(), seen)),
}

describe('conversation memory leak boundary', () => {
  test.each(Object.keys(ARCHITECTURES))(
    '%s: the earlier turns handed to the behaviour are only what was said on the call',
    async (name) => {
      const scenario = sentinelScenario()
      const parameters = scenario.simulation_parameters
      if (parameters === null) throw new Error('RUN scenario without parameters')
      const seen: HandedOver[] = []
      const architecture = ARCHITECTURES[name]?.(seen)
      if (architecture === undefined) throw new Error(`no architecture ${name}`)
      const visibleInput = assistantVisibleInput(scenario)
      const lines = scriptedCallerLines(parameters, scenario.input.text)
      const server = await startOfflineLiveServer()
      try {
        const conversation = await runOfflineConversation({
          setup: { server, visibleInput, architecture, models, stepMs: 100, assistantFirstPrompt: null },
          lines,
          application: architecture.createApplication(visibleInput),
          rehearsalApplication: () => architecture.createApplication(visibleInput),
        })
        // The call really went the distance and the memory really flowed (several turns handed over).
        expect(conversation.termination_reason).toBe('response_completed')
        expect(Math.max(...seen.map((turn) => turn.earlier.length))).toBeGreaterThanOrEqual(6)
      } finally {
        await server.close()
      }
      const spokenByCaller = new Set(lines.map((line) => line.text))
      for (const { text, earlier } of seen) {
        expect(JSON.stringify({ text, earlier })).not.toMatch(new RegExp(SENTINEL, 'i'))
        for (const turn of earlier) {
          if (turn.role === 'user') {
            // The client backend hears the caller through transcript lines, which may split an utterance.
            expect([...spokenByCaller].some((line) => line.includes(turn.text))).toBe(true)
          }
        }
      }
    },
    60_000,
  )

  test('the sentinel scenario really carries its sentinels outside what the caller says', () => {
    const scenario = sentinelScenario()
    expect(JSON.stringify(scenario.expected)).toContain(SENTINEL)
    expect(JSON.stringify(scenario.simulation_parameters)).toContain(SENTINEL)
    const lines = scriptedCallerLines(
      scenario.simulation_parameters ??
        (() => {
          throw new Error('no parameters')
        })(),
      scenario.input.text,
    )
    expect(JSON.stringify(lines)).not.toContain(SENTINEL)
  })
})
