// Writing and reading a cassette folder. Written: the folder 0700 (created with its parents, src/artifacts),
// every PCM file and then cassette.json, each 0600 through a temporary file and a rename, so a reader sees a
// complete cassette, the previous one, or none; cassette.json goes last, so its presence means its audio is there.
// Read: the JSON is parsed against the schema, every audio range is checked against its file, and any problem is
// a CassetteRefusedError naming the cassette and the file; only an absent cassette.json is `missing`.
import { readFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomically } from '../artifacts/atomic-file.ts'
import { writeNamedFile } from '../artifacts/named-file.ts'
import { makePrivateDirectories } from '../artifacts/private-directories.ts'
import { CassetteRefusedError, CassetteTooLargeError } from './errors.ts'
import {
  type AudioRef,
  CASSETTE_FILE,
  CASSETTE_VERSION,
  type Cassette,
  CassetteSchema,
  MAX_CASSETTE_BYTES,
} from './schema.ts'

export function cassetteFolder(cassettesDir: string, id: string): string {
  return join(cassettesDir, id)
}

/** Writes the cassette and its PCM files into `<cassettesDir>/<id>/`; returns the folder. */
export async function writeCassette(
  cassettesDir: string,
  cassette: Cassette,
  files: ReadonlyMap<string, Uint8Array>,
  limitBytes = MAX_CASSETTE_BYTES,
): Promise<string> {
  const id = cassette.header.id
  const text = `${JSON.stringify(CassetteSchema.parse(cassette))}\n`
  let total = Buffer.byteLength(text)
  for (const bytes of files.values()) total += bytes.byteLength
  if (total > limitBytes) throw new CassetteTooLargeError(id, limitBytes)
  const folder = cassetteFolder(cassettesDir, id)
  await makePrivateDirectories(folder, 'cassette folder')
  for (const [name, bytes] of files) await writeFileAtomically(join(folder, name), bytes)
  await writeNamedFile(join(folder, CASSETTE_FILE), text)
  return folder
}

export interface LoadedCassette {
  cassette: Cassette
  folder: string
  /** Each PCM file's bytes by name. */
  files: Map<string, Uint8Array>
}

/** Why a file that exists could not be read, in words a user can act on (the code is kept for a search). */
function unreadableReason(error: unknown): string {
  const { code, message } = error as NodeJS.ErrnoException
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `permission denied (${code}); give the user running the tests read access to it`
    case 'EISDIR':
      return 'it is a folder, not a file (EISDIR)'
    case 'ENOTDIR':
      return 'a part of its path is a file, not a folder (ENOTDIR)'
    default:
      return code === undefined ? String(message ?? error) : `${code}: ${message}`
  }
}

/**
 * Reads and checks the cassette `id`. Only an absent cassette.json (ENOENT) is `missing`: a file that is there
 * but cannot be read is `unreadable`, and one that is not JSON, another format version or off the schema is
 * `version` or `invalid`, each naming the file and what is wrong (the replay tally counts them as refused).
 */
export async function readCassette(cassettesDir: string, id: string): Promise<LoadedCassette> {
  const folder = cassetteFolder(cassettesDir, id)
  const file = join(folder, CASSETTE_FILE)
  let text: string
  try {
    const stats = await stat(file)
    if (stats.size > MAX_CASSETTE_BYTES) {
      throw new CassetteRefusedError(
        id,
        'invalid',
        `Cassette ${id} (${file}) is larger than the cassette cap.`,
      )
    }
    text = await readFile(file, 'utf8')
  } catch (error) {
    if (error instanceof CassetteRefusedError) throw error
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CassetteRefusedError(
        id,
        'missing',
        `No cassette ${id} at ${file}: record it with LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1 (or point LIVE_EVALS_CASSETTES at the folder that holds it).`,
      )
    }
    throw new CassetteRefusedError(
      id,
      'unreadable',
      `Cassette ${id} (${file}) is there but cannot be read: ${unreadableReason(error)}.`,
    )
  }
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch (error) {
    throw new CassetteRefusedError(
      id,
      'invalid',
      `Cassette ${id} (${file}) is not JSON (${(error as Error).message}); record it again.`,
    )
  }
  const version = (raw as { header?: { cassette_version?: unknown } })?.header?.cassette_version
  if (version !== undefined && version !== CASSETTE_VERSION) {
    throw new CassetteRefusedError(
      id,
      'version',
      `Cassette ${id} (${file}) has format version ${JSON.stringify(version)}; this live-evals reads version ${CASSETTE_VERSION}. Record it again.`,
    )
  }
  const parsed = CassetteSchema.safeParse(raw)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue === undefined ? '' : ` at ${issue.path.join('.')}: ${issue.message}`
    throw new CassetteRefusedError(
      id,
      'invalid',
      `Cassette ${id} (${file}) does not match the schema${where}.`,
    )
  }
  const files = new Map<string, Uint8Array>()
  for (const ref of audioRefsOf(parsed.data)) {
    if (!files.has(ref.file)) {
      files.set(ref.file, await readAudioFile(id, folder, ref.file))
    }
    const bytes = files.get(ref.file) as Uint8Array
    if (ref.offset + ref.bytes > bytes.byteLength) {
      throw new CassetteRefusedError(
        id,
        'invalid',
        `Cassette ${id}: ${ref.file} is shorter than its frames say.`,
      )
    }
  }
  return { cassette: parsed.data, folder, files }
}

/** One PCM file a cassette names: absent is `invalid` (the cassette is incomplete), there but unreadable is `unreadable`. */
async function readAudioFile(id: string, folder: string, name: string): Promise<Uint8Array> {
  try {
    return new Uint8Array(await readFile(join(folder, name)))
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      throw new CassetteRefusedError(
        id,
        'invalid',
        `Cassette ${id} names ${name}, which is not in ${folder}.`,
      )
    }
    throw new CassetteRefusedError(
      id,
      'unreadable',
      `Cassette ${id}: ${join(folder, name)} is there but cannot be read: ${unreadableReason(error)}.`,
    )
  }
}

/** The bytes an audio reference names. */
export function audioBytes(files: ReadonlyMap<string, Uint8Array>, ref: AudioRef): Uint8Array {
  const bytes = files.get(ref.file) ?? new Uint8Array(0)
  return bytes.subarray(ref.offset, ref.offset + ref.bytes)
}

function* audioRefsOf(cassette: Cassette): Generator<AudioRef> {
  for (const session of cassette.sessions) {
    for (const frame of session.frames) if (frame.audio !== undefined) yield frame.audio
  }
  for (const exchange of cassette.http) {
    if (exchange.request.audio !== undefined) yield exchange.request.audio
    if (exchange.response.audio !== undefined) yield exchange.response.audio
  }
}
