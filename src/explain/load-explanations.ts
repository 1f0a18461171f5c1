// Finding a run's explanation for its report: `live-evals explain` writes `<run id>-explained_<time>/explain.json`
// beside the run folder; the newest one that names this run is shown. A damaged or foreign file is a stated
// problem, never a crash; none at all is no section.
import { readdir, readFile } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { EXPLAINED_SUFFIX } from './explain-folder.ts'
import { EXPLAIN_FILE, type ExplainDocument, ExplainDocumentSchema, SUMMARY_FILE } from './schema.ts'

/** Explain documents are small (a few KB per scenario); anything bigger is not one of ours. */
const MAX_EXPLAIN_BYTES = 16 * 1024 * 1024

export interface LoadedExplanation {
  /** null when the newest explain file could not be read; `problem` says why. */
  document: ExplainDocument | null
  problem: string | null
  /** The explain folder's summary as a link from the run's report (the folder is the run folder's sibling). */
  summary_href: string
}

export async function loadExplanation(
  runDirectory: string,
  runId: string,
): Promise<LoadedExplanation | null> {
  const parent = dirname(runDirectory)
  let names: string[]
  try {
    names = await readdir(parent)
  } catch {
    return null
  }
  const prefix = `${runId}${EXPLAINED_SUFFIX}`
  // Names end in a UTC timestamp, so the newest sorts last.
  const newest = names
    .filter((name) => name.startsWith(prefix))
    .sort()
    .at(-1)
  if (newest === undefined) return null
  const folder = join(parent, newest)
  const summary_href = `../${encodeURIComponent(newest)}/${SUMMARY_FILE}`
  const file = join(folder, EXPLAIN_FILE)
  try {
    const text = await readFile(file, 'utf8')
    if (text.length > MAX_EXPLAIN_BYTES) throw new Error('over the report’s limit')
    const parsed = ExplainDocumentSchema.safeParse(JSON.parse(text))
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new Error(`not an explain document of this version (${issue?.path.join('.')}: ${issue?.message})`)
    }
    if (parsed.data.run.id !== runId) throw new Error(`it explains ${parsed.data.run.id}, not this run`)
    return { document: parsed.data, problem: null, summary_href }
  } catch (error) {
    return {
      document: null,
      problem: `${basename(folder)}/${EXPLAIN_FILE}: ${(error as Error).message}`,
      summary_href,
    }
  }
}
