// Semantic matching of what is sent now against what was recorded: the first difference between two JSON values,
// as a path and the two values. Volatile fields (client event ids, the harness's clock readings) are normalised
// away; everything else (instructions, tool definitions, tool arguments and outputs, delegation results, request
// bodies) is compared exactly. Audio is compared by content hash by the caller of this module.

/** Keys whose values are the harness's own counters or clock readings, not meaning. */
const VOLATILE_KEYS: ReadonlySet<string> = new Set(['event_id', 'completed_at_ms'])

export interface Difference {
  /** Dotted JSON path ("session.instructions", "input[1].content"); "" for the value itself. */
  path: string
  recorded: unknown
  now: unknown
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const join = (path: string, key: string) => (path === '' ? key : `${path}.${key}`)

/** The first place `now` differs from `recorded`, depth first in the recorded key order; null when equal. */
export function firstDifference(recorded: unknown, now: unknown, path = '', depth = 0): Difference | null {
  if (depth > 64) return null
  if (Array.isArray(recorded) && Array.isArray(now)) {
    const shared = Math.min(recorded.length, now.length)
    for (let index = 0; index < shared; index++) {
      const found = firstDifference(recorded[index], now[index], `${path}[${index}]`, depth + 1)
      if (found !== null) return found
    }
    if (recorded.length === now.length) return null
    return { path: `${path}[${shared}]`, recorded: recorded[shared], now: now[shared] }
  }
  if (isObject(recorded) && isObject(now)) {
    const keys = [...Object.keys(recorded), ...Object.keys(now).filter((key) => !(key in recorded))]
    for (const key of keys) {
      if (VOLATILE_KEYS.has(key)) continue
      const found = firstDifference(recorded[key], now[key], join(path, key), depth + 1)
      if (found !== null) return found
    }
    return null
  }
  return Object.is(recorded, now) ? null : { path, recorded, now }
}

const EXCERPT = 48

function shown(value: unknown): string {
  if (value === undefined) return 'nothing'
  const text = typeof value === 'string' ? JSON.stringify(value) : (JSON.stringify(value) ?? String(value))
  return text.length > 2 * EXCERPT ? `${text.slice(0, 2 * EXCERPT)}…` : text
}

/** An excerpt of `text` around `at`. */
function around(text: string, at: number): string {
  const start = Math.max(0, at - EXCERPT / 2)
  const excerpt = text.slice(start, at + EXCERPT)
  return `${start > 0 ? '…' : ''}${excerpt}${at + EXCERPT < text.length ? '…' : ''}`
}

/**
 * One phrase for a difference: a long text says where it changed ("session.instructions changed at character 212
 * (recorded "…", now "…")"), a short value shows both ("output.reservation_id: recorded "R-001", now "R-002"").
 */
export function describeDifference(difference: Difference): string {
  const where = difference.path === '' ? 'the message' : difference.path
  const { recorded, now } = difference
  const short = (text: string) => text.length <= EXCERPT && !text.includes('\n')
  if (typeof recorded === 'string' && typeof now === 'string' && !(short(recorded) && short(now))) {
    let at = 0
    while (at < recorded.length && at < now.length && recorded[at] === now[at]) at++
    return `${where} changed at character ${at} (recorded ${JSON.stringify(around(recorded, at))}, now ${JSON.stringify(around(now, at))})`
  }
  if (recorded === undefined) return `${where} is new: now ${shown(now)}`
  if (now === undefined) return `${where} is missing: recorded ${shown(recorded)}`
  return `${where}: recorded ${shown(recorded)}, now ${shown(now)}`
}

/** A value as the divergence record keeps it (bounded text). */
export function divergenceValue(value: unknown): string | null {
  return value === undefined ? null : shown(value)
}
