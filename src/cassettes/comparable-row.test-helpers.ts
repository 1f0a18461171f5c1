// A results row without what legitimately differs between a recording and its replay or re-grade, for the tests
// that compare them: times and latencies, ids, artifact paths, the judge's free-text rationale, how late the
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
