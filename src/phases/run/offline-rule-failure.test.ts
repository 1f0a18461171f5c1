// RUN, like CRAWL and WALK: a user's offline rule that throws ends the conversation at stage offline_rule with the
// rule's own message, in both architectures, and the row and the test's failure say the same. Under Responses the
// offline GPT-Live server ran the rule and closed the session with its message; under client delegation the backend
// ran it here, and the call must end on it rather than go on after the failure answer (and perhaps pass).
import { readFile, rm } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { decodePcm16Channels } from '../../audio/wav.ts'
import { inlineDataset } from '../../define/scenario.ts'
import { type Scenario, scenarioType } from '../../scenarios/index.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import { scenarioMatchers } from '../../vitest/matchers.ts'
import { initialMeta, type MatcherGrade } from '../../vitest/meta.ts'
import { bindRunToMeta, scenarioRunOf } from '../../vitest/scenario-run.ts'
import { verdictOf } from '../../vitest/verdict.ts'
import { RULE_FAILURE_PARTS, TODO_LINE_ARCHITECTURES } from '../engine/offline-rule-failure.test-helpers.ts'
import { offlineRunSettings } from './conversation.test-helpers.ts'
import { executeOfflineRun } from './engine-run.test-helpers.ts'

expect.extend(scenarioMatchers)

let server: OfflineLiveServer
const folders: string[] = []
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

// The caller asks for a task that is already on the list: the tool refuses, and the rule's `answer` reads the
// task the refusal does not have.
const [duplicate] = inlineDataset(
  [
    {
      id: 'dup_milk_call',
      title: 'Call to add a task that is already there',
      type: 'task_request',
      interaction: 'multi_turn',
      input: { text: 'Hi, please add a task to buy milk.' },
      application: { initial_state: { tasks: [{ title: 'buy milk' }] } },
      expected: {
        answer: 'Milk is already on the list.',
        tools: { required: [{ name: 'add_task', status: 'failed' }] },
        delegation: 'required',
        state: { unchanged: true },
        golden_path: { turns: 7, delegations: 1 },
      },
      simulation_parameters: {
        goal: 'Get buy milk onto the to-do list.',
        known_facts: { task: 'buy milk' },
        agenda: [
          {
            id: 'check_the_list',
            commitment: 'Check that the task is on the list.',
            trigger_condition: 'after the assistant answers the request',
            completion_condition: 'The assistant has said whether the task is on the list.',
            action: 'answer',
            facts: ['task'],
            response_hint: 'So is it on my list now?',
          },
          {
            id: 'wrap_up',
            commitment: 'Say that this was everything.',
            trigger_condition: 'once the list is settled',
            completion_condition: 'The caller has said it needs nothing else.',
            action: 'answer',
            response_hint: 'Okay, that is everything for today.',
            after: ['check_the_list'],
          },
          {
            id: 'say_goodbye',
            commitment: 'Thank the assistant and end the call.',
            trigger_condition: 'once the assistant answered',
            completion_condition: 'The caller has said goodbye.',
            action: 'finish',
            response_hint: 'Thanks, goodbye.',
            after: ['wrap_up'],
          },
        ],
      },
    },
  ],
  import.meta.filename,
) as Scenario[]

describe.each(['responses', 'client'] as const)('RUN: an offline rule that throws (%s)', (name) => {
  it('ends the call at offline_rule with the rule’s message, in the row and as the test’s failure', async () => {
    const scenario = duplicate as Scenario
    const settings = await offlineRunSettings(undefined, ['max_duration_seconds = 30'])
    const architecture = TODO_LINE_ARCHITECTURES[name]()
    const { execution, runDirectory } = await executeOfflineRun(scenario, {
      server,
      settings,
      architecture,
      folders,
    })

    expect(execution.failure?.stage, execution.failure?.message).toBe('offline_rule')
    const message = execution.failure?.message ?? ''
    for (const part of RULE_FAILURE_PARTS) expect(message).toContain(part)
    const { row } = execution
    expect(row.status).toBe('infrastructure_error')
    expect(row.error).toMatchObject({ stage: 'offline_rule', message })

    // A failure loses nothing: the artifacts hold the call up to where it stopped (both voices, the transcript, the
    // session's events), and the call stopped soon after the rule threw. Its steps are 100 ms; the caller's opening
    // asked for the task, and the delegation it started ran the rule. Going on after it, the call would play the
    // caller's next lines (until the 30 s limit), and the row would still say offline_rule.
    const { artifacts } = execution
    // Each track runs at least to the end of the caller's opening (2.41 s), which the call played whole.
    for (const audio of [artifacts.input_audio, artifacts.output_audio, artifacts.conversation_audio]) {
      const path = audio ?? ''
      expect(decodePcm16Channels(await readFile(path), path).durationMs).toBeGreaterThanOrEqual(2410)
    }
    const transcript = await readFile(artifacts.conversation_transcript ?? '', 'utf8')
    expect(transcript).toMatch(
      /^\[00:00\.200\] CALLER: Hi, please add a task to buy milk\.\n\[[\d:.]+\] ASSISTANT: /,
    )
    expect(transcript.match(/ CALLER: /g)).toHaveLength(1)
    const events = (await readFile(artifacts.events ?? '', 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; at_ms: number; event: Record<string, unknown> })
    const said = events.filter((record) => record.type === 'simulator.caller.utterance')
    expect(said.map((record) => record.event.text)).toEqual(['Hi, please add a task to buy milk.'])
    const delegated = events.find((record) => record.type === 'session.delegation.created')
    const stopped = events.at(-1)
    expect(stopped).toMatchObject({
      type: 'simulator.call.failed',
      event: { stage: 'offline_rule', message },
    })
    expect((stopped?.at_ms ?? Number.POSITIVE_INFINITY) - (delegated?.at_ms ?? 0)).toBeLessThanOrEqual(1000)

    // The test body's verdict: toCompleteTask fails with the same stage and message, and the row stays as it is.
    const run = scenarioRunOf(
      {
        scenarioId: scenario.id,
        architecture: name,
        expected: scenario.expected,
        failure: execution.failure,
        row,
        detailsPath: execution.artifacts.details,
      },
      execution,
    )
    const meta = initialMeta({
      phase: 'run',
      scenarioId: scenario.id,
      scenarioType: scenarioType(scenario),
      architecture: name,
      runDirectory,
    })
    bindRunToMeta(run, meta)
    let failed = ''
    try {
      expect(run).toCompleteTask()
    } catch (error) {
      failed = (error as Error).message
    }
    expect(failed).toContain(`failed before it could be graded, at stage offline_rule: ${message}`)
    const verdict = verdictOf({
      scenarioId: scenario.id,
      title: scenario.title,
      state: 'fail',
      errors: [{ message: failed }],
      grades: meta.grades as MatcherGrade[],
      row,
    })
    expect(verdict).toEqual({ row, failTestWith: null })
  }, 60_000)
})
