// Choosing and reading the `.env` file. A variable may name the file explicitly (then it must exist);
// otherwise `<cwd>/.env` is read when present. Values already in the shell always win over the file, so a
// one-off `LIVE_EVALS_MODE=live npx vitest` behaves as typed. Parsing uses Node's own util.parseEnv.
import { resolve } from 'node:path'
import { parseEnv } from 'node:util'
import {
  describeInputFileRefusal,
  INPUT_FILE_CAPS,
  InputFileError,
  readInputTextSync,
} from '../inputs/read-input-file.ts'
import { type Environment, environmentText } from './environment.ts'
import { HarnessConfigError } from './errors.ts'

export const ENV_FILE_VARIABLE = 'LIVE_EVALS_ENV_FILE'
/** The reference toolkit's name for the same setting, accepted so existing setups keep working. */
export const REFERENCE_ENV_FILE_VARIABLE = 'GPT_LIVE_EVALS_ENV_FILE'

export interface EnvironmentFileChoice {
  /** Absolute path of the file to read. */
  path: string
  /** The variable that named it, or null for the default `<cwd>/.env`. */
  namedBy: string | null
}

export interface LoadEnvironmentOptions {
  env?: Environment
  cwd?: string
}

/** Which `.env` file applies. Throws when the two naming variables disagree. */
export function chooseEnvironmentFile(env: Environment, cwd: string): EnvironmentFileChoice {
  const ours = environmentText(env, ENV_FILE_VARIABLE)
  const reference = environmentText(env, REFERENCE_ENV_FILE_VARIABLE)
  if (ours !== null && reference !== null && resolve(cwd, ours) !== resolve(cwd, reference)) {
    throw new HarnessConfigError([
      `${ENV_FILE_VARIABLE} and ${REFERENCE_ENV_FILE_VARIABLE} name different files (${ours}, ${reference}); set only one`,
    ])
  }
  if (ours !== null) return { path: resolve(cwd, ours), namedBy: ENV_FILE_VARIABLE }
  if (reference !== null) return { path: resolve(cwd, reference), namedBy: REFERENCE_ENV_FILE_VARIABLE }
  return { path: resolve(cwd, '.env'), namedBy: null }
}

function readEnvironmentFile(choice: EnvironmentFileChoice): Record<string, string> {
  let text: string
  try {
    text = readInputTextSync(choice.path, INPUT_FILE_CAPS.env_file)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    // The default file is optional; a file someone named on purpose is not.
    if (choice.namedBy === null && error.refusal.kind === 'unreadable' && error.refusal.code === 'ENOENT')
      return {}
    const cause = choice.namedBy === null ? '' : ` (named by ${choice.namedBy})`
    throw new HarnessConfigError([
      `Environment file ${choice.path}${cause} ${describeInputFileRefusal(error.refusal)}`,
    ])
  }
  const parsed = parseEnv(text)
  const values: Record<string, string> = {}
  for (const [name, value] of Object.entries(parsed)) if (value !== undefined) values[name] = value
  return values
}

/**
 * The environment with the chosen `.env` file's values added underneath the existing ones.
 * Returns a new object; process.env is never changed (every process reads the file itself).
 */
export function loadEnvironment(options: LoadEnvironmentOptions = {}): Environment {
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const fileValues = readEnvironmentFile(chooseEnvironmentFile(env, cwd))
  const merged: Environment = { ...fileValues }
  for (const [name, value] of Object.entries(env)) if (value !== undefined) merged[name] = value
  return merged
}
