// The rehearsal's RUN caller: found from the brief its session is started with, saying the offline caller's plan
// one line per assistant turn, and (on the offline server) deciding each reply in a Responses round of its own.
import { describe, expect, it } from 'vitest'
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { callerBriefOf } from '../../phases/run/brief.ts'
import { bundledRunScenario } from '../../phases/run/conversation.test-helpers.ts'
import { callerSessionConfig } from '../../phases/run/live/caller-session.ts'
import { DEFAULT_TURN_TAKING, scriptedCallerLines } from '../../phases/run/offline-caller.ts'
import { loadDataset } from '../../scenarios/load.ts'
import type { Scenario } from '../../scenarios/scenario.ts'
import { type Frame, useOfflineLiveServer } from '../live-server/test-support.ts'
import { CallerJournal } from './caller-journal.ts'
import { CallerListener } from './caller-listener.ts'
import { callerBehaviour, callerReply, RehearsalCallerCast } from './run-caller.ts'
import { RehearsalCallerTurns } from './run-caller-turns.ts'
import { PREFIX_MS, SpeechCatalogue } from './speech-catalogue.ts'

const runDataset = async (file: string) =>
  (await loadDataset(new URL(`../../../scenarios/run/${file}`, import.meta.url).pathname))
    .scenarios as Scenario[]

describe('RehearsalCallerCast', () => {
  it('finds each scenario from the instructions its caller session starts with, for either first speaker', async () => {
    const scenarios = [
      ...(await runDataset('restaurant.json')),
      ...(await runDataset('reference-style.json')),
    ]
    const cast = new RehearsalCallerCast(scenarios)
    for (const scenario of scenarios) {
      for (const firstSpeaker of ['caller', 'assistant'] as const) {
        const config = callerSessionConfig(callerBriefOf(scenario, firstSpeaker), {
          liveModel: 'gpt-live-1',
          assistantVoice: 'marin',
          backend: { model: 'gpt-5.6-luna', reasoningEffort: 'low' },
        })
        const caller = cast.identify(config.instructions)
        // Scenarios whose caller briefs are word for word the same are one caller (the first one named).
        const twin = scenarios.find(
          (other) =>
            callerBriefOf(other, firstSpeaker).instructions ===
            callerBriefOf(scenario, firstSpeaker).instructions,
        )
        expect(caller?.scenarioId).toBe(twin?.id)
        expect(caller?.firstSpeaker).toBe(firstSpeaker)
        expect(caller?.backendInstructions).toBe(
          (config.delegation as { responses: { instructions: string } }).responses.instructions,
        )
      }
    }
    expect(cast.identify('You are a helpful restaurant assistant.')).toBeNull()
    expect(cast.identify(undefined)).toBeNull()
  })
})

describe('callerReply', () => {
  it('says the offline plan one line per assistant turn, waits through holds and backchannels, then stops', async () => {
    const scenario = await bundledRunScenario('run_002_booking_missing_name')
    const cast = new RehearsalCallerCast([scenario])
    const caller = cast.identify(callerBriefOf(scenario, 'caller').instructions)
    if (caller === null) throw new Error('the caller was not found')
    const lines = scriptedCallerLines(
      scenario.simulation_parameters as NonNullable<Scenario['simulation_parameters']>,
      scenario.input.text,
    ).map((line) => line.text)
    expect(lines.length).toBeGreaterThanOrEqual(3)
    // Caller first: the opening was said (from the harness's commentary) before the assistant's first turn.
    const earlier = [{ role: 'assistant' as const, text: lines[0] as string }]
    expect(callerReply(caller, 'Sure, what name should I put it under?', earlier)).toBe(lines[1])
    expect(callerReply(caller, 'One moment.', earlier)).toBeNull()
    expect(callerReply(caller, 'Mm-hmm.', earlier)).toBeNull()
    const all = lines.map((text) => ({ role: 'assistant' as const, text }))
    expect(callerReply(caller, 'Goodbye!', all)).toBeNull()
    // Assistant first: the greeting is answered with the opening.
    expect(callerReply(caller, 'Thanks for calling, how can I help?', [])).toBe(lines[0])
  })
})

