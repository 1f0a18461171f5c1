// The scenario fixtures are the real parts of a run: a child Vitest runs src/vitest/fixtures/wiring, whose spec
// reads toolState and callerAudio after liveSession ran (see that spec for the assertions), offline, in both
// architectures, on the bundled booking scenario.
import { expect, test } from 'vitest'
import { lines, runVitest, SPAWN_TIMEOUT_MS, scratch } from './child-vitest.ts'

test(
  'toolState is the booked application and callerAudio the streamed audio, also when overridden',
  async () => {
    const { env } = await scratch()
    const run = await runVitest(['run', '--config', 'src/vitest/fixtures/wiring/vitest.config.ts'], {
      ...env,
      LIVE_EVALS_DATASET: 'scenarios/crawl/restaurant.json',
    })
    expect(lines(run.output), run.output).toContain('4 passed, 0 failed')
    expect(run.code).toBe(0)
  },
  SPAWN_TIMEOUT_MS,
)
