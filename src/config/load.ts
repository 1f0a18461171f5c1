// Resolving a phase's settings from four layers, highest first: explicit overrides, the environment,
// the phase's TOML file, built-in defaults. Each layer is checked by the same zod field rules; every
// problem names the key and where the bad value came from (file, variable or override), and all
// problems are reported together. Each resolved key remembers its origin so a run can report it.
import { dirname, resolve } from 'node:path'
import type { z } from 'zod'
import { applyCassetteSettings } from './cassette-settings.ts'
import { phaseDefaults, type SectionValues } from './defaults.ts'
import {
  CONFIG_FILE_VARIABLE,
  type Environment,
  type EnvironmentValue,
  environmentText,
  environmentValues,
  redactFieldNames,
} from './environment.ts'
import { HarnessConfigError } from './errors.ts'
import { rememberSecretValues } from './outbound-redaction.ts'
import { replayToolProblems } from './replay-tool-settings.ts'
import {
  fileSections,
  layerSchema,
  OPTIONAL_KEYS,
  PATH_KEYS,
  type Phase,
  SETTINGS_SCHEMAS,
  type SettingOrigin,
  type SettingsFor,
  settingSections,
} from './schema.ts'
import { readHarnessToml } from './toml-file.ts'

type OverridableSections<P extends Phase> = Exclude<
  keyof SettingsFor<P>,
  'phase' | 'config_file' | 'origins' | 'redact_fields'
>

/** Explicit values that beat every other layer, section by section (e.g. `{ execution: { concurrency: 2 } }`). */
export type SettingsOverrides<P extends Phase = Phase> = {
  [S in OverridableSections<P>]?: Partial<SettingsFor<P>[S]>
}

export interface LoadPhaseConfigOptions<P extends Phase = Phase> {
  /** Variables to read settings from; defaults to process.env (pass loadEnvironment's result to include .env). */
  env?: Environment
  overrides?: SettingsOverrides<P>
  /** Folder that environment and override paths are relative to; defaults to process.cwd(). */
  cwd?: string
}

type Origins = Record<string, SettingOrigin>

function describeIssuePath(path: readonly PropertyKey[]): string {
  return path.map(String).join('.')
}

/** Problems of one layer (TOML file or overrides), worded with `lead` ("Configuration", "Override") and `where`. */
function layerProblems(
  schema: z.ZodType,
  value: unknown,
  lead: string,
  where: string,
): { problems: string[]; data: SectionValues } {
  const result = schema.safeParse(value)
  if (result.success) return { problems: [], data: result.data as SectionValues }
  const problems = result.error.issues.map((issue) => {
    if (issue.code === 'unrecognized_keys') {
      const names = issue.keys.map((key) =>
        issue.path.length === 0 ? `[${key}]` : `${describeIssuePath(issue.path)}.${key}`,
      )
      const kind = issue.path.length === 0 ? 'section' : 'key'
      return `${lead} has unknown ${kind}${names.length > 1 ? 's' : ''} ${names.join(', ')}${where}`
    }
    const key = issue.path.length === 1 ? `[${describeIssuePath(issue.path)}]` : describeIssuePath(issue.path)
    return `${lead} ${key} ${issue.message}${where}`
  })
  return { problems, data: {} }
}

function applyLayer(
  target: SectionValues,
  origins: Origins,
  layer: SectionValues,
  origin: SettingOrigin,
): void {
  for (const [section, values] of Object.entries(layer)) {
    if (values === undefined) continue
    const targetSection = target[section] ?? {}
    target[section] = targetSection
    for (const [key, value] of Object.entries(values)) {
      if (value === undefined) continue
      targetSection[key] = value
      origins[`${section}.${key}`] = origin
    }
  }
}

function setDotted(target: SectionValues, key: string, value: unknown): void {
  const [section = '', field = ''] = key.split('.')
  const targetSection = target[section] ?? {}
  target[section] = targetSection
  targetSection[field] = value
}

function getDotted(target: SectionValues, key: string): unknown {
  const [section = '', field = ''] = key.split('.')
  return target[section]?.[field]
}

function originProblem(origin: SettingOrigin | undefined, key: string, message: string): string {
  switch (origin?.source) {
    case 'toml':
      return `Configuration ${key} ${message}: ${origin.file}`
    case 'env':
      return `Environment variable ${origin.variable}: ${key} ${message}`
    case 'override':
      return `Override ${key} ${message}`
    default:
      return `Built-in default ${key} ${message} (a bug in live-evals; please report it)`
  }
}

/**
 * The environment's values checked as the same keys in a TOML file are, so both name the same choices:
 * LIVE_EVALS_MODE=Offline is told "offline", "live" and "replay" (the resolved settings, checked later, know no
 * "replay": it becomes a live run with cassettes).
 */