describe('the caller on the offline server', () => {
  const harness = useOfflineLiveServer()

  it('decides each reply in a Responses round (delegation, message, usage) and speaks it, without an acknowledgement', async () => {
    const scenario = await bundledRunScenario('run_001_booking_complete')
    const caller = new RehearsalCallerCast([scenario]).identify(
      callerBriefOf(scenario, 'assistant').instructions,
    )
    if (caller === null) throw new Error('the caller was not found')
    const config = callerSessionConfig(callerBriefOf(scenario, 'assistant'), {
      liveModel: 'gpt-live-1',
      assistantVoice: 'marin',
      backend: { model: 'gpt-5.6-luna', reasoningEffort: 'low' },
    })
    const client = await harness.connect({
      hearing: [
        { text: 'Thanks for calling, how can I help?', startMs: 100, endMs: 1_500 },
        { text: 'One moment.', startMs: 30_000, endMs: 30_800 },
      ],
      behaviour: callerBehaviour(caller),
    })
    expect((await client.start(config as unknown as Record<string, unknown>)).type).toBe('session.started')
    client.sendAudio(35_000)
    const spoken = await client.waitFor(
      (event) => event.type === 'session.output_transcript.delta',
      'the caller speaking',
    )
    expect(spoken.delta).toBe(scenario.input.text.split(' ')[0])
    const events = client.events
    const created = events.find((event) => event.type === 'session.delegation.created') as Frame
    expect(created.delegation).toMatchObject({ target: 'responses' })
    const nested = events
      .filter(
        (event) =>
          event.type === 'response.event' &&
          event.delegation_id === (created.delegation as { id: string }).id,
      )
      .map((event) => event.event as Frame)
    expect(nested.at(-1)).toMatchObject({ type: 'response.completed' })
    expect(nested.find((event) => event.type === 'response.output_text.done')?.text).toBe(scenario.input.text)
    // Exactly one round: "One moment." is the assistant holding, not a turn to answer; and no acknowledgement.
    await client.waitFor((event) => event.type === 'session.usage.updated', 'usage after the speech')
    const transcript = client.events
      .filter((event) => event.type === 'session.output_transcript.delta')
      .map((event) => event.delta)
      .join('')
    expect(transcript).toBe(scenario.input.text)
    expect(client.events.filter((event) => event.type === 'session.delegation.created')).toHaveLength(1)
  })
})

/** The caller of a bundled scenario played with its turn-taking, and every line it decided to say on its own. */
async function turnsOf(scenarioId: string) {
  const scenario = await bundledRunScenario(scenarioId)
  const caller = new RehearsalCallerCast([scenario]).identify(callerBriefOf(scenario, 'caller').instructions)
  if (caller === null) throw new Error('the caller was not found')
  const said: string[] = []
  const turns = new RehearsalCallerTurns(caller, { say: (text) => said.push(text) })
  const lines = caller.lines.map((line) => line.text)
  /** It speaks a line from `startMs` to `endMs` (its session reports both ends). */
  const speaks = (line: string, startMs: number, endMs: number) => {
    turns.spoke(line)
    turns.stoppedSpeaking({ startMs, endMs })
  }
  /** It hears an utterance of the assistant and decides what to answer. */
  const hears = (text: string, startMs: number, endMs: number) => {
    turns.heard({ text, startMs, endMs })
    return turns.behaviour.reasonedReply?.(text, []) ?? null
  }
  const quietSince = (lastSoundEndMs: number, nowMs: number) =>
    turns.listening({ nowMs, talkingSinceMs: null, lastSoundEndMs })
  const talkingSince = (talkingSinceMs: number, nowMs: number) =>
    turns.listening({ nowMs, talkingSinceMs, lastSoundEndMs: nowMs })
  return { caller, turns, said, lines, speaks, hears, quietSince, talkingSince }
}

