// The name shards of one run share. Shards usually run on different machines at different times, so nothing
// but a name given to all of them says they belong together and where their merged results go. Without a name
// a run keeps its timestamped folder; a sharded run without one is refused (see runDirectoryLayout).
import { artifactIdProblem } from '../../artifacts/index.ts'
import { type Environment, HarnessConfigError } from '../../config/index.ts'

export const RUN_NAME_VARIABLE = 'LIVE_EVALS_RUN_NAME'

/** The run name from the environment (with its `.env` file), or null when unset or blank. */
export function runNameFrom(env: Environment): string | null {
  const text = env[RUN_NAME_VARIABLE]?.trim() ?? ''
  if (text === '') return null
  const problem = artifactIdProblem(text)
  if (problem !== null) {
    throw new HarnessConfigError([
      `Environment variable ${RUN_NAME_VARIABLE} names run folders, so it ${problem} (got ${JSON.stringify(text)})`,
    ])
  }
  return text
}
