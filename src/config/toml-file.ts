// Reading one harness TOML file. Only the reading and parsing live here; what the values mean is checked
// by the loader against the phase's schema.
import { parse, TomlError } from 'smol-toml'
import {
  describeInputFileRefusal,
  INPUT_FILE_CAPS,
  InputFileError,
  readInputTextSync,
} from '../inputs/read-input-file.ts'
import { HarnessConfigError } from './errors.ts'

/** The parsed tables of a harness TOML file. Throws the toolkit's messages for a missing or invalid file. */
export function readHarnessToml(path: string): Record<string, unknown> {
  let text: string
  try {
    text = readInputTextSync(path, INPUT_FILE_CAPS.config)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    const refusal = error.refusal
    if (refusal.kind === 'unreadable' && (refusal.code === 'ENOENT' || refusal.code === 'ENOTDIR')) {
      throw new HarnessConfigError([`Harness configuration does not exist: ${path}`])
    }
    throw new HarnessConfigError([
      `Harness configuration cannot be read: ${path} ${describeInputFileRefusal(refusal)}`,
    ])
  }
  try {
    return parse(text)
  } catch (error) {
    if (error instanceof TomlError) {
      // The parser's first line is the reason; its line/column locate it (the rest is a code excerpt).
      const reason = (error.message.split('\n')[0] ?? '').replace(/^Invalid TOML document:\s*/, '')
      throw new HarnessConfigError([
        `Invalid harness configuration: ${path}: line ${error.line}, column ${error.column}: ${reason}`,
      ])
    }
    throw error
  }
}
