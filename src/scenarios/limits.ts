// Limits of the dataset contract. A dataset is written by a person (or a generator) and read by every
// stage after the loader, several of which walk values recursively (JSON.stringify, structuredClone,
// deep equality in graders). A value nested thousands deep would pass a lenient loader and then fail
// every scenario at run time with "Maximum call stack size exceeded", so the loader refuses it with
// the path of the value. Both limits are far above any real dataset (the reference datasets nest at
// most 10 deep and weigh a few hundred kilobytes).

/** Largest dataset file the loader reads, in bytes (16 MiB). */
export const MAX_DATASET_BYTES = 16 * 1024 * 1024

/** Deepest nesting of objects and lists in a dataset, counting the dataset object itself as level 1. */
export const MAX_JSON_DEPTH = 64

/** The violation for a value nested beyond MAX_JSON_DEPTH, whichever check found it. */
export const TOO_DEEP_MESSAGE = `nested deeper than ${MAX_JSON_DEPTH} levels of objects and lists; a dataset may nest at most ${MAX_JSON_DEPTH} deep`

/**
 * Most fields one scenario may hold, counted over all its objects. A real scenario holds a few
 * hundred; a generated one with a million unknown keys would otherwise cost seconds and gigabytes in the schema
 * check and its messages, so it is refused whole, as one problem, counted no further than the limit.
 */
export const MAX_SCENARIO_FIELDS = 100_000

/** The violation for a scenario holding more than MAX_SCENARIO_FIELDS fields. */
export const TOO_MANY_FIELDS_MESSAGE = `holds more than ${MAX_SCENARIO_FIELDS} fields (counted over all its objects); a scenario may hold at most ${MAX_SCENARIO_FIELDS}, so its fields were not checked one by one`

/** True when the objects in `value` hold more than `maxFields` fields in all; stops counting once they do. */
export function exceedsFieldCount(value: unknown, maxFields: number): boolean {
  let count = 0
  const pending: unknown[] = [value]
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    if (typeof current !== 'object' || current === null) continue
    // List items are not counted: a list's length has its own limit, checked (with a better message) first.
    if (Array.isArray(current)) {
      for (const item of current) if (typeof item === 'object' && item !== null) pending.push(item)
      continue
    }
    const record = current as Record<string, unknown>
    const keys = Object.keys(record)
    count += keys.length
    if (count > maxFields) return true
    for (const key of keys) {
      const child = record[key]
      if (typeof child === 'object' && child !== null) pending.push(child)
    }
  }
  return false
}

interface Visit {
  value: unknown
  key: PropertyKey | null
  parent: Visit | null
  depth: number
}

/**
 * The path (relative to `value`) of the first object or list nested deeper than `maxDepth`, `value` itself
 * being at `depth`; null when nothing is. Iterative: it must not overflow on the values it exists to refuse.
 */
export function pathBeyondDepth(value: unknown, depth: number, maxDepth: number): PropertyKey[] | null {
  const pending: Visit[] = [{ value, key: null, parent: null, depth }]
  for (let visit = pending.pop(); visit !== undefined; visit = pending.pop()) {
    if (typeof visit.value !== 'object' || visit.value === null) continue
    if (visit.depth > maxDepth) return pathOf(visit)
    const entries: [PropertyKey, unknown][] = Array.isArray(visit.value)
      ? visit.value.map((item, index) => [index, item])
      : Object.entries(visit.value)
    // Pushed in reverse so the first entry is visited first and the path found is the first in the file.
    for (let index = entries.length - 1; index >= 0; index--) {
      const [key, child] = entries[index] as [PropertyKey, unknown]
      if (typeof child === 'object' && child !== null)
        pending.push({ value: child, key, parent: visit, depth: visit.depth + 1 })
    }
  }
  return null
}

function pathOf(visit: Visit): PropertyKey[] {
  const path: PropertyKey[] = []
  for (let current: Visit | null = visit; current?.key != null; current = current.parent)
    path.push(current.key)
  return path.reverse()
}
