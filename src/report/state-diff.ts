// The difference between the initial and the final application state, as JSON paths: what the report highlights.
// Objects compare by key and arrays by position; nesting beyond MAX_DEPTH compares as a whole (iteratively), so
// a pathological file cannot recurse without bound. Paths are written as the graders write them.

import { childPath } from '../grading/state-differences.ts'

export type StateChange =
  | { path: string; kind: 'added'; after: unknown }
  | { path: string; kind: 'removed'; before: unknown }
  | { path: string; kind: 'changed'; before: unknown; after: unknown }

const MAX_DEPTH = 32

const isContainer = (value: unknown): value is Record<string, unknown> | unknown[] =>
  typeof value === 'object' && value !== null

/** Deep JSON equality with an explicit stack: no recursion, whatever the nesting. */
function sameJson(a: unknown, b: unknown): boolean {
  const pending: [unknown, unknown][] = [[a, b]]
  while (pending.length > 0) {
    const [x, y] = pending.pop() as [unknown, unknown]
    if (Object.is(x, y)) continue
    if (!isContainer(x) || !isContainer(y) || Array.isArray(x) !== Array.isArray(y)) return false
    const xKeys = Object.keys(x)
    const yRecord = y as Record<string, unknown>
    if (xKeys.length !== Object.keys(y).length) return false
    for (const key of xKeys) {
      if (!Object.hasOwn(yRecord, key)) return false
      pending.push([(x as Record<string, unknown>)[key], yRecord[key]])
    }
  }
  return true
}

export function diffState(before: unknown, after: unknown): StateChange[] {
  const changes: StateChange[] = []
  const walk = (was: unknown, now: unknown, path: string, depth: number) => {
    const bothContainers = isContainer(was) && isContainer(now) && Array.isArray(was) === Array.isArray(now)
    if (!bothContainers || depth >= MAX_DEPTH) {
      if (!sameJson(was, now)) {
        changes.push({ path: path === '' ? '(state)' : path, kind: 'changed', before: was, after: now })
      }
      return
    }
    const wasRecord = was as Record<string, unknown>
    const nowRecord = now as Record<string, unknown>
    const keys = Array.isArray(was)
      ? Array.from({ length: Math.max(was.length, (now as unknown[]).length) }, (_, index) => index)
      : [...new Set([...Object.keys(wasRecord), ...Object.keys(nowRecord)])]
    for (const key of keys) {
      const next = childPath(path, key)
      const inBefore = Object.hasOwn(wasRecord, key)
      const inAfter = Object.hasOwn(nowRecord, key)
      if (!inBefore) changes.push({ path: next, kind: 'added', after: nowRecord[key] })
      else if (!inAfter) changes.push({ path: next, kind: 'removed', before: wasRecord[key] })
      else walk(wasRecord[key], nowRecord[key], next, depth + 1)
    }
  }
  walk(before, after, '', 0)
  return changes
}
