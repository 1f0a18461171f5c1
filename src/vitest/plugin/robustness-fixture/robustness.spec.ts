// The bundled WALK recordings with the default matchers; the noisy recording of the corrected-date booking fails
// its second trial on purpose, so that source scenario is not robust and the other one is.
import { scenarioSuite } from '../../suite.ts'

await scenarioSuite({
  phase: 'walk',
  async test({ liveSession, expect, task }) {
    expect(liveSession).toCompleteTask()
    if (
      liveSession.scenarioId === 'walk_003_booking_corrected_date_noisy' &&
      task.meta.liveEvalsTrial?.trial === 2
    ) {
      expect.fail('the noisy corrected-date recording fails its trial 2 on purpose')
    }
  },
})
