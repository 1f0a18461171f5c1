// A results row without what legitimately differs between a recording and another execution of it (the replayed
// caller's call is live): times and latencies, ids, artifact paths, the judge's free-text rationale, how late the
// harness's own frames went out (pacing), the talk ratio (it divides measured speaking times, a timing), the
// provenance, and the blocks that say which cassette a row came from or was re-graded from.
const DIFFERING_KEYS = new Set(['cassette', 'regrade', 'pacing', 'talk_ratio', 'provenance'])

export function comparableRow(row: unknown): unknown {
  return JSON.parse(
    JSON.stringify(row, (key, value) =>
      /(_ms|_seconds|_at|latency|duration|session_id|artifacts|rationale)$/.test(key) ||
      DIFFERING_KEYS.has(key)
        ? undefined
        : value,
    ),
  )
}

/**
 * A replayed row without what says how it was produced: its provenance (replay, the virtual clock) and the blocks
 * naming the cassette it was replayed or re-graded from. Everything else is its recording's, times and latencies
 * included: replay plays the recording's order on the virtual clock and the sessions' clock counts the audio sent,
 * so every reading the harness makes is the recording's (src/cassettes/replay-schedule.ts).
 */
export function replayedRow(row: unknown): unknown {
  return JSON.parse(
    JSON.stringify(row, (key, value) =>
      key === 'provenance' || key === 'cassette' || key === 'regrade' ? undefined : value,
    ),
  )
}
