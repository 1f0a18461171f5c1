// Two UI reruns clicked while a run is under way: Vitest reports both starts before the first of them runs (it
// reports a start, then waits for the run under way), and ends them in that order. Each end must close the
// projects of its own run, not those of the start reported last.
import { describe, expect, test } from 'vitest'
import type { TestModule, TestSpecification, Vitest } from 'vitest/node'
import CanonicalReporter from './canonical.ts'

/** A project whose run could not start: its global setup provided a problem (the reporter's simplest case). */
const unstartedProject = (phase: string) => ({
  name: phase,
  getProvidedContext: () => ({
    liveEvalsRun: { state: 'not_started', problem: `${phase}: the endpoint refused the key` },
    liveEvalsProject: { phase },
  }),
})

function reporterOver(phases: string[]): { reporter: CanonicalReporter; lines: string[] } {
  const lines: string[] = []
  const vitest = {
    projects: phases.map(unstartedProject),
    config: {},
    getGlobalTestNamePattern: () => /(?:)/,
    logger: { log: (line: string) => lines.push(line) },
  } as unknown as Vitest
  const reporter = new CanonicalReporter()
  reporter.onInit(vitest)
  return { reporter, lines }
}

const specificationOf = (project: string) =>
  ({ project: { name: project }, moduleId: `/specs/${project}.spec.ts` }) as unknown as TestSpecification
/** The finished test file of a project's spec file (no scenario test in it: its run did not start). */
const moduleOf = (project: string) =>
  ({ moduleId: `/specs/${project}.spec.ts`, children: { allTests: () => [] } }) as unknown as TestModule

describe('the canonical reporter with runs queued behind one another', () => {
  test('each run end closes the projects of the run that started first, then the next', async () => {
    const { reporter, lines } = reporterOver(['crawl', 'walk'])
    reporter.onTestRunStart([specificationOf('crawl')])
    reporter.onTestRunStart([specificationOf('walk')])

    await reporter.onTestRunEnd([], [], 'passed')
    expect(lines).toEqual([
      '0 passed, 0 failed; the CRAWL run did not start (its problem is above), nothing of it was written',
    ])

    await reporter.onTestRunEnd([], [], 'passed')
    expect(lines.at(-1)).toBe(
      '0 passed, 0 failed; the WALK run did not start (its problem is above), nothing of it was written',
    )
  })

  test('a run of both projects after them closes both', async () => {
    const { reporter, lines } = reporterOver(['crawl', 'walk'])
    reporter.onTestRunStart([specificationOf('crawl')])
    await reporter.onTestRunEnd([], [], 'passed')
    reporter.onTestRunStart([specificationOf('crawl'), specificationOf('walk')])
    await reporter.onTestRunEnd([], [], 'passed')
    expect(lines.at(-1)).toContain('the CRAWL and WALK runs did not start')
  })

  test('a start whose run never ended is dropped at the end of the next run, which closes its own projects', async () => {
    const { reporter, lines } = reporterOver(['crawl', 'walk'])
    // Vitest reports a start before anything can fail: here the CRAWL run failed to begin and reported no end.
    reporter.onTestRunStart([specificationOf('crawl')])
    reporter.onTestRunStart([specificationOf('walk')])
    await reporter.onTestRunEnd([moduleOf('walk')], [], 'passed')
    expect(lines).toEqual([
      '0 passed, 0 failed; the WALK run did not start (its problem is above), nothing of it was written',
    ])
    reporter.onTestRunStart([specificationOf('walk')])
    await reporter.onTestRunEnd([moduleOf('walk')], [], 'passed')
    expect(lines.at(-1)).toContain('the WALK run did not start')
  })
})
