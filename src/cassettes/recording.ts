// Recording one execution: the scenario runs inside a cassette scope whose recorder sees every session and HTTP
// exchange; afterwards the cassette is written beside the others (files.ts). A recording that cannot be written
// (too large, an unusable folder) turns the row into an infrastructure_error at stage `recording` naming the
// cassette: a run that was asked to record never silently keeps nothing.
import type { ScenarioApplication } from '../assistants/architectures/index.ts'
import type { PhaseSettings } from '../config/index.ts'
import { credentialValues } from '../config/redact.ts'
import type { ScenarioEnv, ScenarioExecution } from '../phases/engine/execution.ts'
import type { StageFailure } from '../phases/engine/stage.ts'
import { pacingOfRow } from '../reporting/extensions/pacing-row.ts'
import { CassetteTooLargeError } from './errors.ts'
import { cassetteFolder, writeCassette } from './files.ts'
import { cassetteHeader, cassetteIdOf } from './header.ts'
import { CassetteRecorder } from './recorder.ts'
import { withCassetteExtension } from './row-extension.ts'
import { MAX_CASSETTE_BYTES } from './schema.ts'
import { runInCassetteScope } from './scope.ts'

export interface CassetteExecutionContext<Execution extends ScenarioExecution> {
  scenario: { id: string; title: string }
  env: ScenarioEnv<PhaseSettings>
  /** The scenario's application (the `toolState` fixture), whose tools the assistant uses. */
  application: ScenarioApplication
  /** The stages of the execution (the engine's own run); `application` replaces the scenario's one. */
  run: (application?: ScenarioApplication) => Promise<Execution>
  /** The phase's infrastructure_error execution for a failure. */
  failed: (failure: StageFailure) => Execution
  /** Test seam: the cassette size cap. */
  limitBytes?: number
}

export function cassetteIdFor(
  context: Pick<CassetteExecutionContext<ScenarioExecution>, 'scenario' | 'env'>,
) {
  return cassetteIdOf(context.scenario.id, context.env.architecture.name, context.env.trial ?? null)
}

export async function recordExecution<Execution extends ScenarioExecution>(
  context: CassetteExecutionContext<Execution>,
): Promise<Execution> {
  const { env } = context
  const settings = env.settings
  const id = cassetteIdFor(context)
  const limitBytes = context.limitBytes ?? MAX_CASSETTE_BYTES
  const recorder = new CassetteRecorder(
    { extraNames: settings.redact_fields, secretValues: credentialValues(settings) },
    limitBytes,
  )
  const execution = await runInCassetteScope(
    { tap: recorder, fetch: (input, init) => recorder.fetch(input, init), recording: recorder.requestEnds },
    () => context.run(),
  )
  const recorded = recorder.finish()
  const toolExecutions = (execution.observation as { tool_executions?: unknown } | null)?.tool_executions
  try {
    if (recorded.overflowed) throw new CassetteTooLargeError(id, limitBytes)
    await writeCassette(
      settings.execution.cassettes_dir ?? 'cassettes',
      {
        header: cassetteHeader({
          id,
          settings,
          architecture: env.architecture.name,
          trial: env.trial ?? null,
          scenario: context.scenario,
          sessions: recorded.sessions,
        }),
        sessions: recorded.sessions,
        http: recorded.http,
        tool_executions: toolExecutions === undefined ? null : JSON.parse(JSON.stringify(toolExecutions)),
        pacing: pacingOfRow(execution.row),
      },
      recorded.files,
      limitBytes,
    )
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error)
    const folder = cassetteFolder(settings.execution.cassettes_dir ?? 'cassettes', id)
    return context.failed({
      stage: 'recording',
      message: `Recording cassette ${id} (${folder}) failed: ${why}`,
    })
  }
  const extension = {
    mode: 'recorded' as const,
    id,
    outcome: null,
    match: null,
    divergence_count: null,
    first_divergence: null,
    divergences: [],
  }
  return { ...execution, row: withCassetteExtension(execution.row, extension) }
}
