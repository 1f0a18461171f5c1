// Which recording a replayed caller comes from: the cassette of the same scenario, architecture and trial when
// there is one, else another architecture's (the caller is the scenario's, whichever assistant it spoke to), else
// trial 1's. It must be of the run's phase. A missing one is refused by name, with what to record.
import type { Phase } from '../../config/index.ts'
import { readCassetteCatalogue } from '../catalogue.ts'
import { CassetteRefusedError } from '../errors.ts'
import { type LoadedCassette, readCassette } from '../files.ts'

export async function findCallerCassette(
  directory: string,
  phase: Phase,
  scenarioId: string,
  preferred: string,
): Promise<LoadedCassette> {
  const exact = await readCassette(directory, preferred).catch((error: unknown) => {
    if (error instanceof CassetteRefusedError && error.reason === 'missing') return null
    throw error
  })
  const loaded =
    exact ??
    (await (async () => {
      const catalogue = await readCassetteCatalogue(directory).catch(() => null)
      const header = catalogue?.phases
        .flatMap((entry) => entry.headers.map((found) => ({ found, folder: entry.directory })))
        .find(({ found }) => found.scenario_id === scenarioId && found.phase === phase)
      return header === undefined ? null : readCassette(header.folder, header.found.id)
    })())
  if (loaded === null) {
    throw new CassetteRefusedError(
      preferred,
      'missing',
      `replay.caller: no ${phase} cassette of scenario ${scenarioId} in ${directory}; record one with ` +
        'LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1 (LIVE_EVALS_CASSETTES names where), or point LIVE_EVALS_REPLAY_CALLER at it',
    )
  }
  if (loaded.cassette.header.phase !== phase) {
    throw new CassetteRefusedError(
      loaded.cassette.header.id,
      'invalid',
      `replay.caller: cassette ${loaded.cassette.header.id} is a ${loaded.cassette.header.phase} recording; this is a ${phase} run`,
    )
  }
  return loaded
}
