// A dataset as its author wrote it (not the parsed, defaulted contract): the commands that add rows to one
// (`walk generate-audio --append`, `import-call`) keep every existing row byte for byte as JSON values, check the
// file against the contract before touching it, and check the whole result again before writing it.
import { readFile } from 'node:fs/promises'
import { loadDataset } from '../../scenarios/index.ts'

export type RawRecording = {
  id: string
  path: string
  condition?: string
  metadata?: Record<string, unknown>
}
export type RawScenario = {
  id: string
  input: { recordings?: RawRecording[] } & Record<string, unknown>
} & Record<string, unknown>
export type RawDataset = { schema_version: string; scenarios: RawScenario[] }

export async function readRawDataset(file: string): Promise<RawDataset> {
  return JSON.parse((await readFile(file, 'utf8')).replace(/^\uFEFF/, '')) as RawDataset
}

/** The dataset new rows are appended to, checked by the contract first (the error names it and each problem). */
export async function appendTarget(output: string): Promise<RawDataset> {
  await loadDataset(output)
  return readRawDataset(output)
}
