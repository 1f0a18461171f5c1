// The judge cache: grading the same evidence twice with the same model, rubric and prompt does not pay twice.
// An entry is keyed by model, effort, backend, rubric version, a hash of the prompt, a hash of the evidence and the
// repetition index (so repetitions stay independent judgments). Entries hold evaluator-only evidence, so the
// directory is 0700 and every file 0600, written by the artifacts' atomic writer so a reader never sees half a
// file. An unreadable or foreign entry is a miss and is replaced, never trusted.

import { createHash } from 'node:crypto'
import { chmod, readFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { z } from 'zod'
import { writeFileAtomically } from '../../artifacts/atomic-file.ts'
import { makePrivateDirectories, PRIVATE_DIRECTORY_MODE } from '../../artifacts/private-directories.ts'
import { stableJson } from '../../artifacts/stable-json.ts'
import { SEMANTIC_DIMENSIONS } from '../semantic-applicability.ts'
import { JudgeDecisionSchema } from './decision-schema.ts'

export const JudgeCacheKeySchema = z.strictObject({
  backend: z.enum(['responses', 'decisions']),
  model: z.string(),
  reasoning_effort: z.string().nullable(),
  rubric_version: z.string(),
  dimension: z.enum(SEMANTIC_DIMENSIONS),
  prompt_hash: z.string(),
  evidence_hash: z.string(),
  repetition: z.number().int().nonnegative(),
})
export type JudgeCacheKey = z.infer<typeof JudgeCacheKeySchema>

const JudgeCacheEntrySchema = z.strictObject({
  key: JudgeCacheKeySchema,
  verdict: JudgeDecisionSchema,
  detail: z.record(z.string(), z.unknown()),
})
export type JudgeCacheEntry = z.infer<typeof JudgeCacheEntrySchema>

export interface JudgeCache {
  readonly directory: string
  get(key: JudgeCacheKey): Promise<JudgeCacheEntry | null>
  put(entry: JudgeCacheEntry): Promise<void>
}

/** SHA-256 of a JSON value with object keys sorted, so equal evidence hashes equally whatever its key order. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(stableJson(value)).digest('hex')
}

/** The cache in `directory`, or null (no caching) when the directory is null. */
export function openJudgeCache(directory: string | null): JudgeCache | null {
  if (directory === null) return null
  const root = resolve(directory)
  let ready: Promise<void> | null = null
  const ensureDirectory = () => {
    ready ??= (async () => {
      await makePrivateDirectories(root)
      // The cache folder is ours alone even when it already existed: it holds expected answers and criteria.
      await chmod(root, PRIVATE_DIRECTORY_MODE)
    })().catch((error: unknown) => {
      ready = null
      throw new Error(`Cannot prepare the judge cache directory ${root}: ${(error as Error).message}`, {
        cause: error,
      })
    })
    return ready
  }
  const pathOf = (key: JudgeCacheKey) => join(root, `${contentHash(key)}.json`)

  return {
    directory: root,
    async get(key) {
      let text: string
      try {
        text = await readFile(pathOf(key), 'utf8')
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
        throw new Error(`Cannot read judge cache entry ${pathOf(key)}: ${(error as Error).message}`, {
          cause: error,
        })
      }
      let parsed: unknown
      try {
        parsed = JSON.parse(text)
      } catch {
        return null
      }
      const entry = JudgeCacheEntrySchema.safeParse(parsed)
      // A hash collision or a hand-edited file: only an entry for exactly this key is an answer.
      if (!entry.success || contentHash(entry.data.key) !== contentHash(key)) return null
      return entry.data
    },
    async put(entry) {
      await ensureDirectory()
      const path = pathOf(entry.key)
      try {
        await writeFileAtomically(path, `${JSON.stringify(entry, null, 2)}\n`)
      } catch (error) {
        throw new Error(`Cannot write judge cache entry ${path}: ${(error as Error).message}`, {
          cause: error,
        })
      }
    },
  }
}
