// The seeded draws behind every fault profile: for the nth position of a target (the nth call of a tool, the nth
// delegation, the nth assistant or caller utterance), each rule of the plane that applies is tried in order, and
// the first whose draw hits decides. A draw is a pure function of the seed, the rule's place in the profile, the
// target and n, so the same seed gives the same faults whatever the call ids, the timing or the other targets.
import type { FaultProfile, FaultRule } from '../config/fault-profiles.ts'

/** A uniform number in [0, 1) from a text key: FNV-1a then one round of a 32-bit mix. */
export function uniform(key: string): number {
  let hash = 0x811c9dc5
  for (let index = 0; index < key.length; index += 1) {
    hash ^= key.charCodeAt(index)
    hash = Math.imul(hash, 0x01000193)
  }
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b)
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35)
  return ((hash ^ (hash >>> 16)) >>> 0) / 0x1_0000_0000
}

export interface Drawn<Rule extends FaultRule> {
  rule: Rule
  /** The position drawn for (0-based), per target. */
  index: number
}

/** One session's draws over one profile; counts positions per target. */
export class FaultDraws {
  readonly profile: FaultProfile
  readonly #positions = new Map<string, number>()

  constructor(profile: FaultProfile) {
    this.profile = profile
  }

  /**
   * Takes the next position of `target` and returns the fault of the first rule `applies` selects whose draw hits
   * there, or null. Every call takes a position, hit or not.
   */
  next<Rule extends FaultRule>(
    target: string,
    applies: (rule: FaultRule) => rule is Rule,
  ): Drawn<Rule> | null {
    const index = this.#positions.get(target) ?? 0
    this.#positions.set(target, index + 1)
    const { seed, rules } = this.profile
    for (const [ruleIndex, rule] of rules.entries()) {
      if (!applies(rule)) continue
      if (rule.calls !== undefined && !rule.calls.includes(index)) continue
      if (uniform(`${seed}|${ruleIndex}|${target}|${index}`) >= rule.rate) continue
      return { rule, index }
    }
    return null
  }
}
