// CPU seconds (user + system) of the child processes this process has waited for, from /proc/self/stat's cutime
// and cstime: a finished Vitest run with all its workers, counted whole however it spread them.
import { readFileSync } from 'node:fs'

export function childrenCpuSeconds(): number {
  const stat = readFileSync('/proc/self/stat', 'utf8')
  const fields = stat
    .slice(stat.lastIndexOf(')') + 2)
    .split(' ')
    .map(Number)
  return ((fields[13] ?? 0) + (fields[14] ?? 0)) / 100
}
