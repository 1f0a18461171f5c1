// Replaying one execution: its cassette is read and checked against this run (format version, scenario, model),
// a replay server plays it, and the execution runs the live code path inside the server's cassette scope. What
// the harness and the assistant's code send is matched against the recording; the tool executions are compared
// afterwards. Strict: any divergence makes the row an infrastructure_error at stage `replay` whose message is the
// first divergence. Lenient: the row keeps its grades and lists the divergences. A missing or refused cassette is
// always an infrastructure_error at stage `replay`, never a pass or a skip.
import type { PhaseSettings } from '../config/index.ts'
import { credentialValues } from '../config/redact.ts'
import type { ScenarioExecution } from '../phases/engine/execution.ts'
import type { CassetteRowExtension } from '../reporting/extensions/cassette.ts'
import { withPacing } from '../reporting/extensions/pacing-row.ts'
import { withRowExtension } from '../reporting/extensions/with-row-extension.ts'
import { CassetteRefusedError } from './errors.ts'
import { type LoadedCassette, readCassette } from './files.ts'
import { jsonHash } from './hashes.ts'
import { firstDifference } from './match.ts'
import { type CassetteExecutionContext, cassetteIdFor } from './recording.ts'
import { redactJson } from './redaction.ts'
import { RegradeReplay } from './regrade/regrade-replay.ts'
import { startReplayServer } from './replay-server.ts'
import { withCassetteExtension } from './row-extension.ts'
import { runInCassetteScope } from './scope.ts'

/** Refuses a cassette recorded for another scenario (its content) or another GPT-Live model, by name. */
export function refuseForeignCassette(
  loaded: LoadedCassette,
  scenario: unknown,
  settings: PhaseSettings,
): void {
  const { header } = loaded.cassette
  const hash = jsonHash(scenario)
  // A re-grade applies changed expectations to the recorded conversation (src/cassettes/regrade).
  if (header.scenario_hash !== hash && !settings.replay.regrade) {
    throw new CassetteRefusedError(
      header.id,
      'scenario',
      `Cassette ${header.id} was recorded for another version of scenario ${header.scenario_id} ` +
        `(scenario hash ${header.scenario_hash.slice(0, 12)}, now ${hash.slice(0, 12)}); record it again.`,
    )
  }
  const recordedModel = header.models.live_model
  if (recordedModel !== settings.models.live_model) {
    throw new CassetteRefusedError(
      header.id,
      'model',
      `Cassette ${header.id} was recorded with live model ${JSON.stringify(recordedModel)}, ` +
        `but this run uses ${JSON.stringify(settings.models.live_model)}; record it again or set OPENAI_LIVE_MODEL.`,
    )
  }
}

/** A replayed row's `cassette` block: `replayed` with no divergence unless `fields` says otherwise. */
export function replayCassetteBlock(
  id: string,
  match: CassetteRowExtension['match'],
  fields: Partial<CassetteRowExtension>,
): CassetteRowExtension {
  return {
    mode: 'replay',
    id,
    outcome: 'replayed',
    match,
    divergence_count: 0,
    first_divergence: null,
    divergences: [],
    ...fields,
  }
}

/**
 * A row failed because its cassette is missing or refused: the `cassette` block the replay tally counts. Only an
 * absent cassette is `missing`; one that is there but unreadable or invalid is `refused`.
 */
export function withRefusedCassette<Row extends ScenarioExecution['row']>(
  row: Row,
  id: string,
  settings: Pick<PhaseSettings, 'replay'>,
  refused: CassetteRefusedError | null,
): Row {
  const outcome = refused?.reason === 'missing' ? 'missing' : 'refused'
  return withCassetteExtension(
    row,
    replayCassetteBlock(id, settings.replay.match, { outcome, divergence_count: null }),
  )
}

export async function replayExecution<Execution extends ScenarioExecution>(
  context: CassetteExecutionContext<Execution>,
): Promise<Execution> {
  const settings: PhaseSettings = context.env.settings
  const id = cassetteIdFor(context)
  const match = settings.replay.match
  const extension = (fields: Partial<CassetteRowExtension>) => replayCassetteBlock(id, match, fields)
  let loaded: LoadedCassette
  try {
    loaded = await readCassette(settings.execution.cassettes_dir ?? 'cassettes', id)
    refuseForeignCassette(loaded, context.scenario, settings)
  } catch (error) {
    const refused = error instanceof CassetteRefusedError ? error : null
    const failed = context.failed({ stage: 'replay', message: (error as Error).message })
    return { ...failed, row: withRefusedCassette(failed.row, id, settings, refused) }
  }
  const redaction = { extraNames: settings.redact_fields, secretValues: credentialValues(settings) }
  const server = await startReplayServer(loaded, { match, redaction })
  const regrade = settings.replay.regrade ? new RegradeReplay(loaded, context.scenario, redaction) : null
  let execution: Execution
  try {
    execution = await runInCassetteScope(regrade?.scope(server.scope()) ?? server.scope(), () =>
      context.run(),
    )
  } finally {
    await server.close()
  }
  const { divergences } = server
  for (const label of server.unopenedSessions()) {
    divergences.add(label, 0, 'session', null, 'was recorded but never opened now')
  }
  const recordedTools = loaded.cassette.tool_executions
  const nowTools = (execution.observation as { tool_executions?: unknown } | null)?.tool_executions
  if (recordedTools !== null && nowTools !== undefined) {
    const difference = firstDifference(
      recordedTools,
      redactJson(JSON.parse(JSON.stringify(nowTools)), redaction),
    )
    if (difference !== null) {
      divergences.add('tools', 0, 'tool_executions', {
        ...difference,
        path: `tool_executions${difference.path.startsWith('[') ? '' : '.'}${difference.path}`,
      })
    }
  }
  const first = divergences.first
  const replayed = extension({
    outcome: first === null ? 'replayed' : 'diverged',
    divergence_count: divergences.count,
    first_divergence: first,
    divergences: match === 'lenient' ? divergences.listed : first === null ? [] : [first],
  })
  const marked = (row: Execution['row']) => {
    const withCassette = withCassetteExtension(row, replayed)
    return regrade === null ? withCassette : withRowExtension(withCassette, 'regrade', regrade.extension())
  }
  if (first !== null && match === 'strict') {
    const failed = context.failed({
      stage: 'replay',
      message: `Replay of cassette ${id} diverged: ${first.text}`,
    })
    return { ...failed, row: marked(failed.row) }
  }
  // The latencies are the recording's, with the recording's own timing error: its pacing says how much.
  return { ...execution, row: marked(withPacing(execution.row, loaded.cassette.pacing)) }
}
