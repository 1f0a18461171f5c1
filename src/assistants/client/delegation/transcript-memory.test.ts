import { describe, expect, it } from 'vitest'
import { parseSrt, renderSrt, srtTimestamp } from './srt.ts'
import { TranscriptMemory } from './transcript-memory.ts'

let nextId = 0
const inputDelta = (delta: string, start: number, end: number, eventId = `ev_${++nextId}`) => ({
  type: 'session.input_transcript.delta',
  event_id: eventId,
  delta,
  start_ms: start,
  end_ms: end,
})
const outputDelta = (delta: string, start: number, end: number) => ({
  ...inputDelta(delta, start, end),
  type: 'session.output_transcript.delta',
})
const turnDone = (id: string, role: string, transcript: string, start: number, end: number) => ({
  type: 'turn.done',
  event_id: `ev_${++nextId}`,
  turn: { id, role, transcript, start_ms: start, end_ms: end },
})
const texts = (memory: TranscriptMemory) => memory.segments().map((s) => `${s.role}: ${s.text}`)

describe('SRT rendering', () => {
  it('formats timestamps as HH:MM:SS,mmm', () => {
    expect(srtTimestamp(0)).toBe('00:00:00,000')
    expect(srtTimestamp(3_723_045)).toBe('01:02:03,045')
  })

  it('numbers blocks, separates them by a blank line, and prefixes the role', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('Is Thursday free?', 600, 1_900))
    memory.observe(outputDelta('Let me look.', 2_500, 3_100))
    expect(memory.consumeSrt()).toBe(
      '1\n00:00:00,600 --> 00:00:01,900\nUSER: Is Thursday free?\n\n2\n00:00:02,500 --> 00:00:03,100\nASSISTANT: Let me look.',
    )
  })

  it('reads back what it renders, and names a block that is not ours', () => {
    const entries = [
      { role: 'USER' as const, startMs: 5, endMs: 3_723_045, text: 'Two lines\n\nof text' },
      { role: 'ASSISTANT' as const, startMs: 4_000_000, endMs: 4_000_001, text: 'Ok.' },
    ]
    expect(parseSrt(renderSrt(entries))).toEqual(entries)
    expect(parseSrt('')).toEqual([])
    expect(() => parseSrt('1\nnot a timing line\nUSER: x')).toThrow(/block 1/)
  })

  it('renders the empty string when nothing new arrived', () => {
    expect(new TranscriptMemory().consumeSrt()).toBe('')
  })
})

describe('history seeding', () => {
  it('turns user and assistant items with text into history segments at [0, index+1] ms', () => {
    const memory = new TranscriptMemory()
    memory.seedHistory([
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'internal note' }] },
      {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'Table for' }, { text: 'two?' }],
      },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: '   ' }] },
      { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Which day?' }] },
    ])
    expect(memory.segments()).toEqual([
      {
        id: 'history:1',
        role: 'USER',
        startMs: 0,
        endMs: 2,
        text: 'Table for two?',
        delivered: 0,
        projected: false,
      },
      {
        id: 'history:3',
        role: 'ASSISTANT',
        startMs: 0,
        endMs: 4,
        text: 'Which day?',
        delivered: 0,
        projected: false,
      },
    ])
  })

  it('puts a history line and a transcript delta both in the first SRT', () => {
    const memory = new TranscriptMemory()
    memory.seedHistory([{ role: 'user', content: [{ text: 'I booked under Rivera.' }] }])
    memory.observe(inputDelta('Move it to eight.', 1_000, 2_000))
    const srt = memory.consumeSrt()
    expect(srt).toContain('USER: I booked under Rivera.')
    expect(srt).toContain('USER: Move it to eight.')
  })
})

