// A run folder holds each (scenario id, trial) once: its artifacts are named by them, and results.json keys its
// rows by them. Two spec files that evaluate the same scenario of one dataset run in different workers, so each
// test claims its (scenario id, trial) in the run folder before the scenario runs: a file created exclusively
// (`wx`), which names the spec file and test that claimed it. The second claimant fails at once, naming both spec
// files, before anything of its scenario is run or written; the first keeps its artifacts and its row.
import { mkdir, readFile, writeFile } from 'node:fs/promises'
import { join, relative } from 'node:path'
import { z } from 'zod'
import { CLAIMS_FOLDER } from '../artifacts/claims-folder.ts'
import { PRIVATE_FILE_MODE } from '../artifacts/private-directories.ts'
import { DEFAULT_TRIAL, trialArtifactName } from '../reporting/row-key.ts'

const ClaimSchema = z.object({ spec_file: z.string(), test_id: z.string() })
type Claim = z.infer<typeof ClaimSchema>

/** The second spec file to evaluate one (scenario id, trial) into one run folder. */
export class DuplicateScenarioError extends Error {
  /** The spec file that claimed the scenario first (absolute, from its claim); null when its claim is unreadable. */
  readonly firstSpecFile: string | null

  constructor(message: string, firstSpecFile: string | null) {
    super(message)
    this.name = 'DuplicateScenarioError'
    this.firstSpecFile = firstSpecFile
  }
}

export interface ScenarioClaimant {
  /** The spec file of the test (absolute). */
  specFile: string
  /** Vitest's id of the test: a retry of the same test finds its own claim and goes on. */
  testId: string
}

/**
 * Claims (scenario id, trial) in the run folder for this test; throws DuplicateScenarioError when another test
 * claimed it first. Any other failure to claim (an unwritable folder) is left to the artifacts' own writes to
 * report: the claim only guards against a duplicate, it is not the scenario's first artifact.
 */
export async function claimScenarioTrial(
  runDirectory: string,
  scenarioId: string,
  trial: number | null,
  claimant: ScenarioClaimant,
): Promise<void> {
  const folder = join(runDirectory, CLAIMS_FOLDER)
  const file = join(folder, `${trialArtifactName(scenarioId, trial)}.json`)
  const claim: Claim = { spec_file: claimant.specFile, test_id: claimant.testId }
  try {
    await writeClaim(folder, file, `${JSON.stringify(claim)}\n`)
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return
  }
  const first = await readClaim(file)
  if (first?.test_id === claimant.testId) return
  const firstSpec = first === null ? 'another spec file' : shown(first.spec_file)
  throw new DuplicateScenarioError(
    `Scenario "${scenarioId}" trial ${trial ?? DEFAULT_TRIAL} is evaluated twice into one run: ${firstSpec} ` +
      `ran it first, so ${shown(claimant.specFile)} does not run it (its artifacts would overwrite the first's, ` +
      'and results.json holds each scenario and trial once). Evaluate each scenario from one spec file: remove ' +
      'the copy, or give it a dataset of other scenarios.',
    first?.spec_file ?? null,
  )
}

/**
 * Writes the claim exclusively (`wx`). The claims folder is made by the first claim of a run folder that finds it
 * missing, so it is made once per run folder and every other claim is the one write. Neither step creates a
 * parent: a run folder that is gone was removed by a stop (SIGINT/SIGTERM before anything was written), with its
 * claims folder, and a claim must not bring it back holding nothing but claims (both fail with ENOENT).
 */
async function writeClaim(folder: string, file: string, text: string): Promise<void> {
  const write = () => writeFile(file, text, { flag: 'wx', mode: PRIVATE_FILE_MODE })
  try {
    await write()
    return
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
  }
  await mkdir(folder, { mode: 0o700 }).catch((error: NodeJS.ErrnoException) => {
    // Another worker's first claim made it meanwhile.
    if (error.code !== 'EEXIST') throw error
  })
  await write()
}

async function readClaim(file: string): Promise<Claim | null> {
  try {
    // The first claimant writes its claim in one call right after creating it: an empty read is that moment.
    const parsed = ClaimSchema.safeParse(JSON.parse(await readFile(file, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** A spec file as the user wrote it: relative to the working folder when inside it. */
function shown(specFile: string): string {
  const path = relative(process.cwd(), specFile)
  return path.startsWith('..') || path === '' ? specFile : path
}
