// Every bundled dataset's caller-visible input, read through the scenario loader and the leak
// boundary (assistantVisibleInput), never from the raw scenario.
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { renderConversationContext } from '../../scenarios/derived.ts'
import { type LoadedScenario, loadDataset } from '../../scenarios/load.ts'
import { type AssistantVisibleInput, assistantVisibleInput } from '../../scenarios/visible.ts'

export const scenariosDir = fileURLToPath(new URL('../../../scenarios/', import.meta.url))

export interface BundledRow {
  file: string
  scenario: LoadedScenario
  visible: AssistantVisibleInput
  /** The visible conversation context as one text: the summary, then `role: text` lines. */
  conversationContext: string
}

/** All `scenarios/<phase>/*.json` datasets, loaded and validated. */
export async function bundledRows(): Promise<BundledRow[]> {
  const files = readdirSync(scenariosDir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.json'))
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
  const rows: BundledRow[] = []
  for (const file of files) {
    const dataset = await loadDataset(file)
    for (const scenario of dataset.scenarios) {
      const visible = assistantVisibleInput(scenario)
      rows.push({ file, scenario, visible, conversationContext: renderConversationContext(visible.context) })
    }
  }
  return rows
}
