import { describe, expect, it } from 'vitest'
import { passingRowInput } from '../reporting-fixtures.ts'
import { buildResultRow, validateResultRow } from '../result-item.ts'
import { pacingErrorOf } from './pacing.ts'
import { withPacing } from './pacing-row.ts'

describe('the pacing extension', () => {
  it('summarises the frames’ lateness and warns only when the p99 is above the threshold', () => {
    const onTime = Array.from({ length: 200 }, (_, index) => (index % 10) / 10)
    const quiet = pacingErrorOf(onTime, 10)
    expect(quiet).toMatchObject({ frames: 200, p50_ms: 0.4, p99_ms: 0.9, max_ms: 0.9, warning: null })
    // Three frames in a hundred 30 ms late: the p99 is theirs.
    const busy = pacingErrorOf([...onTime, ...Array.from({ length: 7 }, () => 30)], 10)
    expect(busy?.p99_ms).toBe(30)
    expect(busy?.warning?.message).toContain('p99 30 ms, above the 10 ms threshold')
    expect(busy?.warning?.metrics).toContain('metrics.audio.response_latency_ms')
    expect(pacingErrorOf([...onTime, 30, 30, 30], 50)?.warning).toBeNull()
  })

  it('is null on the virtual clock (no lateness measured), and unknown figures are null, never 0', () => {
    expect(pacingErrorOf(null, 10)).toBeNull()
    expect(pacingErrorOf([], 10)).toEqual({
      frames: 0,
      p50_ms: null,
      p99_ms: null,
      max_ms: null,
      warning_threshold_ms: 10,
      warning: null,
    })
  })

  it('lands in the row’s extension block, which the row schema accepts (null too); undefined adds nothing', () => {
    const row = buildResultRow(passingRowInput())
    const paced = withPacing(row, pacingErrorOf([1, 2, 40], 10))
    expect(validateResultRow(paced).observability?.live_evals?.pacing?.warning).not.toBeNull()
    expect(validateResultRow(withPacing(row, null)).observability?.live_evals).toEqual({
      version: '1.0',
      pacing: null,
    })
    expect(withPacing(row, undefined)).toBe(row)
  })
})
