// Two scenarios with the default matchers; trial 2 of hours_flaky fails on purpose, so pass^k differs from pass^1.
import { scenarioSuite } from '../../suite.ts'

await scenarioSuite({
  phase: 'crawl',
  async test({ liveSession, expect, task }) {
    expect(liveSession).toCompleteTask()
    if (liveSession.scenarioId === 'hours_flaky' && task.meta.liveEvalsTrial?.trial === 2) {
      expect.fail('hours_flaky fails its trial 2 on purpose')
    }
  },
})
