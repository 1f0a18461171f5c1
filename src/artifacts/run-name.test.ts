import { describe, expect, it } from 'vitest'
import { defaultRunLabel, runName, runTimestamp } from './run-name.ts'

describe('runName', () => {
  it('formats <label>_<YYYYmmdd_HHMMSS>_<mmm>Z in UTC', () => {
    expect(runName('run_offline', new Date('2026-08-18T00:00:00.000Z'))).toBe(
      'run_offline_20260818_000000_000Z',
    )
    expect(runName('crawl', new Date('2026-01-02T03:04:05.067Z'))).toBe('crawl_20260102_030405_067Z')
  })

  it('uses UTC, not the local time zone', () => {
    // Machines (and CI) often run in UTC, where local and UTC fields agree. At UTC-09:30 every field from
    // the year to the minute differs from UTC for this instant. Node re-reads TZ when it is assigned.
    const savedZone = process.env.TZ
    process.env.TZ = 'Pacific/Marquesas'
    try {
      expect(new Date('2026-12-31T23:30:00.999-05:00').getMinutes()).toBe(0)
      // 23:30 at UTC-05:00 is the next day in UTC.
      expect(runTimestamp(new Date('2026-12-31T23:30:00.999-05:00'))).toBe('20270101_043000_999Z')
    } finally {
      if (savedZone === undefined) delete process.env.TZ
      else process.env.TZ = savedZone
    }
  })

  it.each(['', 'has space', '../up', 'a/b', '_x', 'trailing.', 'CON', 'café'])(
    'rejects the label %j',
    (label) => {
      expect(() => runName(label, new Date(0))).toThrow(`Run label ${JSON.stringify(label)} must`)
    },
  )

  it('rejects an invalid date', () => {
    expect(() => runName('ok', new Date(Number.NaN))).toThrow('invalid Date')
  })

  it('builds the default label from phase and mode', () => {
    expect(defaultRunLabel('walk', 'live')).toBe('walk_live')
  })
})
