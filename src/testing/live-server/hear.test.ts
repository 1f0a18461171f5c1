// Runtime hearing (OfflineLiveServer.hear): utterances added while a session runs, on its received-audio
// clock, in order and without overlap.
import { describe, expect, it } from 'vitest'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { OUTPUT_CHUNK_MS, RESPONSE_SILENCE_MS } from './index.ts'
import { RawLiveClient, testBehaviour, useOfflineLiveServer } from './test-support.ts'

const offline = useOfflineLiveServer()

const captions = (client: RawLiveClient) =>
  client.events.filter((event) => event.type === 'session.input_transcript.delta')
const said = (client: RawLiveClient) =>
  client.events
    .filter((event) => event.type === 'session.output_transcript.delta')
    .map((event) => event.delta)
    .join('')

/** Sends `ms` of audio, then waits until the server has handled it (a mute/unmute round trip). */
async function advance(client: RawLiveClient, ms: number, sync: string): Promise<void> {
  client.sendAudio(ms)
  client.send({ type: 'session.input_audio.mute', event_id: `${sync}-m` })
  client.send({ type: 'session.input_audio.unmute', event_id: `${sync}-u` })
  await client.waitFor((event) => event.client_event_id === `${sync}-u`, sync)
}

describe('OfflineLiveServer.hear', () => {
  it('schedules an utterance on the running session: captions on its clock, then the voice turn', async () => {
    const client = await offline.connect({ hearing: [], behaviour: testBehaviour }, undefined, 'caller')
    await client.start()
    await advance(client, 400, 'a')
    offline.server.hear('caller', { text: 'hello there', startMs: 1_000, endMs: 1_600 })
    await advance(client, 400, 'b')
    expect(captions(client)).toHaveLength(0)
    await advance(client, 1_000 + RESPONSE_SILENCE_MS, 'c')
    expect(captions(client).map((event) => event.delta)).toEqual(['hello', ' there'])
    expect(captions(client)[0]).toMatchObject({ start_ms: 1_000 })
    await advance(client, 3_000, 'd')
    expect(said(client)).toBe(testBehaviour.directAnswer('hello there'))
  })

  it('sends the captions the clock already passed at once', async () => {
    const client = await offline.connect({ hearing: [] }, undefined, 'late')
    await client.start()
    await advance(client, 1_000, 'a')
    offline.server.hear('late', { text: 'one two three four', startMs: 200, endMs: 1_800 })
    await client.waitFor((event) => event.type === 'session.input_transcript.delta')
    // Give the server a round trip: only the words that ended by 1 000 ms may be out, and nothing later.
    await advance(client, 0, 'b')
    const early = captions(client)
    expect(early.map((event) => event.delta)).toEqual(['one', ' two'])
    expect(early.every((event) => (event.end_ms as number) <= 1_000)).toBe(true)
    await advance(client, 1_000, 'c')
    expect(
      captions(client)
        .map((event) => event.delta)
        .join(''),
    ).toBe('one two three four')
  })

  it('keeps utterances in order: each adds to the registered hearing and a session started later hears them all', async () => {
    offline.server.registerSession('before', { hearing: [{ text: 'first', startMs: 0, endMs: 300 }] })
    offline.server.hear('before', { text: 'second', startMs: 300, endMs: 600 })
    offline.server.hear('before', { text: 'third', startMs: 900, endMs: 1_200 })
    const late = await RawLiveClient.connect(offline.server.url, 'before')
    try {
      await late.start()
      await advance(late, 1_500, 'a')
      expect(captions(late).map((event) => event.delta)).toEqual(['first', 'second', 'third'])
    } finally {
      late.close()
    }
  })

  it('refuses an utterance that overlaps or precedes the previous one, naming both', () => {
    offline.server.registerSession('ordered', { hearing: [{ text: 'first', startMs: 0, endMs: 1_000 }] })
    expect(() => offline.server.hear('ordered', { text: 'early', startMs: 900, endMs: 1_200 })).toThrow(
      /starting at 900 ms overlaps or precedes the previous one \(0–1000 ms\)/,
    )
    offline.server.hear('ordered', { text: 'next', startMs: 1_000, endMs: 1_500 })
    expect(() => offline.server.hear('ordered', { text: 'back', startMs: 100, endMs: 200 })).toThrow(
      /in order without overlapping/,
    )
  })

  it('refuses an unknown token and an invalid utterance with errors that say what to do', () => {
    expect(() => offline.server.hear('nobody-here', { text: 'hi', startMs: 0, endMs: 100 })).toThrow(
      /unknown session token "nobo…": register it with registerSession\(\) first/,
    )
    offline.server.registerSession('checked', { hearing: [] })
    expect(() => offline.server.hear('checked', { text: 'hi', startMs: 500, endMs: 100 })).toThrow(
      /invalid utterance: endMs: endMs must be after startMs/,
    )
    expect(() => offline.server.hear('checked', { text: '  ', startMs: 0, endMs: 100 })).toThrow(
      /text: an utterance needs non-empty text/,
    )
  })
})

