// The offline RUN boundary: the assistant's session hears only what the scripted caller says (its opening,
// hints and goodbye), never the caller's goal, facts or the scenario's evaluator-only fields, and the
// assistant's configuration carries none of them either.
import { describe, expect, it } from 'vitest'
import { type OfflineSessionScript, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { bundledRunScenario, playBundled } from './conversation.test-helpers.ts'
import { scriptedCallerLines } from './offline-caller.ts'

describe('offline RUN leak boundary', () => {
  it('registers only the scripted caller’s words as hearing, and the session sees no evaluator-only text', async () => {
    const server = await startOfflineLiveServer()
    const scripts: OfflineSessionScript[] = []
    const register = server.registerSession.bind(server)
    server.registerSession = (token, script) => {
      scripts.push(script)
      register(token, script)
    }
    try {
      const scenario = await bundledRunScenario('run_004_date_correction')
      const parameters = scenario.simulation_parameters
      if (parameters === null) throw new Error('RUN scenario without parameters')
      const conversation = await playBundled(server, scenario, 'responses')
      const spoken = new Set(scriptedCallerLines(parameters, scenario.input.text).map((line) => line.text))
      expect(scripts.length).toBeGreaterThan(1)
      for (const script of scripts) {
        for (const utterance of script.hearing) expect(spoken.has(utterance.text)).toBe(true)
      }
      const sessionText = JSON.stringify(conversation.call.assistant.sessionConfig)
      const hidden = [
        scenario.expected.answer,
        ...scenario.expected.criteria,
        parameters.goal,
        ...parameters.expectations,
        parameters.persona.description,
        ...parameters.agenda.map((item) => item.completion_condition),
        scenario.expected.procedure?.id ?? 'no procedure',
      ]
      for (const text of hidden) expect(sessionText).not.toContain(text)
      for (const script of scripts) {
        const heard = JSON.stringify(script.hearing)
        for (const text of hidden) expect(heard).not.toContain(text)
      }
    } finally {
      await server.close()
    }
  }, 60_000)
})
