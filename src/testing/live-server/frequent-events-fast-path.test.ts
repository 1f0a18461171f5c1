// The fast path in validation.ts (audio appends and the body-less events) must give exactly what the schema's
// parse gives, and leave every frame it does not fully recognise (a malformed one included) to the full path
// and its named error.
import { describe, expect, it } from 'vitest'
import { clientEventSchemas } from './client-events-schema.ts'
import { DEFAULT_LIMITS } from './limits.ts'
import { parseClientFrame, wellFormedFrequentEvent } from './validation.ts'

const TYPE = 'session.input_audio.append'
const AUDIO = Buffer.alloc(960, 3).toString('base64')

/** What the slow path (the strict schema) makes of a frame's JSON. */
const bySchema = (raw: unknown) =>
  clientEventSchemas[(raw as { type: keyof typeof clientEventSchemas }).type].safeParse(raw)
const BODILESS = [
  'session.input_audio.mute',
  'session.input_audio.unmute',
  'response.create',
  'session.close',
]

describe('fast path for audio appends and body-less events', () => {
  it('gives the schema parse result, keys and their order included, for every well-formed append', () => {
    const frames = [
      { type: TYPE, audio: AUDIO },
      { type: TYPE, event_id: 'evt_1', audio: AUDIO },
      { audio: AUDIO, event_id: 'evt_2', type: TYPE },
      { type: TYPE, event_id: null, audio: AUDIO },
      { type: TYPE, event_id: '', audio: '' },
      ...BODILESS.flatMap((type) => [{ type }, { type, event_id: 'e9' }, { event_id: null, type }]),
    ]
    for (const frame of frames) {
      const raw = JSON.parse(JSON.stringify(frame))
      const fast = wellFormedFrequentEvent(raw)
      const slow = bySchema(raw)
      expect(slow.success).toBe(true)
      expect(fast).toStrictEqual(slow.data)
      expect(JSON.stringify(fast)).toBe(JSON.stringify(slow.data))
      const parsed = parseClientFrame(JSON.stringify(frame), DEFAULT_LIMITS)
      expect(parsed).toStrictEqual({
        ok: true,
        event: slow.data,
        clientEventId: typeof frame.event_id === 'string' ? frame.event_id : undefined,
      })
    }
  })

  it('leaves anything else to the full path, which still names the problem', () => {
    const cases: Array<[unknown, { code: string; param?: string }]> = [
      [{ type: TYPE }, { code: 'missing_required_parameter', param: 'audio' }],
      [
        { type: TYPE, audio: 42 },
        { code: 'invalid_value', param: 'audio' },
      ],
      [
        { type: TYPE, audio: AUDIO, event_id: 7 },
        { code: 'invalid_value', param: 'event_id' },
      ],
      [
        { type: TYPE, audio: AUDIO, extra: true },
        { code: 'unknown_parameter', param: 'extra' },
      ],
      [{ type: TYPE, audio: AUDIO, __proto__x: 1 }, { code: 'unknown_parameter' }],
      ...BODILESS.flatMap(
        (type): Array<[unknown, { code: string; param?: string }]> => [
          [
            { type, audio: AUDIO },
            { code: 'unknown_parameter', param: 'audio' },
          ],
          [
            { type, event_id: 3 },
            { code: 'invalid_value', param: 'event_id' },
          ],
        ],
      ),
    ]
    for (const [frame, error] of cases) {
      const raw = JSON.parse(JSON.stringify(frame))
      expect(wellFormedFrequentEvent(raw)).toBeNull()
      const parsed = parseClientFrame(JSON.stringify(frame), DEFAULT_LIMITS)
      expect(parsed.ok).toBe(false)
      if (!parsed.ok) expect(parsed.error).toMatchObject(error)
    }
    // A `__proto__` key in the JSON is an own key of the parsed frame: not taken as a well-formed append.
    const protoFrame = `{"type":"${TYPE}","audio":"${AUDIO}","__proto__":{"x":1}}`
    expect(wellFormedFrequentEvent(JSON.parse(protoFrame))).toBeNull()
    expect(parseClientFrame(protoFrame, DEFAULT_LIMITS).ok).toBe(false)
    // Other event types and non-objects are never taken by the fast path.
    const others = [null, [], 'text', { type: 'session.update' }, { type: TYPE.toUpperCase() }, { type: 7 }]
    for (const raw of others) {
      expect(wellFormedFrequentEvent(raw)).toBeNull()
    }
  })

  it('still refuses a frame over the size limit before reading it', () => {
    const frame = JSON.stringify({ type: TYPE, audio: AUDIO })
    const parsed = parseClientFrame(frame, { ...DEFAULT_LIMITS, maxFrameBytes: 100 })
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error.code).toBe('frame_too_large')
  })
})
