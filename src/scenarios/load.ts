import path from 'node:path'
import { describeInputFileRefusal, InputFileError, readInputFile } from '../inputs/read-input-file.ts'
import { SCHEMA_VERSION } from './dataset.ts'
import { jsonSyntaxErrorOffset, positionOfOffset } from './json-syntax.ts'
import { MAX_DATASET_BYTES } from './limits.ts'
import type { Recording, Scenario } from './scenario.ts'
import { invalidUtf8Offset, lineOfByteOffset } from './utf8.ts'
import { validateDocument } from './validate-document.ts'
import { DatasetValidationError } from './violations.ts'

// Reading a dataset: check its size and encoding, parse the JSON, check its nesting, validate every
// scenario (collecting all problems), then resolve recording paths against the dataset's folder. A
// dataset with any problem never yields scenarios, and no file, however broken, makes the loader throw
// anything but a DatasetValidationError.

export interface ResolvedRecording extends Recording {
  /** Absolute path: `path` resolved against the folder of the dataset file. */
  resolvedPath: string
}

/** A scenario as loaded from a file: its recordings also carry their resolved paths. */
export type LoadedScenario = Omit<Scenario, 'input'> & {
  input: Omit<Scenario['input'], 'recordings'> & { recordings: ResolvedRecording[] }
}

export interface LoadedDataset {
  /** The dataset file as given by the caller. */
  file: string
  schemaVersion: typeof SCHEMA_VERSION
  scenarios: LoadedScenario[]
}

export async function loadDataset(file: string): Promise<LoadedDataset> {
  return parseDatasetBytes(await readDatasetFile(file), file)
}

async function readDatasetFile(file: string): Promise<Uint8Array> {
  try {
    return await readInputFile(file, MAX_DATASET_BYTES)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    const refusal = error.refusal
    const message =
      refusal.kind === 'not_a_file'
        ? `the dataset path ${describeInputFileRefusal(refusal)}`
        : refusal.kind === 'too_large'
          ? tooLargeMessage(refusal.bytes)
          : `cannot read the dataset file (${refusal.code}); check the path`
    throw new DatasetValidationError([{ file, path: '', message }])
  }
}

function tooLargeMessage(bytes: number): string {
  return `the dataset file is ${bytes} bytes; a dataset may be at most ${MAX_DATASET_BYTES} bytes (16 MiB): split it into several files`
}

/** Validates a dataset file's bytes: they must be UTF-8 (a byte-order mark is allowed) within the size limit. */
export function parseDatasetBytes(bytes: Uint8Array, file: string): LoadedDataset {
  const refuse = (message: string) => new DatasetValidationError([{ file, path: '', message }])
  if (bytes.length > MAX_DATASET_BYTES) throw refuse(tooLargeMessage(bytes.length))
  const invalidAt = invalidUtf8Offset(bytes)
  if (invalidAt !== null) {
    const line = lineOfByteOffset(bytes, invalidAt)
    const byte = (bytes[invalidAt] as number).toString(16).padStart(2, '0')
    throw refuse(
      `invalid UTF-8 at byte offset ${invalidAt} (line ${line}, byte 0x${byte}): save the file as UTF-8`,
    )
  }
  return parseDataset(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString('utf8'), file)
}

/** Validates dataset JSON held in memory; `file` names it in errors and anchors relative recording paths. */
export function parseDataset(text: string, file: string): LoadedDataset {
  // The limit is in UTF-8 bytes, like a file's; text.length counts UTF-16 units and would let up to three
  // times the limit through (a text of "€").
  const bytes = Buffer.byteLength(text)
  if (bytes > MAX_DATASET_BYTES) {
    throw new DatasetValidationError([{ file, path: '', message: tooLargeMessage(bytes) }])
  }
  const json = parseJson(text.replace(/^\uFEFF/, ''), file)
  const { scenarios, violations } = validateDocument(json, file)
  if (violations.length > 0) throw new DatasetValidationError(violations)
  const folder = path.dirname(path.resolve(file))
  return {
    file,
    schemaVersion: SCHEMA_VERSION,
    scenarios: scenarios.map((scenario) => withResolvedRecordings(scenario, folder)),
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text)
  } catch (error) {
    const offset = jsonSyntaxErrorOffset(text) ?? text.length
    const { line, column } = positionOfOffset(text, offset)
    const reason = (error instanceof Error ? error.message : String(error)).replace(/\s+/g, ' ').slice(0, 200)
    throw new DatasetValidationError([
      {
        file,
        path: '',
        message: `malformed JSON at line ${line}, column ${column} (offset ${offset}): ${reason}`,
      },
    ])
  }
}

function withResolvedRecordings(scenario: Scenario, folder: string): LoadedScenario {
  return {
    ...scenario,
    input: {
      ...scenario.input,
      recordings: scenario.input.recordings.map((recording) => ({
        ...recording,
        resolvedPath: path.resolve(folder, recording.path),
      })),
    },
  }
}
