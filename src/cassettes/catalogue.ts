// What a cassettes folder holds, read from the headers alone (no audio is loaded): the commands that work on a
// whole folder of recordings (`live-evals grade --cassettes`, `live-evals drift`) start here. A folder is either
// one phase's cassettes (`<dir>/<cassette id>/cassette.json`, the layout LIVE_EVALS_CASSETTES points at) or a
// parent of phase folders (`<dir>/crawl/…`, `<dir>/walk/…`, `<dir>/run/…`, the default `cassettes/`). CRAWL's
// `speech/` folder is part of a recording, not a cassette. An unreadable header is a problem naming the file;
// the other cassettes are still listed.
import { readdir, readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Phase } from '../config/index.ts'
import { CASSETTE_FILE, type CassetteHeader, CassetteHeaderSchema, MAX_CASSETTE_BYTES } from './schema.ts'

/** Folders inside a cassettes folder that belong to the recording but are not cassettes. */
const NOT_CASSETTES = new Set(['speech'])
const PHASE_FOLDERS: readonly Phase[] = ['crawl', 'walk', 'run']

export interface PhaseCassettes {
  phase: Phase
  /** The folder the phase's cassettes are in (what LIVE_EVALS_CASSETTES names for a replay of them). */
  directory: string
  headers: CassetteHeader[]
}

export interface CassetteCatalogue {
  phases: PhaseCassettes[]
  /** Unreadable or foreign entries, each naming its file. */
  problems: string[]
}

export class CassetteFolderError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CassetteFolderError'
  }
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null))?.isDirectory() ?? false
}

async function headerOf(file: string): Promise<CassetteHeader | string> {
  const size = (await stat(file).catch(() => null))?.size
  if (size === undefined) return `${file}: missing`
  if (size > MAX_CASSETTE_BYTES) return `${file}: larger than the cassette cap`
  let raw: unknown
  try {
    raw = JSON.parse(await readFile(file, 'utf8'))
  } catch (error) {
    return `${file}: not JSON (${(error as Error).message})`
  }
  const parsed = CassetteHeaderSchema.safeParse((raw as { header?: unknown } | null)?.header)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const path = ['header', ...(issue?.path.map(String) ?? [])].join('.')
    return `${file}: not a cassette of this version (${path}: ${issue?.message})`
  }
  return parsed.data
}

/** The cassettes directly in `directory` (one folder each), in name order. */
async function cassettesIn(directory: string, problems: string[]): Promise<CassetteHeader[]> {
  const headers: CassetteHeader[] = []
  const entries = (await readdir(directory, { withFileTypes: true })).sort((a, b) =>
    a.name.localeCompare(b.name),
  )
  for (const entry of entries) {
    if (!entry.isDirectory() || NOT_CASSETTES.has(entry.name)) continue
    const file = join(directory, entry.name, CASSETTE_FILE)
    if (!(await stat(file).catch(() => null))) continue
    const header = await headerOf(file)
    if (typeof header === 'string') problems.push(header)
    else if (header.id !== entry.name)
      problems.push(`${file}: its header names cassette ${header.id}, not ${entry.name}`)
    else headers.push(header)
  }
  return headers
}

/** Reads a cassettes folder; refuses one that is missing or holds no cassette at all, naming it. */
export async function readCassetteCatalogue(directory: string): Promise<CassetteCatalogue> {
  if (!(await isDirectory(directory))) {
    throw new CassetteFolderError(
      `${directory} is not a folder of cassettes (it does not exist or is a file)`,
    )
  }
  const problems: string[] = []
  const phases: PhaseCassettes[] = []
  const direct = await cassettesIn(directory, problems)
  const add = (folder: string, headers: CassetteHeader[]) => {
    for (const phase of PHASE_FOLDERS) {
      const ofPhase = headers.filter((header) => header.phase === phase)
      if (ofPhase.length > 0) phases.push({ phase, directory: folder, headers: ofPhase })
    }
  }
  add(directory, direct)
  for (const phase of PHASE_FOLDERS) {
    const folder = join(directory, phase)
    if (!(await isDirectory(folder))) continue
    const headers = await cassettesIn(folder, problems)
    for (const header of headers.filter((header) => header.phase !== phase)) {
      problems.push(`${join(folder, header.id)}: a ${header.phase} cassette in the ${phase} folder`)
    }
    add(
      folder,
      headers.filter((header) => header.phase === phase),
    )
  }
  const mixed = phases.filter((entry) => entry.directory === directory)
  if (mixed.length > 1) {
    throw new CassetteFolderError(
      `${directory} holds cassettes of several phases (${mixed.map((entry) => entry.phase).join(', ')}) side by side; ` +
        'a replay reads one phase per folder: keep each phase in its own folder (cassettes/<phase>/)',
    )
  }
  if (phases.length === 0) {
    throw new CassetteFolderError(
      `${directory} holds no cassette (no <cassette id>/${CASSETTE_FILE}, directly or in crawl/, walk/ or run/)` +
        (problems.length > 0 ? `; unreadable: ${problems.join('; ')}` : ''),
    )
  }
  return { phases, problems }
}