describe('RehearsalCallerTurns: the caller takes its turns from what it hears', () => {
  const QUIET_AFTER_BACKCHANNEL_MS = DEFAULT_TURN_TAKING.replyQuietMs + DEFAULT_TURN_TAKING.callerGapMs

  it('goes on with its plan after its own backchannel once the assistant leaves it unanswered', async () => {
    const { caller, said, lines, speaks, hears, quietSince } = await turnsOf(
      'run_012_backchannel_not_answered',
    )
    expect(caller.lines.map((line) => line.action)).toEqual([
      'OPENING',
      'BACKCHANNEL',
      'SPEAK',
      'SPEAK',
      'STOP',
    ])
    speaks(lines[0] as string, 80, 5_000)
    expect(hears('One moment.', 5_800, 6_500)).toBeNull()
    const confirmation = 'Your reservation for Lindqvist and 3 guests is confirmed on 2026-08-20 at 18:00.'
    expect(hears(confirmation, 7_100, 12_000)).toBe('Mm-hmm.')
    speaks('Mm-hmm.', 13_000, 13_460)
    // A reply's worth of quiet is the assistant's to take: not yet.
    quietSince(12_000, 13_460 + QUIET_AFTER_BACKCHANNEL_MS - 20)
    expect(said).toEqual([])
    quietSince(12_000, 13_460 + QUIET_AFTER_BACKCHANNEL_MS)
    expect(said).toEqual([lines[2]])
    // Said once: while that line is decided and going out it says nothing more.
    quietSince(12_000, 16_000)
    expect(said).toHaveLength(1)
    speaks(lines[2] as string, 14_700, 16_500)
    expect(hears('Complimentary parking is available in the adjacent restaurant lot.', 17_000, 21_000)).toBe(
      lines[3],
    )
  })

  it('answers an assistant who does answer its backchannel, instead of talking on', async () => {
    const { said, lines, speaks, hears, quietSince, talkingSince } = await turnsOf(
      'run_012_backchannel_not_answered',
    )
    speaks(lines[0] as string, 80, 5_000)
    expect(hears('Your reservation is confirmed.', 7_100, 12_000)).toBe('Mm-hmm.')
    speaks('Mm-hmm.', 13_000, 13_460)
    talkingSince(14_000, 14_300)
    quietSince(15_000, 15_300)
    expect(said).toEqual([])
    expect(hears('Is there anything else?', 14_000, 15_000)).toBe(lines[2])
  })

  it('barges in on an interrupt line once the assistant has talked for bargeInAfterMs, and leaves what it talked over unanswered', async () => {
    const { caller, said, lines, speaks, hears, talkingSince, quietSince } =
      await turnsOf('run_013_barge_in_yield')
    expect(caller.lines[1]?.action).toBe('INTERRUPT')
    speaks(lines[0] as string, 40, 2_100)
    talkingSince(2_800, 2_800 + DEFAULT_TURN_TAKING.bargeInAfterMs - 20)
    expect(said).toEqual([])
    talkingSince(2_800, 2_800 + DEFAULT_TURN_TAKING.bargeInAfterMs)
    expect(said).toEqual([lines[1]])
    talkingSince(2_800, 4_000)
    expect(said).toHaveLength(1)
    speaks(lines[1] as string, 4_200, 10_000)
    // The hours it cut into (heard once over, as unintelligible or by their words) are no turn to answer.
    expect(hears('[inaudible]', 2_800, 4_500)).toBeNull()
    quietSince(4_500, 11_000)
    expect(said).toHaveLength(1)
    expect(hears('One moment.', 11_000, 11_700)).toBeNull()
    expect(hears('Your reservation for Haddad and 2 guests is confirmed.', 12_300, 17_000)).toBe(lines[2])
  })

  it('does not cut into a short hold, nor into speech that began before its own line ended; then answers at the end', async () => {
    const { said, lines, speaks, hears, talkingSince, quietSince } = await turnsOf('run_013_barge_in_yield')
    speaks(lines[0] as string, 40, 2_100)
    // Talk under way since before its line ended is not the answer to it.
    talkingSince(2_000, 3_500)
    expect(said).toEqual([])
    // "One moment." is shorter than bargeInAfterMs: the talk stops before the caller would cut in.
    talkingSince(2_800, 3_500)
    quietSince(3_515, 4_000)
    expect(said).toEqual([])
    // An assistant that never talks long enough is answered when it finishes, with the same line.
    expect(hears('We open at eleven.', 4_200, 5_100)).toBe(lines[1])
  })

  it('journals what it heard and why it spoke or stayed quiet, so a call that stalls says which rule kept it quiet', async () => {
    const { turns, lines, speaks, hears, talkingSince } = await turnsOf('run_013_barge_in_yield')
    talkingSince(0, 40)
    speaks(lines[0] as string, 40, 2_100)
    talkingSince(2_800, 2_800 + DEFAULT_TURN_TAKING.bargeInAfterMs)
    speaks(lines[1] as string, 4_200, 10_000)
    expect(hears('[inaudible]', 2_800, 4_500)).toBeNull()
    expect(hears('One moment.', 11_000, 11_700)).toBeNull()
    expect(hears('Your reservation for Haddad and 2 guests is confirmed.', 12_300, 17_000)).toBe(lines[2])
    // Decided and not yet going out: a second utterance is no turn either, and says so.
    expect(hears('Anything else?', 17_500, 18_000)).toBeNull()
    const barge = 2_800 + DEFAULT_TURN_TAKING.bargeInAfterMs
    expect(turns.journal.lines()).toEqual([
      `40 says line 1: "${lines[0]}"`,
      '40 line 1 went out [40-2100]',
      `${barge} barges in`,
      `${barge} says line 2: "${lines[1]}"`,
      `${barge} line 2 went out [4200-10000]`,
      `${barge} heard "[inaudible]" [2800-4500]`,
      `${barge} stays quiet: it talked over that (its last line ended at 10000)`,
      `${barge} heard "One moment." [11000-11700]`,
      `${barge} stays quiet: a hold, a backchannel or nothing left to say (2 said)`,
      `${barge} heard "Your reservation for Haddad and 2 guests is confirmed." [12300-17000]`,
      `${barge} answers with line 3`,
      `${barge} heard "Anything else?" [17500-18000]`,
      `${barge} stays quiet: a line of its own is decided or going out`,
    ])
  })

  it('keeps the latest entries of a call that never ends, saying how many it dropped', () => {
    const journal = new CallerJournal()
    for (let index = 0; index < 100; index++) journal.note(index, `entry ${index}`)
    const kept = journal.lines()
    expect(kept[0]).toBe('(40 earlier entries dropped)')
    expect(kept.slice(1)).toHaveLength(60)
    expect(kept.at(-1)).toBe('99 entry 99')
  })
})