describe('observing events', () => {
  it('ignores an event_id seen before', () => {
    const memory = new TranscriptMemory()
    const event = inputDelta('Hello', 0, 300)
    expect(memory.observe(event)).toBe('recorded')
    expect(memory.observe(event)).toBe('duplicate')
    expect(texts(memory)).toEqual(['USER: Hello'])
  })

  it('maps input transcripts to the user and output transcripts to the assistant', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('Hi', 0, 100))
    memory.observe(outputDelta('Hello there', 2_000, 2_400))
    expect(texts(memory)).toEqual(['USER: Hi', 'ASSISTANT: Hello there'])
  })

  it('appends deltas and sets text on added/done, keyed by item_id, item.id or turn_id', () => {
    const memory = new TranscriptMemory()
    memory.observe({
      type: 'conversation.input_transcript.delta',
      event_id: 'a',
      item_id: 'item_1',
      delta: 'Book ',
    })
    memory.observe({
      type: 'conversation.input_transcript.delta',
      event_id: 'b',
      item_id: 'item_1',
      delta: 'it',
    })
    memory.observe({
      type: 'input_transcript.done',
      event_id: 'c',
      item: { id: 'item_1', text: 'Book it now' },
    })
    memory.observe({ type: 'output_transcript.added', event_id: 'd', turn_id: 'turn_9', text: 'Done.' })
    expect(texts(memory)).toEqual(['USER: Book it now', 'ASSISTANT: Done.'])
    expect(memory.segments().map((s) => s.id)).toEqual(['item_1', 'turn_9'])
  })

  it('ignores non-transcript events and reports a malformed transcript event without throwing', () => {
    const memory = new TranscriptMemory()
    expect(memory.observe({ type: 'session.usage.updated', usage: { seconds: 1 } })).toBe('ignored')
    expect(memory.observe({ type: 'session.input_transcript.delta', item: [], delta: 'x' })).toMatchObject({
      problem: expect.stringContaining('item'),
    })
    expect(memory.observe({ type: 'turn.done', turn: { id: 't', start_ms: 'soon' } })).toMatchObject({
      problem: expect.stringContaining('start_ms'),
    })
    expect(memory.segments()).toEqual([])
  })

  it('joins id-less deltas that are close in time, keeping repeated words with distinct event ids', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('Fri', 0, 200))
    memory.observe(inputDelta('day', 200, 400))
    memory.observe(inputDelta(' no', 400, 600))
    memory.observe(inputDelta(' no', 600, 800))
    memory.observe(inputDelta(', Saturday.', 1_300, 1_600))
    expect(texts(memory)).toEqual(['USER: Friday no no, Saturday.'])
    expect(memory.segments()[0]).toMatchObject({ startMs: 0, endMs: 1_600 })
  })

  it('opens a new live segment for an id-less delta more than 500 ms after the latest one', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('First.', 0, 1_000))
    memory.observe(inputDelta('Second.', 1_501, 2_000))
    expect(texts(memory)).toEqual(['USER: First.', 'USER: Second.'])
  })

  it('does not join an id-less delta that ends before the latest live segment starts', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('Later words', 2_000, 2_500))
    memory.observe(inputDelta('Earlier words', 1_000, 1_999))
    expect(texts(memory)).toEqual(['USER: Earlier words', 'USER: Later words'])
  })

  it('does not join an id-less delta to the other role', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('Caller', 0, 500))
    memory.observe(outputDelta('Agent', 400, 700))
    expect(texts(memory)).toEqual(['USER: Caller', 'ASSISTANT: Agent'])
  })

  it('gives every new segment at least 1 ms and only ever widens times', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('Hi', 500, 500))
    expect(memory.segments()[0]).toMatchObject({ startMs: 500, endMs: 501 })
    memory.observe({
      type: 'input_transcript.delta',
      event_id: 'x',
      item_id: 'i',
      delta: 'A',
      start_ms: 1_000,
      end_ms: 2_000,
    })
    memory.observe({
      type: 'input_transcript.delta',
      event_id: 'y',
      item_id: 'i',
      delta: 'B',
      start_ms: 1_200,
      end_ms: 1_500,
    })
    expect(memory.segments()[1]).toMatchObject({ text: 'AB', startMs: 1_000, endMs: 2_000 })
  })
})

