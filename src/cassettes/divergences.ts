// The divergences of one replay, in the order they were found: strict replay stops at the first, lenient keeps
// going and lists them (bounded). Each names the channel, the turn, the message, the JSON path and both values.
import type { Divergence } from '../reporting/extensions/cassette.ts'
import { type Difference, describeDifference, divergenceValue } from './match.ts'

export type { Divergence }

/** How many divergences a lenient replay lists (the count is exact beyond it). */
export const MAX_LISTED_DIVERGENCES = 50

export class DivergenceLog {
  readonly listed: Divergence[] = []
  count = 0
  /** Called once, at the first divergence (strict replay stops the sessions there). */
  onFirst: ((divergence: Divergence) => void) | undefined

  add(
    channel: string,
    turn: number,
    message: string,
    difference: Difference | null,
    what?: string,
  ): Divergence {
    const path = difference?.path ?? ''
    const phrase = what ?? (difference === null ? 'differs' : describeDifference(difference))
    const divergence: Divergence = {
      channel,
      turn,
      message,
      path,
      recorded: difference === null ? null : divergenceValue(difference.recorded),
      now: difference === null ? null : divergenceValue(difference.now),
      text: `${channel} ${message} (turn ${turn}): ${phrase}`,
    }
    this.count += 1
    if (this.listed.length < MAX_LISTED_DIVERGENCES) this.listed.push(divergence)
    if (this.count === 1) this.onFirst?.(divergence)
    return divergence
  }

  get first(): Divergence | null {
    return this.listed[0] ?? null
  }
}
