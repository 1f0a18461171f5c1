// The rows of several results files as one keyed set: what the gate and the baseline comparison read.

import type { ResultItem, ResultsDocument } from '../reporting/result-schema.ts'
import { describeKey, type GateRowKey, gateRowKey, keyText } from './row-keys.ts'

export interface GateFile {
  /** Where the document was read from (named in messages). */
  source: string
  document: ResultsDocument
  /** Why the results are partial (interrupted, killed, still running); null for a run that ended. */
  partial: string | null
}

export interface KeyedRow {
  key: GateRowKey
  row: ResultItem
  source: string
}

export interface KeyedRows {
  rows: KeyedRow[]
  byKey: Map<string, KeyedRow>
  /** Keys found in more than one file, each described with both sources. */
  duplicates: string[]
}

export function keyRows(files: readonly GateFile[]): KeyedRows {
  const rows: KeyedRow[] = []
  const byKey = new Map<string, KeyedRow>()
  const duplicates: string[] = []
  for (const file of files) {
    for (const row of file.document.results) {
      const keyed = { key: gateRowKey(file.document, row), row, source: file.source }
      const text = keyText(keyed.key)
      const earlier = byKey.get(text)
      if (earlier !== undefined) {
        duplicates.push(`${describeKey(keyed.key)} is in ${earlier.source} and ${file.source}`)
        continue
      }
      byKey.set(text, keyed)
      rows.push(keyed)
    }
  }
  return { rows, byKey, duplicates }
}
