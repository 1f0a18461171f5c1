// Every bundled scenario in the Responses architecture, recorded live against the dress rehearsal and replayed
// keyless (bundled-round-trip.test-helpers.ts; the client architecture's half records at the same time in another
// worker, bundled-round-trip-client.integration.test.ts). Then, on those cassettes: a RUN call that changed (its
// assistant's prompt, a tool's output, the caller's voice as the assistant hears it) stops a strict replay at its
// first divergence, named by its path; a deleted or foreign cassette is refused by name.
import { rename } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  type BundledCase,
  bundledSettings,
  bundledToml,
  executeCase,
} from './bundled-executions.test-helpers.ts'
import { bundledRoundTrip, cassetteOf } from './bundled-round-trip.test-helpers.ts'
import { changedApplication } from './cassette.test-helpers.ts'

const roundTrip = bundledRoundTrip('responses')

describe('a RUN call that changed stops a strict replay at its first divergence', () => {
  const RUN_ID = 'run_002_booking_missing_name__responses'
  const runCase = () => roundTrip.cases().find((kase) => kase.id === RUN_ID) as BundledCase

  async function replayRun(options: { toml?: string[]; application?: Parameters<typeof executeCase>[3] }) {
    const kase = runCase()
    const settings = await bundledSettings(kase.phase, kase.dataset, { LIVE_EVALS_MODE: 'replay' }, [
      ...bundledToml(kase.phase, join(roundTrip.dir(), 'cassettes')),
      ...(options.toml ?? []),
    ])
    const execution = await executeCase(
      kase,
      settings,
      join(roundTrip.dir(), 'diverged'),
      options.application,
    )
    return { execution, cassette: cassetteOf(execution.row) }
  }

  test("the assistant's prompt: its session.start, at session.instructions", async () => {
    const { execution, cassette } = await replayRun({
      application: changedApplication({ voicePrompt: (prompt) => `${prompt} Always answer in one word.` }),
    })
    expect(execution.row.status).toBe('infrastructure_error')
    expect(execution.failure?.stage).toBe('replay')
    expect(cassette?.outcome).toBe('diverged')
    expect(cassette?.first_divergence).toMatchObject({
      channel: 'assistant',
      message: 'session.start #1',
      path: 'session.instructions',
    })
    expect(execution.failure?.message).toMatch(
      new RegExp(`^Replay of cassette ${RUN_ID} diverged: assistant session\\.start #1 \\(turn 0\\)`),
    )
  }, 60_000)

  test("a tool's output: the frame that carries it back to the service, at its output", async () => {
    const { execution, cassette } = await replayRun({
      application: changedApplication({ toolOutput: (output) => ({ ...output, reservation_id: 'R-777' }) }),
    })
    expect(execution.failure?.stage).toBe('replay')
    expect(cassette?.first_divergence?.channel).toBe('assistant')
    expect(cassette?.first_divergence?.path).toMatch(/output/)
    expect(cassette?.first_divergence?.text).toContain('R-777')
  }, 60_000)

  test("the caller's voice as the assistant hears it (another acoustic preset): the first frame, by content", async () => {
    const { execution, cassette } = await replayRun({ toml: ['condition = "noisy"'] })
    expect(execution.failure?.stage).toBe('replay')
    expect(cassette?.first_divergence).toMatchObject({ channel: 'assistant', path: 'audio' })
    expect(cassette?.first_divergence?.message).toMatch(/^session\.input_audio\.append #\d+$/)
    expect(cassette?.first_divergence?.text).toContain('the caller audio differs')
  }, 60_000)

  test('a deleted cassette fails its row loudly, naming it; an edited caller line is another scenario, refused', async () => {
    const kase = runCase()
    const folder = join(roundTrip.dir(), 'cassettes', RUN_ID)
    const moved = `${folder}.away`
    await rename(folder, moved)
    try {
      const { execution, cassette } = await replayRun({})
      expect(execution.row.status).toBe('infrastructure_error')
      expect(cassette?.outcome).toBe('missing')
      expect(execution.failure?.message).toContain(`No cassette ${RUN_ID}`)
    } finally {
      await rename(moved, folder)
    }
    const settings = await bundledSettings(kase.phase, kase.dataset, { LIVE_EVALS_MODE: 'replay' }, [
      ...bundledToml(kase.phase, join(roundTrip.dir(), 'cassettes')),
    ])
    const edited = {
      ...kase,
      scenario: { ...kase.scenario, input: { ...kase.scenario.input, text: 'Hello?' } },
    }
    const execution = await executeCase(edited, settings, join(roundTrip.dir(), 'diverged'))
    expect(cassetteOf(execution.row)?.outcome).toBe('refused')
    expect(execution.failure?.message).toContain('was recorded for another version of scenario')
  }, 60_000)
})
