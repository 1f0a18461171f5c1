// Everything the offline server sends has the openai SDK's shapes. At compile time through the one typed send
// (events.ts); at run time by recording whole sessions (both delegation modes, acks, errors, usage, update,
// close) and checking every frame against the SDK's key lists (sdk-shapes.test-helpers.ts).
import { describe, expect, it } from 'vitest'
import type { OutboundServerEvent } from './events.ts'
import { serverFrameProblems } from './sdk-shapes.test-helpers.ts'
import {
  bookTableTool,
  type Frame,
  type RawLiveClient,
  testBehaviour,
  useOfflineLiveServer,
} from './test-support.ts'

const { connect } = useOfflineLiveServer()

function problemsOf(client: RawLiveClient): string[] {
  return client.frames.flatMap((text, index) => serverFrameProblems(text, index))
}

const typesOf = (client: RawLiveClient) => new Set(client.events.map((event) => event.type))

describe('offline server events against the SDK types', () => {
  it('rejects, at compile time, an outbound event with a field the SDK type does not have', () => {
    const sent: OutboundServerEvent[] = []
    const send = (event: OutboundServerEvent) => sent.push(event)
    // @ts-expect-error `offset_ms` is not a field of session.output_audio.delta
    send({ type: 'session.output_audio.delta', delta: '', offset_ms: 1 })
    // @ts-expect-error session.delegation.created needs its delegation
    send({ type: 'session.delegation.created', offset_ms: 0 })
    expect(sent).toHaveLength(2)
  })

  it('a whole Responses-delegation session: every frame has the SDK shape', async () => {
    const client = await connect({
      hearing: [{ text: 'book a table', startMs: 0, endMs: 600 }],
      behaviour: testBehaviour,
      faults: { errorEvent: { afterEvents: 3 } },
    })
    await client.start({
      model: 'gpt-live-1',
      delegation: {
        type: 'responses',
        acknowledgement_delay_ms: 0,
        responses: { model: 'gpt-5.6-terra', tools: [bookTableTool] },
      },
    })
    client.sendAudio(1_500, 100)
    await client.waitFor((event) => (event.event as Frame | undefined)?.type === 'response.completed')
    client.send({
      type: 'response.item.create',
      item: { type: 'function_call_output', call_id: 'call_1', output: '{"ok":true,"table":7}' },
    })
    client.send({ type: 'response.create' })
    client.send({ type: 'session.update', event_id: 'up', session: { delegation: { type: 'responses' } } })
    client.send({ type: 'session.input_audio.mute', event_id: 'mute' })
    client.send({ type: 'session.input_audio.unmute', event_id: 'unmute' })
    client.send({
      type: 'session.instructions.append',
      event_id: 'ins',
      delegation_id: null,
      content: 'Be brief.',
    })
    client.send({
      type: 'session.thinking.append',
      event_id: 'bad',
      delegation_id: 'item_deleg_1',
      content: 'x',
    })
    client.sendAudio(61_000, 1_000)
    client.send({ type: 'session.close', event_id: 'bye' })
    await client.waitFor((event) => event.type === 'session.closed')

    for (const type of [
      'session.started',
      'session.delegation.created',
      'response.event',
      'session.output_audio.delta',
      'session.output_transcript.delta',
      'session.input_transcript.delta',
      'session.updated',
      'session.input_audio.muted',
      'session.input_audio.unmuted',
      'session.instructions.appended',
      'session.usage.updated',
      'error',
      'session.closed',
    ]) {
      expect(typesOf(client), type).toContain(type)
    }
    const nestedTypes = new Set(
      client.events.flatMap((event) =>
        event.type === 'response.event' ? [(event.event as Frame).type] : [],
      ),
    )
    expect([...nestedTypes].sort()).toEqual(
      [
        'response.created',
        'response.in_progress',
        'response.output_item.added',
        'response.function_call_arguments.delta',
        'response.function_call_arguments.done',
        'response.output_item.done',
        'response.content_part.added',
        'response.output_text.delta',
        'response.output_text.done',
        'response.content_part.done',
        'response.completed',
      ].sort(),
    )
    expect(problemsOf(client)).toEqual([])
  })

  it('a whole client-delegation session, with commentary, thinking and a close that fails a pending append', async () => {
    const client = await connect({
      hearing: [{ text: 'book a table', startMs: 0, endMs: 600 }],
      behaviour: testBehaviour,
    })
    await client.start({ model: 'gpt-live-1', delegation: { type: 'client', acknowledgement_delay_ms: 250 } })
    client.sendAudio(1_000, 100)
    await client.waitFor((event) => event.type === 'session.delegation.created')
    client.send({
      type: 'session.thinking.append',
      event_id: 't',
      delegation_id: 'item_deleg_1',
      content: 'Checking.',
    })
    client.send({
      type: 'session.commentary.append',
      event_id: 'c',
      delegation_id: 'item_deleg_1',
      content: 'Table 3 is booked.',
    })
    client.sendAudio(4_000, 100)
    await client.waitFor((event) => event.type === 'session.commentary.appended')
    client.send({
      type: 'session.instructions.append',
      event_id: 'late',
      delegation_id: null,
      content: 'x'.repeat(400),
    })
    client.send({ type: 'session.close', event_id: 'bye' })
    await client.waitFor((event) => event.type === 'session.closed')

    for (const type of [
      'session.thinking.appended',
      'session.commentary.appended',
      'error',
      'session.closed',
    ]) {
      expect(typesOf(client), type).toContain(type)
    }
    expect(problemsOf(client)).toEqual([])
  })

  it('the shape check itself fails on a snapshot without output_text and on a field the SDK lacks', () => {
    const bad = JSON.stringify({
      type: 'response.event',
      event_id: 'e1',
      event: {
        type: 'response.created',
        sequence_number: 0,
        response: { id: 'r', object: 'response', extra: 1 },
      },
    })
    const problems = serverFrameProblems(bad, 0)
    expect(problems).toContain(
      'frame 0 (response.event).event.response.output_text: missing (required by Response)',
    )
    expect(problems).toContain('frame 0 (response.event).event.response.extra: not a field of Response')
    expect(serverFrameProblems('{"type":"session.output_audio.delta","delta":"","event_id":"x"}', 1)).toEqual(
      ['frame 1 (session.output_audio.delta).event_id: not a field of OutputAudioDeltaEvent'],
    )
  })
})
