// The run's `fault_profiles` extension from its rows: every profile a row's `faults` record names, defined by the
// bundled profile of that name (only bundled profiles can be named), with its sources and row count.
import { FAULT_PROFILES, type FaultProfile } from '../config/fault-profiles.ts'
import type { FaultSource } from '../faults/events.ts'
import type { RunFaultProfiles } from './extensions/fault-profiles.ts'
import { EXTENSION_KEY } from './extensions/registry.ts'
import type { ResultItem } from './result-schema.ts'

export function summarizeFaultProfiles(
  rows: readonly Pick<ResultItem, 'observability'>[],
): RunFaultProfiles | null {
  const used = new Map<string, { profile: FaultProfile; sources: Set<FaultSource>; rows: number }>()
  for (const row of rows) {
    const faults = row.observability?.[EXTENSION_KEY]?.faults
    if (faults === undefined) continue
    const bundled = Object.hasOwn(FAULT_PROFILES, faults.profile)
      ? (FAULT_PROFILES[faults.profile as keyof typeof FAULT_PROFILES] as FaultProfile)
      : null
    // A profile this version does not bundle is still listed, by what the row recorded of it.
    const profile = bundled ?? { name: faults.profile, seed: faults.seed, rules: [] }
    const entry = used.get(faults.profile) ?? { profile, sources: new Set<FaultSource>(), rows: 0 }
    entry.sources.add(faults.source)
    entry.rows += 1
    used.set(faults.profile, entry)
  }
  if (used.size === 0) return null
  return [...used.values()].map(({ profile, sources, rows: count }) => ({
    profile,
    sources: [...sources].sort(),
    rows: count,
  }))
}
