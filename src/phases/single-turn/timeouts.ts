// How long a single-turn scenario test may take: the response timeout plus time for everything around it.
import { judgeTimeBudgetMs } from '../../grading/judge/time-budget.ts'
import type { SingleTurnSettings } from '../engine/execution.ts'

/**
 * Time a scenario test gets besides the response timeout and the judge's worst case: synthesis, connecting,
 * streaming the request, closing.
 */
const SINGLE_TURN_ALLOWANCE_MS = 60_000

export function singleTurnTestTimeoutMs(settings: SingleTurnSettings): number {
  return (
    settings.execution.response_timeout_seconds * 1000 +
    SINGLE_TURN_ALLOWANCE_MS +
    judgeTimeBudgetMs(settings)
  )
}
