// Builders for the WALK tests: WALK settings from a temporary TOML, an offline environment per architecture
// with the WALK caller source, the bundled datasets, and a one-off dataset written to a temporary folder.
import { mkdtemp, readFile, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { WalkSettings } from '../../config/index.ts'
import type { OfflineLiveServer } from '../../testing/live-server/index.ts'
import { architectureFor } from '../engine/architecture-choice.ts'
import type { ScenarioEnv } from '../engine/execution.ts'
import { BUNDLED_CRAWL_DATASET, freshRunDirectory, settingsFromToml } from '../single-turn/test-support.ts'
import { walkPhase } from './index.ts'

export const BUNDLED_WALK_DATASET = join(import.meta.dirname, '../../../scenarios/walk/restaurant.json')

export type RawRow = { id: string; input: Record<string, unknown> } & Record<string, unknown>

export async function rawRows(file: string): Promise<RawRow[]> {
  return (JSON.parse(await readFile(file, 'utf8')) as { scenarios: RawRow[] }).scenarios
}

export async function crawlRow(id: string): Promise<RawRow> {
  const row = (await rawRows(BUNDLED_CRAWL_DATASET)).find((candidate) => candidate.id === id)
  if (row === undefined) throw new Error(`the bundled CRAWL dataset has no ${id}`)
  return structuredClone(row)
}

export async function temporaryFolder(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'live-evals-walk-'))
}

/** Writes `rows` as a dataset in `folder` (default: a new temporary one) and returns its path. */
export async function writeDataset(rows: unknown[], folder?: string): Promise<string> {
  const file = join(folder ?? (await temporaryFolder()), 'dataset.json')
  await writeFile(file, JSON.stringify({ schema_version: '1.0', scenarios: rows }, null, 2))
  return file
}

export function offlineWalkSettings(dataset = BUNDLED_WALK_DATASET): Promise<WalkSettings> {
  return settingsFromToml('walk', [
    '[dataset]',
    `path = ${JSON.stringify(dataset)}`,
    '[execution]',
    'mode = "offline"',
    '[audio]',
    'real_time = false',
  ])
}

export async function offlineWalkEnv(
  settings: WalkSettings,
  server: OfflineLiveServer,
  architecture: Architecture,
): Promise<ScenarioEnv> {
  return {
    settings,
    runDirectory: await freshRunDirectory(),
    offlineServer: server,
    architecture: architectureFor(architecture, settings),
    callerSource: walkPhase.callerSource(settings),
  }
}