function environmentProblems(phase: Phase, environment: readonly EnvironmentValue[]): string[] {
  const layer: SectionValues = {}
  for (const { setting, value } of environment) setDotted(layer, setting.key, value)
  const result = layerSchema(settingSections(phase)).safeParse(layer)
  if (result.success) return []
  return result.error.issues.flatMap((issue) => {
    const key = describeIssuePath(issue.path)
    const variable = environment.find(({ setting }) => setting.key === key)?.setting.variable
    return variable === undefined ? [] : [originProblem({ source: 'env', variable }, key, issue.message)]
  })
}

/** Which TOML file to read: LIVE_EVALS_CONFIG when set (relative to cwd), else the given path; null for none. */
export function selectConfigFile(tomlPath: string | null, env: Environment, cwd: string): string | null {
  const chosen = environmentText(env, CONFIG_FILE_VARIABLE) ?? tomlPath
  return chosen === null ? null : resolve(cwd, chosen)
}

/** What `config_file` says when no TOML file was read (the settings are the defaults and the environment). */
export const NO_CONFIG_FILE = '(none: built-in defaults and the environment)'

/**
 * Resolve the settings of one phase. `tomlPath` is the phase's module-owned config.toml (relative paths in it
 * resolve from its folder); null reads no file unless LIVE_EVALS_CONFIG names one (a command outside a Vitest
 * project, such as `live-evals grade`). Throws HarnessConfigError listing every problem.
 */
export function loadPhaseConfig<P extends Phase>(
  phase: P,
  tomlPath: string | null,
  options: LoadPhaseConfigOptions<P> = {},
): SettingsFor<P> {
  const env = options.env ?? process.env
  const cwd = options.cwd ?? process.cwd()
  const configFile = selectConfigFile(tomlPath, env, cwd)

  const toml = layerProblems(
    layerSchema(fileSections(phase)),
    configFile === null ? {} : readHarnessToml(configFile),
    'Configuration',
    `: ${configFile}`,
  )
  const overrides = layerProblems(
    layerSchema(settingSections(phase)),
    options.overrides ?? {},
    'Override',
    '',
  )
  const problems = [...toml.problems, ...overrides.problems]
  let environment: ReturnType<typeof environmentValues> = []
  try {
    environment = environmentValues(phase, env)
    problems.push(...environmentProblems(phase, environment))
  } catch (error) {
    if (!(error instanceof HarnessConfigError)) throw error
    problems.push(...error.problems)
  }
  if (problems.length > 0) throw new HarnessConfigError(problems)

  const values = phaseDefaults(phase)
  const origins: Origins = {}
  for (const [section, fields] of Object.entries(values)) {
    for (const key of Object.keys(fields)) origins[`${section}.${key}`] = { source: 'default' }
  }
  if (configFile !== null) applyLayer(values, origins, toml.data, { source: 'toml', file: configFile })
  for (const { setting, value } of environment) {
    setDotted(values, setting.key, value)
    origins[setting.key] = { source: 'env', variable: setting.variable }
  }
  applyLayer(values, origins, overrides.data, { source: 'override' })

  const sections = settingSections(phase)
  for (const key of OPTIONAL_KEYS) {
    const [section = '', field = ''] = key.split('.')
    if (sections[section]?.[field] === undefined) continue
    if (getDotted(values, key) === undefined) {
      setDotted(values, key, null)
      origins[key] = { source: 'default' }
    }
  }
  for (const key of PATH_KEYS) {
    const value = getDotted(values, key)
    if (typeof value !== 'string' || value === '') continue
    const source = origins[key]?.source
    const base = source === 'env' || source === 'override' || configFile === null ? cwd : dirname(configFile)
    setDotted(values, key, resolve(base, value))
  }

  const cassetteProblems = [
    ...applyCassetteSettings(phase, values, origins, configFile, cwd),
    ...replayToolProblems(phase, values),
  ]
  if (cassetteProblems.length > 0) throw new HarnessConfigError(cassetteProblems)

  const candidate = {
    phase,
    config_file: configFile ?? NO_CONFIG_FILE,
    ...values,
    redact_fields: redactFieldNames(env),
    origins,
  }
  const result = SETTINGS_SCHEMAS[phase].safeParse(candidate)
  if (!result.success) {
    throw new HarnessConfigError(
      result.error.issues.map((issue) => {
        const key = describeIssuePath(issue.path)
        return originProblem(origins[key], key, issue.message)
      }),
    )
  }
  // Whatever this process later sends out (artifacts, console, reports) is scrubbed of these values.
  rememberSecretValues(Object.values(result.data.credentials))
  return result.data as SettingsFor<P>
}
