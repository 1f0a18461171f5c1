// The configuration module's public surface.
export { DEFAULT_GRADING, DEFAULT_MODELS, phaseDefaults } from './defaults.ts'
export {
  chooseEnvironmentFile,
  ENV_FILE_VARIABLE,
  type EnvironmentFileChoice,
  type LoadEnvironmentOptions,
  loadEnvironment,
  REFERENCE_ENV_FILE_VARIABLE,
} from './env-file.ts'
export {
  CONFIG_FILE_VARIABLE,
  ENVIRONMENT_SETTINGS,
  type Environment,
  type EnvironmentSetting,
  REDACT_FIELDS_VARIABLE,
} from './environment.ts'
export { HarnessConfigError } from './errors.ts'
export { assertLiveCredentials } from './live-credentials.ts'
export {
  type LoadPhaseConfigOptions,
  loadPhaseConfig,
  NO_CONFIG_FILE,
  type SettingsOverrides,
  selectConfigFile,
} from './load.ts'
export {
  credentialValues,
  describeSettings,
  isSecretName,
  REDACTED,
  type RedactOptions,
  redactSecrets,
} from './redact.ts'
export {
  ASSISTANT_MODES,
  type CrawlSettings,
  EXECUTION_MODES,
  type GradingSettings,
  JUDGE_BACKENDS,
  MAX_CONCURRENCY,
  type ModelSettings,
  PHASES,
  type Phase,
  type PhaseSettings,
  phaseSettingsSchema,
  type RunSettings,
  type SettingOrigin,
  type SettingsFor,
  type WalkSettings,
} from './schema.ts'
