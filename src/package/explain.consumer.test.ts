// `live-evals explain` on a team's own agent, as a team runs it: the installed tarball in a fresh project whose spec
// (test-projects/consumer's to-do line: its own assistant, scenario and test body) gains a second scenario, the same
// request while the backend is down (a `fault_profile:delegation-error` tag), and a message on its own assertion.
// `npx vitest run` fails that scenario; `npx live-evals explain` on the run folder re-runs it through the project's
// own Vitest run and names the fault profile as the cause, with no shift from suppressing the delegation. The
// re-runs are the spec's own: its own assertion fails every unchanged re-run, by its own check id.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, test } from 'vitest'
import { ExplainDocumentSchema } from '../explain/schema.ts'
import {
  type InstalledConsumer,
  installConsumerProject,
  NODE,
  type Ran,
  run,
  runConsumerVitest,
  SHARED_PACKAGE_TIMEOUT_MS,
  userEnvironment,
} from './consumer-project.test-helpers.ts'

// A child Vitest (twice: the run, then explain's) on a shared two-core machine: minutes, not the unit project's 20 s.
const CHILD_TIMEOUT_MS = 240_000
const FAILING = 'add_bread_backend_down'
const OWN_CHECK = "assertion:the task tool ran: expected [] to deeply equal [ 'add_task' ]"

/** The consumer's to-do spec with the backend-down scenario and its own assertion first, with a message. */
function withBackendDown(spec: string): string {
  const milk = /\n {4}defineScenario\(\{\n {6}id: 'add_milk',[\s\S]*?\n {4}\}\),/.exec(spec)?.[0] ?? ''
  const bread = milk
    .replace("id: 'add_milk'", `id: '${FAILING}'`)
    .replace("title: 'Add a task'", "title: 'Add a task while the backend is down'")
    .replace(
      "interaction: 'single_turn',",
      "interaction: 'single_turn',\n      tags: ['fault_profile:delegation-error'],",
    )
  const executions = 'toolState.executions().map((call) => call.name)'
  return spec
    .replace(milk, `${milk}${bread}`)
    .replace(`\n    expect(${executions}).toEqual(['add_task'])`, '')
    .replace(
      'expect(liveSession).toCompleteTask()',
      `expect(${executions}, 'the task tool ran').toEqual(['add_task'])\n    expect(liveSession).toCompleteTask()`,
    )
}

describe('live-evals explain on your own agent (the installed package)', () => {
  let installed: InstalledConsumer | null = null
  let vitest: Ran | null = null
  let runFolder = ''

  beforeAll(async () => {
    installed = await installConsumerProject('live-evals-explain-')
    if (installed.installed.status !== 0) return
    const { consumer } = installed
    const file = join(consumer, 'specs/crawl/todo.spec.ts')
    writeFileSync(file, withBackendDown(readFileSync(file, 'utf8')))
    // One architecture keeps it small; the run is what `npx vitest run` leaves.
    vitest = runConsumerVitest(
      NODE,
      consumer,
      ['run'],
      userEnvironment({ OPENAI_ASSISTANT_MODE: 'responses' }),
    )
    const results = join(consumer, 'results/crawl')
    const [name] = readdirSync(results).filter((entry) => !entry.startsWith('.'))
    runFolder = join('results/crawl', name ?? '')
  }, SHARED_PACKAGE_TIMEOUT_MS + CHILD_TIMEOUT_MS)

  test(
    'names the intervention that fixes the failed scenario, re-running the spec’s own agent and test body',
    () => {
      expect(installed?.installed.status, installed?.installed.output).toBe(0)
      if (installed === null || vitest === null) return
      const spec = readFileSync(join(installed.consumer, 'specs/crawl/todo.spec.ts'), 'utf8')
      expect(spec).toContain("tags: ['fault_profile:delegation-error']")
      expect(spec).toContain("toEqual(['add_task'])\n    expect(liveSession).toCompleteTask()")
      expect(vitest.status, vitest.output).toBe(1)
      expect(vitest.output).toContain('1 passed, 1 failed')

      // k = 2 is the fewest that still says "fixed" (2/2 against 0/2): each trial is 3 re-runs in the child Vitest.
      const explained = run(
        NODE,
        [join(installed.consumer, 'node_modules/.bin/live-evals'), 'explain', runFolder, '--trials', '2'],
        installed.consumer,
        userEnvironment(),
      )
      expect(explained.status, explained.output).toBe(0)
      const lines = explained.stdout.split('\n')
      expect(lines[1]).toBe(
        `  ${FAILING}: unchanged + 2 intervention(s) (suppress_delegation, faults_off) = 6 re-runs`,
      )
      expect(lines[2]).toBe('budget: 6 of 6 re-runs fit under the cap of 100; offline: free')
      expect(lines[3]).toMatch(/^re-running in the Vitest project "crawl" \(/)
      expect(lines[4]).toBe(
        `  ${FAILING}: fixed by the fault profile delegation-error off in 2/2 (unchanged 0/2): ` +
          'a backend-fault-handling failure',
      )

      const file = /Explanation: (.*)\n/.exec(explained.stdout)?.[1] as string
      const document = ExplainDocumentSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
      const [explanation] = document.explanations
      // The spec's own assertion failed the run's row and fails every unchanged re-run: its body is what re-ran.
      expect(explanation?.original_failed_checks).toContain(OWN_CHECK)
      expect(explanation?.control.reruns.map((rerun) => rerun.failed_checks.includes(OWN_CHECK))).toEqual([
        true,
        true,
      ])
      const arm = (name: string) => explanation?.interventions.find((candidate) => candidate.arm === name)
      expect(arm('faults_off')).toMatchObject({ passed: 2, n: 2, effect: 'fixes' })
      expect(arm('suppress_delegation')).toMatchObject({ passed: 0, effect: 'no_shift', shift: { delta: 0 } })
      expect(explanation?.classification).toMatchObject({ class: 'backend_fault_handling' })
    },
    CHILD_TIMEOUT_MS,
  )
})
