// The one historical normalization on read: results.json files written by the reference toolkit (gpt-live-evals
// 0.1.0, schema "2.0") parse with our schema. What we write stays complete; this only reads.
//
// Accepted historical shape, and nothing else:
// - A row's `artifacts` lists only the artifacts its phase produced: the reference drops a key whose file does not
//   exist (RUN rows have no `input_audio`/`output_audio`; its published recorded example has only
//   `conversation_audio` and `conversation_transcript`; an early failure may have none, `{}`). Each missing key of
//   the six is filled with null, which is what we write for an artifact that was not produced.
//   Only an `artifacts` object whose keys are all among the six is filled; anything else (not an object, an
//   unknown key, a non-string path) is left as it is for the schema to refuse by name.
//
// Everything else the reference writes is valid under the schema as it stands (audio metrics without the v2 policy
// fields, null duration summaries, `{}` exclusion reasons, per-model backend usage objects), so it needs no
// rewriting here.

import { NO_ARTIFACTS } from './result-item.ts'

const ARTIFACT_KEYS = Object.keys(NO_ARTIFACTS)

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function completedArtifacts(artifacts: unknown): unknown {
  if (!isPlainObject(artifacts)) return artifacts
  if (!Object.keys(artifacts).every((key) => ARTIFACT_KEYS.includes(key))) return artifacts
  return { ...NO_ARTIFACTS, ...artifacts }
}

/** A copy of a parsed results.json with the reference's partial `artifacts` completed; the input is not changed. */
export function normalizeReferenceResults(document: unknown): unknown {
  if (!isPlainObject(document) || !Array.isArray(document.results)) return document
  return {
    ...document,
    results: document.results.map((row: unknown) =>
      isPlainObject(row) && 'artifacts' in row
        ? { ...row, artifacts: completedArtifacts(row.artifacts) }
        : row,
    ),
  }
}