describe('barge-in', () => {
  const longAnswer = 'Here is a long answer that goes on for quite a while, with many words in it.'
  const talker = {
    ...testBehaviour,
    directAnswer: (text: string) => (text.startsWith('wait') ? 'Sure.' : longAnswer),
  }
  const chunksOf = (text: string) =>
    Math.ceil(syntheticSpeech(text, { sampleRateHz: 24_000 }).length / ((24_000 * OUTPUT_CHUNK_MS) / 1000))

  it('stops its output where heard caller speech starts, then answers the new utterance', async () => {
    const client = await offline.connect(
      { hearing: [{ text: 'tell me', startMs: 0, endMs: 400 }], behaviour: talker },
      undefined,
      'barge',
    )
    await client.start()
    await advance(client, 1_000, 'a')
    // The long answer started at 700 ms and is still going; the caller cuts in at 1 200 ms.
    const answerStart = 400 + RESPONSE_SILENCE_MS
    expect(chunksOf(longAnswer) * OUTPUT_CHUNK_MS).toBeGreaterThan(2_000)
    offline.server.hear('barge', { text: 'wait stop', startMs: 1_200, endMs: 1_600 })
    await advance(client, 5_000, 'b')

    // The event sequence, output reduced to what it says: the cut answer's audio covers 700–1 200 ms
    // exactly (five 100 ms deltas), its transcript stops at the last word that started before the cut, the
    // caller's words follow, and the next output is the answer to them.
    const sequence = client.events.flatMap((event) => {
      if (event.type === 'session.output_audio.delta') return ['audio']
      if (event.type === 'session.output_transcript.delta') return [`said ${String(event.delta).trim()}`]
      if (event.type === 'session.input_transcript.delta') return [`heard ${String(event.delta).trim()}`]
      return []
    })
    const firstWordsAudio = sequence.slice(0, sequence.indexOf('heard wait'))
    expect(firstWordsAudio.filter((entry) => entry === 'audio')).toHaveLength(
      (1_200 - answerStart) / OUTPUT_CHUNK_MS,
    )
    const cutSaid = firstWordsAudio.filter((entry) => entry.startsWith('said ')).map((e) => e.slice(5))
    expect(cutSaid.length).toBeGreaterThan(0)
    expect(longAnswer.startsWith(cutSaid.join(' '))).toBe(true)
    expect(cutSaid.join(' ')).not.toBe(longAnswer)
    const afterCut = sequence.slice(sequence.indexOf('heard wait'))
    expect(afterCut.slice(0, 2)).toEqual(['heard wait', 'heard stop'])
    expect(afterCut.slice(2).filter((entry) => entry !== 'audio')).toEqual(['said Sure.'])
    expect(afterCut.filter((entry) => entry === 'audio')).toHaveLength(chunksOf('Sure.'))
    const sure = client.events.find(
      (event) => event.type === 'session.output_transcript.delta' && event.delta === 'Sure.',
    )
    expect(sure?.start_ms).toBe(1_600 + RESPONSE_SILENCE_MS)
    // The service has no truncation event and neither do we: every event type is one the SDK defines.
    expect(new Set(client.events.map((event) => event.type))).toEqual(
      new Set([
        'session.started',
        'session.input_transcript.delta',
        'session.output_audio.delta',
        'session.output_transcript.delta',
        'session.usage.updated',
        'session.input_audio.muted',
        'session.input_audio.unmuted',
      ]),
    )
  })

  it('a backchannel over its speech neither stops it nor gets an answer', async () => {
    const client = await offline.connect(
      { hearing: [{ text: 'tell me', startMs: 0, endMs: 400 }], behaviour: talker },
      undefined,
      'listening',
    )
    await client.start()
    await advance(client, 1_000, 'a')
    offline.server.hear('listening', { text: 'Mm-hmm.', startMs: 1_200, endMs: 1_500 })
    await advance(client, 6_000, 'b')
    expect(said(client)).toBe(longAnswer)
    const audio = client.events.filter((event) => event.type === 'session.output_audio.delta')
    expect(audio).toHaveLength(chunksOf(longAnswer))
    expect(captions(client).map((event) => String(event.delta).trim())).toContain('Mm-hmm.')
  })

  it('hands the behaviour what it heard and only what it actually said before the cut', async () => {
    const seen: unknown[] = []
    const recorder = {
      ...talker,
      directAnswer: (text: string, earlier?: readonly { role: string; text: string }[]) => {
        seen.push(earlier)
        return talker.directAnswer(text)
      },
    }
    const client = await offline.connect(
      { hearing: [{ text: 'tell me', startMs: 0, endMs: 400 }], behaviour: recorder },
      undefined,
      'memory',
    )
    await client.start()
    await advance(client, 1_000, 'a')
    offline.server.hear('memory', { text: 'wait stop', startMs: 1_200, endMs: 1_600 })
    await advance(client, 2_000, 'b')
    const cutText = client.events
      .filter(
        (event) => event.type === 'session.output_transcript.delta' && (event.start_ms as number) < 1_200,
      )
      .map((event) => event.delta)
      .join('')
    expect(seen).toEqual([
      [],
      [
        { role: 'user', text: 'tell me' },
        { role: 'assistant', text: cutText },
      ],
    ])
  })

  it('withdraws what it had queued behind the cut utterance and says it first at its next turn', async () => {
    const client = await offline.connect(
      { hearing: [{ text: 'book a table', startMs: 0, endMs: 600 }], behaviour: testBehaviour },
      undefined,
      'queued',
    )
    await client.start()
    await advance(client, 950, 'a')
    // Delegated at 900 ms; the acknowledgement is under way; the result arrives and queues behind it.
    await client.waitFor((event) => event.type === 'session.delegation.created')
    client.send({
      type: 'session.commentary.append',
      event_id: 'result',
      delegation_id: 'item_deleg_1',
      content: 'Table 3 is booked.',
    })
    await advance(client, 0, 'b')
    offline.server.hear('queued', { text: 'wait', startMs: 1_000, endMs: 1_400 })
    await advance(client, 5_000, 'c')
    const spoken = client.events
      .filter((event) => event.type === 'session.output_transcript.delta')
      .map((event) => ({ delta: event.delta, start_ms: event.start_ms as number }))
    const afterCut = spoken.filter((caption) => caption.start_ms >= 1_000)
    expect(afterCut.map((caption) => caption.delta).join('')).toBe(
      `Table 3 is booked.${testBehaviour.directAnswer('wait')}`,
    )
    // Its next turn, at the first 20 ms append that reaches RESPONSE_SILENCE_MS after "wait".
    expect(afterCut[0]?.start_ms).toBeGreaterThanOrEqual(1_400 + RESPONSE_SILENCE_MS)
    expect(afterCut[0]?.start_ms).toBeLessThan(1_400 + RESPONSE_SILENCE_MS + 20)
    expect(spoken.filter((caption) => caption.start_ms < 1_000).map((caption) => caption.delta)).toEqual([
      'One',
    ])
  })

  it('does not yield to speech that starts after its output ended', async () => {
    const client = await offline.connect(
      { hearing: [{ text: 'wait', startMs: 0, endMs: 300 }], behaviour: talker },
      undefined,
      'quiet',
    )
    await client.start()
    await advance(client, 3_000, 'a')
    offline.server.hear('quiet', { text: 'wait again', startMs: 3_000, endMs: 3_400 })
    await advance(client, 2_000, 'b')
    expect(said(client)).toBe('Sure.Sure.')
  })
})

describe('isBackchannel', () => {
  it('is a short acknowledgement alone, in any case and punctuation; never a request', async () => {
    const { isBackchannel } = await import('./backchannels.ts')
    for (const text of ['Mm-hmm.', 'mhm', 'Uh-huh!', 'Right.', 'OK', 'Got it.', 'Okay…'])
      expect(isBackchannel(text), text).toBe(true)
    for (const text of ['Right, but can I book for four?', 'Okay, cancel it.', 'Sorry to jump in', ''])
      expect(isBackchannel(text), text).toBe(false)
  })
})
