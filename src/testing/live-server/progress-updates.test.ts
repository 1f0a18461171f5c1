// The offline voice model fills a long wait from the end of its own speech: the acknowledgement, a pause of
// PROGRESS_PAUSE_MS, the progress line, the same pause, the line again (at most MAX_PROGRESS_LINES); nothing once
// the delegation is answered, and nothing at all for a call whose behaviour has no line for it.
import { describe, expect, it } from 'vitest'
import { DEFAULT_ACKNOWLEDGEMENT } from './acknowledgements.ts'
import { DelegationProgress, MAX_PROGRESS_LINES, PROGRESS_PAUSE_MS } from './progress-updates.ts'
import { Speaker, type SpokenInterval } from './speech.ts'
import { AudioClockTimeline } from './timeline.ts'

const RATE_HZ = 24_000
const LINE = "I'm still working on that."
const BOOKING = { name: 'create_reservation', arguments: {} }

function voiceModel(line: (call: { name: string }) => string | null) {
  const timeline = new AudioClockTimeline(RATE_HZ)
  const said: (SpokenInterval & { text: string })[] = []
  const speaker = new Speaker({ timeline, send: () => {}, sampleRateHz: RATE_HZ, onSpeechEnd: () => {} })
  const speak = (text: string, notBeforeMs: number) => {
    const interval = speaker.speak(text, notBeforeMs)
    said.push({ text, ...interval })
    return interval
  }
  const progress = new DelegationProgress({
    timeline,
    line,
    speak,
    busyUntilMs: () => speaker.busyUntilMs,
  })
  /** Lets `ms` of caller audio arrive in 20 ms frames, as a session receives it: what is due runs on time. */
  const advance = (ms: number) => {
    for (let sent = 0; sent < ms; sent += 20) timeline.receive((20 * RATE_HZ * 2) / 1000)
  }
  return { progress, said, speak, advance }
}

describe('progress lines while a delegation is pending', () => {
  it('come a pause after the acknowledgement ends, and a pause after each other, at most twice', () => {
    const model = voiceModel(() => LINE)
    model.speak(DEFAULT_ACKNOWLEDGEMENT, 0)
    model.progress.delegationCreated('d1', 0, BOOKING)
    model.advance(20_000)
    const [ack, first, second, ...more] = model.said
    // Due a pause after the previous speech ends; spoken with the first audio frame that reaches that time.
    const pauseBefore = (said: SpokenInterval | undefined, before: SpokenInterval | undefined) =>
      (said?.startMs ?? 0) - (before?.endMs ?? 0)
    for (const [said, before] of [
      [first, ack],
      [second, first],
    ] as const) {
      expect(said?.text).toBe(LINE)
      expect(pauseBefore(said, before)).toBeGreaterThanOrEqual(PROGRESS_PAUSE_MS)
      expect(pauseBefore(said, before)).toBeLessThan(PROGRESS_PAUSE_MS + 20)
    }
    expect(more).toEqual([])
    expect(MAX_PROGRESS_LINES).toBe(2)
  })

  it('stop once the delegation is answered', () => {
    const model = voiceModel(() => LINE)
    model.speak(DEFAULT_ACKNOWLEDGEMENT, 0)
    model.progress.delegationCreated('d1', 0, BOOKING)
    const ackEnd = model.said[0]?.endMs ?? 0
    model.advance(ackEnd + PROGRESS_PAUSE_MS + 100)
    expect(model.said.map((said) => said.text)).toEqual([DEFAULT_ACKNOWLEDGEMENT, LINE])
    model.progress.answered('d1')
    model.advance(20_000)
    expect(model.said.map((said) => said.text)).toEqual([DEFAULT_ACKNOWLEDGEMENT, LINE])
  })

  it('never come for a call the behaviour has no line for', () => {
    const model = voiceModel((call) => (call.name === 'check_availability' ? null : LINE))
    model.progress.delegationCreated('d1', 0, { name: 'check_availability', arguments: {} })
    model.advance(20_000)
    expect(model.said).toEqual([])
  })
})
