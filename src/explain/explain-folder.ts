// Telling an explain folder from a run folder. `live-evals explain` writes `<run id>-explained_<time>/` beside the
// run it explains, in the same results folder, so a loop over `results/crawl/*/` meets it. It holds explain.json
// and no results.json: it is not a run, and readers that take run folders say so instead of failing on it.
import { stat } from 'node:fs/promises'
import { basename, join } from 'node:path'
import { RESULTS_FILE } from '../artifacts/results-file-name.ts'
import { EXPLAIN_FILE } from './schema.ts'

export const EXPLAINED_SUFFIX = '-explained_'

const isFile = async (path: string) => (await stat(path).catch(() => null))?.isFile() === true

/** The id of the run an explain folder explains (from its name), or null when `folder` is not an explain folder. */
export async function explainedRunOf(folder: string): Promise<string | null> {
  if (!(await isFile(join(folder, EXPLAIN_FILE))) || (await isFile(join(folder, RESULTS_FILE)))) return null
  const name = basename(folder.replace(/[/\\]+$/, ''))
  const at = name.lastIndexOf(EXPLAINED_SUFFIX)
  return at > 0 ? name.slice(0, at) : name
}