describe('projected and actual transcripts', () => {
  it('shows "Book Friday" once when a projected turn is followed by the actual transcript', () => {
    const memory = new TranscriptMemory()
    memory.observe(turnDone('t1', 'user', 'Book Friday', 0, 1_000))
    memory.observe(inputDelta('Book Friday', 100, 1_000))
    const first = memory.consumeSrt()
    expect(first.match(/Book Friday/g)).toHaveLength(1)
    expect(memory.segments()).toHaveLength(1)
    expect(memory.segments()[0]?.projected).toBe(false)
    expect(memory.consumeSrt()).toBe('')
    memory.observe(inputDelta(' Actually, Saturday.', 1_200, 2_000))
    const next = memory.consumeSrt()
    expect(next).toContain('USER: Actually, Saturday.')
    expect(next).not.toContain('Book Friday')
  })

  it('lets actual text replace a delivered projection and delivers it again', () => {
    const memory = new TranscriptMemory()
    memory.observe(turnDone('t1', 'user', 'Book Friday at seven', 0, 1_000))
    expect(memory.consumeSrt()).toContain('Book Friday at seven')
    memory.observe(inputDelta('Book Friday', 300, 900))
    expect(memory.consumeSrt()).toContain('USER: Book Friday')
  })

  it('never lets a projected turn overwrite an actual transcript', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('Book Friday for four', 0, 1_000))
    memory.observe(turnDone('t1', 'user', 'Book Friday', 200, 1_400))
    expect(texts(memory)).toEqual(['USER: Book Friday for four'])
    expect(memory.segments()[0]).toMatchObject({ startMs: 0, endMs: 1_400 })
  })

  it('matches the other kind only within 1 000 ms and when one text contains the other', () => {
    const memory = new TranscriptMemory()
    memory.observe(turnDone('t1', 'user', 'Book Friday', 0, 500))
    memory.observe(inputDelta('Book Friday', 1_001, 1_500))
    memory.observe(turnDone('t2', 'user', 'Something else', 1_100, 1_600))
    expect(memory.segments().map((s) => [s.id.split(':')[0], s.projected])).toEqual([
      ['turn', true],
      ['live', false],
      ['turn', true],
    ])
  })

  it('leaves out a projected segment that overlaps an actual one of the same role', () => {
    const memory = new TranscriptMemory()
    memory.observe(inputDelta('Table for two', 0, 1_000))
    memory.observe(turnDone('t9', 'user', 'A quite different projection', 500, 1_500))
    memory.observe(turnDone('t10', 'assistant', 'Sure.', 500, 1_500))
    const srt = memory.consumeSrt()
    expect(srt).not.toContain('different projection')
    expect(srt).toContain('ASSISTANT: Sure.')
  })

  it('updates a projected turn when turn.done follows turn.created for the same id', () => {
    const memory = new TranscriptMemory()
    memory.observe({ ...turnDone('t1', 'user', 'Book', 0, 500), type: 'turn.created' })
    memory.observe(turnDone('t1', 'user', 'Book a table', 0, 900))
    expect(texts(memory)).toEqual(['USER: Book a table'])
  })
})

describe('consuming per delegation', () => {
  it('delivers only the undelivered suffix of each segment, trimmed, in time order', () => {
    const memory = new TranscriptMemory()
    memory.observe(outputDelta('How can I help?', 0, 800))
    memory.observe(inputDelta('Table for two', 1_000, 1_800))
    expect(memory.consumeSrt()).toContain('1\n00:00:00,000 --> 00:00:00,800\nASSISTANT: How can I help?')
    memory.observe(inputDelta(' on Friday', 1_900, 2_300))
    expect(memory.consumeSrt()).toBe('1\n00:00:01,000 --> 00:00:02,300\nUSER: on Friday')
    expect(memory.consumeSrt()).toBe('')
  })
})