describe('CallerListener: the start of speech, before its end', () => {
  const chunksOf = (samples: Int16Array, size = 480) => {
    const chunks: Int16Array[] = []
    for (let at = 0; at < samples.length; at += size) chunks.push(samples.subarray(at, at + size))
    return chunks
  }
  const silence = (ms: number) => new Int16Array((SAMPLE_RATE_HZ * ms) / 1000)

  it('says speech began once a known clip’s first PREFIX_MS was heard, with its words; unknown speech without', () => {
    const catalogue = new SpeechCatalogue()
    const bargeIn = 'Sorry to cut in, could you book a table?'
    catalogue.add(syntheticSpeech(bargeIn), { text: bargeIn, speech: null }, { synthesised: true })
    catalogue.add(syntheticSpeech('Mm-hmm.'), { text: 'Mm-hmm.', speech: null }, { synthesised: true })
    const started: Array<{ text: string | null; atMs: number }> = []
    const heard: string[] = []
    const listener = new CallerListener(
      catalogue,
      (utterance) => heard.push(utterance.text),
      (text) => started.push({ text, atMs: listener.listening.nowMs }),
    )
    const play = (samples: Int16Array) => {
      for (const chunk of chunksOf(samples)) listener.receive(chunk)
    }
    play(silence(500))
    expect(listener.listening).toMatchObject({ talkingSinceMs: null, lastSoundEndMs: null })
    play(syntheticSpeech(bargeIn).subarray(0, (SAMPLE_RATE_HZ * (PREFIX_MS + 100)) / 1000))
    expect(started).toHaveLength(1)
    expect(started[0]?.text).toBe(bargeIn)
    expect(started[0]?.atMs).toBeGreaterThanOrEqual(500 + PREFIX_MS)
    expect(started[0]?.atMs).toBeLessThanOrEqual(500 + PREFIX_MS + 40)
    expect(listener.listening.talkingSinceMs).toBe(500)
    play(silence(2_000))
    expect(listener.listening.talkingSinceMs).toBeNull()
    play(syntheticSpeech('Mm-hmm.'))
    play(silence(2_000))
    play(syntheticSpeech('A voice nobody catalogued says this.'))
    play(silence(2_000))
    expect(started.map((start) => start.text)).toEqual([bargeIn, 'Mm-hmm.', null])
    // Each stretch is also heard once it is over (the cut barge-in and the unknown voice as unintelligible).
    expect(heard).toContain('Mm-hmm.')
  })
})
