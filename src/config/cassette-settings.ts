// The cassette settings (src/cassettes) resolved after the layers are merged, because each depends on others:
// - execution.mode "replay" becomes the live code path (mode "live") with replay.enabled, and a replay needs no
//   key: a placeholder stands in for OPENAI_API_KEY (the replay server accepts any), so nothing asks for one;
// - execution.cassettes_dir defaults to cassettes/<phase>/ beside the TOML file (the working directory without one);
// - recording is for live runs: asked for offline or together with replay, it is an error, not a silent no-op.
import { dirname, resolve } from 'node:path'
import type { SectionValues } from './defaults.ts'
import type { Phase, SettingOrigin } from './schema.ts'

/** Stands in for OPENAI_API_KEY in a replay; sent only to the loopback replay server. */
export const REPLAY_PLACEHOLDER_KEY = 'replay-without-a-key'

export function applyCassetteSettings(
  phase: Phase,
  values: SectionValues,
  origins: Record<string, SettingOrigin>,
  configFile: string | null,
  cwd: string,
): string[] {
  const execution = values.execution ?? {}
  const replaying = execution.mode === 'replay'
  const problems: string[] = []
  if (execution.record === true && execution.mode !== 'live') {
    problems.push(
      `execution.record (LIVE_EVALS_RECORD) records live runs only, but execution.mode is "${String(execution.mode)}": ` +
        'set LIVE_EVALS_MODE=live to record, or unset LIVE_EVALS_RECORD',
    )
  }
  if (replaying) execution.mode = 'live'
  values.replay = { ...(values.replay ?? {}), enabled: replaying }
  origins['replay.enabled'] = origins['execution.mode'] ?? { source: 'default' }
  if (execution.cassettes_dir === null || execution.cassettes_dir === undefined) {
    execution.cassettes_dir = resolve(configFile === null ? cwd : dirname(configFile), 'cassettes', phase)
  }
  const credentials = values.credentials ?? {}
  if (replaying && (credentials.openai_api_key === null || credentials.openai_api_key === undefined)) {
    credentials.openai_api_key = REPLAY_PLACEHOLDER_KEY
    values.credentials = credentials
    origins['credentials.openai_api_key'] = { source: 'default' }
  }
  return problems
}
