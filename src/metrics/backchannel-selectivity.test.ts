import { describe, expect, test } from 'vitest'
import { answeredBackchannels, backchannelSelectivity } from './backchannel-selectivity.ts'
import type { CallerTurn } from './response-opportunities.ts'

const turn = (start_ms: number, end_ms: number, kind: CallerTurn['kind']): CallerTurn => ({
  start_ms,
  end_ms,
  kind,
})
const voiced = (start_ms: number, end_ms: number) => ({ start_ms, end_ms })

describe('backchannel selectivity', () => {
  test('ignored when the assistant talks on through it or stays quiet; answered when it starts speaking to it', () => {
    const caller = [
      turn(0, 1_000, 'request'),
      turn(2_000, 2_400, 'backchannel'), // the assistant talks on (1 500-4 000): no onset, ignored
      turn(5_000, 5_300, 'backchannel'), // quiet until 9 000 > 5 300 + 2 000: ignored
      turn(10_000, 11_000, 'request'),
      turn(12_500, 12_800, 'backchannel'), // onset at 13 200 <= 12 800 + 2 000: answered
    ]
    const assistant = [
      voiced(1_500, 4_000),
      voiced(9_000, 9_500),
      voiced(11_500, 12_400),
      voiced(13_200, 14_000),
    ]
    expect(answeredBackchannels(caller, assistant, [])).toEqual([false, false, true])
    // 2 ignored of 3: 0.6667.
    expect(backchannelSelectivity(caller, assistant, [])).toEqual({
      backchannels: 3,
      answered: 1,
      ignored: 2,
      selectivity: 0.6667,
    })
  })
  test('speech that a tool result prompted answers the work, not the backchannel; the next caller turn ends the window', () => {
    const caller = [
      turn(0, 1_000, 'request'),
      turn(1_500, 1_800, 'backchannel'), // result at 2 000, onset 2 200: prompted by the result, ignored
      turn(5_000, 5_300, 'backchannel'), // the caller speaks again at 5 600 before the onset at 5 900: ignored
      turn(5_600, 6_000, 'request'),
    ]
    const assistant = [voiced(1_200, 1_400), voiced(2_200, 3_000), voiced(5_900, 6_500)]
    expect(backchannelSelectivity(caller, assistant, [2_000])).toEqual({
      backchannels: 2,
      answered: 0,
      ignored: 2,
      selectivity: 1,
    })
  })
  test('null when the caller gave no backchannel', () => {
    expect(backchannelSelectivity([turn(0, 1_000, 'request')], [voiced(1_500, 2_000)], [])).toEqual({
      backchannels: 0,
      answered: 0,
      ignored: 0,
      selectivity: null,
    })
  })
})
