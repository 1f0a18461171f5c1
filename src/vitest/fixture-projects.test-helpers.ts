// One fixture project's part of the shared `fixtureProjects` run (src/vitest/fixtures/together: several live-evals
// projects in one child Vitest). A project is told by its spec files' folder: Vitest's JSON report gives each of
// its files and tests, and each test's run folder (its task meta); what the canonical reporter printed about a run
// folder is the closing block that names it.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { ROOT } from './child-vitest.test-helpers.ts'
import { type SharedChildRun, sharedChildRun } from './shared-child-run.test-helpers.ts'

export type FixtureFolder =
  | 'verdict'
  | 'refusal'
  | 'planted'
  | 'wiring'
  | 'own-agent'
  | 'own-agent/broken'
  | 'duplicate'
  | 'regrade'
  | 'unconfigured'
  | 'faults-off'
  | 'robustness'
  | 'robustness/missing'
  | 'trials'

/** The spec folders of the projects whose spec files are not in src/vitest/fixtures/<folder>. */
const SPEC_FOLDERS: Partial<Record<FixtureFolder, string>> = {
  'faults-off': 'specs/run', // the bundled fault suite itself; no other project of the run includes specs/run
  robustness: 'src/vitest/plugin/robustness-fixture',
  'robustness/missing': 'src/vitest/plugin/robustness-fixture/missing',
  trials: 'src/vitest/plugin/trials-fixture',
}

export interface JsonReportTest {
  fullName: string
  title: string
  status: 'passed' | 'failed' | 'skipped' | 'pending' | 'todo'
  failureMessages: string[]
  meta?: { liveEvals?: { runDirectory?: string } }
}

interface JsonReportFile {
  name: string
  status: string
  message: string
  assertionResults: JsonReportTest[]
}

export interface FixtureProjectPart {
  /** The whole shared run: its exit code and output cover every project. */
  run: SharedChildRun
  /** The project's spec files, by path relative to its spec folder, with their status. */
  files: Map<string, { status: string; message: string }>
  tests: JsonReportTest[]
  /** The run folders the project's tests ran in, sorted. */
  runDirectories: string[]
  /** The lines the run printed that name `runDirectory` or close its summary (from "[arch] Completed" on). */
  printedAbout(runDirectory: string): string[]
}

export async function fixtureProjectPart(folder: FixtureFolder): Promise<FixtureProjectPart> {
  const run = await sharedChildRun('fixtureProjects')
  const report = JSON.parse(await readFile(join(run.dir, 'report.json'), 'utf8')) as {
    testResults: JsonReportFile[]
  }
  const prefix = join(ROOT, SPEC_FOLDERS[folder] ?? join('src/vitest/fixtures', folder), '/')
  // The folder's own spec files, not a subfolder's (own-agent/broken is a project of its own).
  const ours = report.testResults.filter(
    (file) => file.name.startsWith(prefix) && !file.name.slice(prefix.length).includes('/'),
  )
  if (ours.length === 0)
    throw new Error(`the shared fixture run has no spec file in ${prefix}:\n${run.output}`)
  const tests = ours.flatMap((file) => file.assertionResults)
  const runDirectories = [
    ...new Set(tests.flatMap((test) => test.meta?.liveEvals?.runDirectory ?? [])),
  ].sort()
  const lines = run.output.split(/\r?\n/).map((line) => line.trim())
  return {
    run,
    files: new Map(
      ours.map((file) => [file.name.slice(prefix.length), { status: file.status, message: file.message }]),
    ),
    tests,
    runDirectories,
    printedAbout(runDirectory) {
      // The closing block of one run folder: "[arch] Completed …" … "Results: <folder>" (blank lines between blocks).
      const results = lines.indexOf(`Results: ${runDirectory}`)
      let start = results
      while (start > 0 && lines[start - 1] !== '') start--
      const block = results < 0 ? [] : lines.slice(start, results + 1)
      const naming = lines.filter((line) => line.includes(runDirectory) && !block.includes(line))
      return [...naming, ...block]
    },
  }
}
