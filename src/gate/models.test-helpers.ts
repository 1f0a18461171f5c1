// Results files of one model and architecture, for the model comparison's tests.
import type { ResultItem, ResultsDocument } from '../reporting/result-schema.ts'
import { resultsDocument } from './gate.test-helpers.ts'
import type { GateFile } from './rows.ts'

export function modelDocument(
  model: string,
  rows: readonly ResultItem[],
  architecture = 'responses',
): ResultsDocument {
  const document = resultsDocument(rows, { architecture, id: `crawl_offline_${model}_${architecture}` })
  return { ...document, run: { ...document.run, configuration: { ...document.run.configuration, model } } }
}

export function modelFile(model: string, rows: readonly ResultItem[], architecture = 'responses'): GateFile {
  return {
    source: `${model}/${architecture}/results.json`,
    document: modelDocument(model, rows, architecture),
    partial: null,
  }
}
