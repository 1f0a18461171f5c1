// Nesting depth of parsed JSON, measured without recursion. JSON.parse itself is iterative in V8, but
// everything after it that walks a value (JSON.stringify, structured clones, sanitizers, zod) recurses; a
// frame nested ten thousand deep overflows the stack there. Peers' frames are measured here first.

/** True when `value` nests objects/arrays deeper than `maxDepth` (a flat object is depth 1). */
export function nestsDeeperThan(value: unknown, maxDepth: number): boolean {
  const pending: Array<{ node: object; depth: number }> = []
  if (typeof value === 'object' && value !== null) pending.push({ node: value, depth: 1 })
  for (let next = pending.pop(); next !== undefined; next = pending.pop()) {
    if (next.depth > maxDepth) return true
    const children: unknown[] = Array.isArray(next.node) ? next.node : Object.values(next.node)
    for (const child of children) {
      if (typeof child === 'object' && child !== null) pending.push({ node: child, depth: next.depth + 1 })
    }
  }
  return false
}
