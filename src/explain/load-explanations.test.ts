// The report finds a run's explanation beside it: none is no section, the newest wins, and a damaged or foreign
// explain.json is a stated problem on the page, never a crash.
import { mkdir, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { scratchFolder } from './explain.test-helpers.ts'
import { loadExplanation } from './load-explanations.ts'
import { explanationSection } from './report-section.ts'
import { EXPLAIN_VERSION, type ExplainDocument } from './schema.ts'

const RUN_ID = 'walk_offline_responses_20261202_000000_000Z'
let folder = ''

function document(runId: string, createdAt: string): ExplainDocument {
  return {
    explain_version: EXPLAIN_VERSION,
    created_at: createdAt,
    run: { id: runId, directory: '/x', module: 'walk', architecture: 'responses', execution_mode: 'offline' },
    mode: 'offline',
    replayed_caller: null,
    seed: 1,
    trials: 5,
    trial_variation: ['trial 1 is the run’s own draw'],
    budget: {
      max_reruns: 100,
      planned_reruns: 0,
      admitted_reruns: 0,
      executed_reruns: 0,
      estimate: { currency: 'USD', cost: 0, voice_minutes: 0, note: 'free' },
    },
    completion: { ending: 'complete', message: 'done' },
    explanations: [],
    not_explained: [{ scenario_id: 'x<y', reason: 'budget', message: 'past the cap' }],
  }
}

async function explainFolder(name: string, content: string) {
  await mkdir(join(folder, name), { recursive: true })
  await writeFile(join(folder, name, 'explain.json'), content)
}

beforeAll(async () => {
  folder = await scratchFolder()
  await mkdir(join(folder, RUN_ID))
})

afterAll(async () => {
  if (folder !== '') await rm(folder, { recursive: true, force: true })
})

describe('loadExplanation', () => {
  test('a run without an explain folder has none, and the report no section', async () => {
    expect(await loadExplanation(join(folder, RUN_ID), RUN_ID)).toBeNull()
    expect(explanationSection(null).text).toBe('')
  })

  test('the newest explain folder of the run wins; its summary is linked', async () => {
    await explainFolder(
      `${RUN_ID}-explained_20261202_010000_000Z`,
      JSON.stringify(document(RUN_ID, '2026-12-02T01:00:00.000Z')),
    )
    await explainFolder(
      `${RUN_ID}-explained_20261202_020000_000Z`,
      JSON.stringify(document(RUN_ID, '2026-12-02T02:00:00.000Z')),
    )
    const loaded = await loadExplanation(join(folder, RUN_ID), RUN_ID)
    expect(loaded?.document?.created_at).toBe('2026-12-02T02:00:00.000Z')
    expect(loaded?.summary_href).toBe(`../${RUN_ID}-explained_20261202_020000_000Z/explain.md`)
    const section = explanationSection(loaded).text
    expect(section).toContain('Why it failed')
    // User text is escaped.
    expect(section).toContain('x&lt;y (budget: past the cap)')
  })

  test('a damaged or foreign explain.json is a stated problem', async () => {
    await explainFolder(`${RUN_ID}-explained_20261202_030000_000Z`, '{"explain_version": "9.9"')
    const damaged = await loadExplanation(join(folder, RUN_ID), RUN_ID)
    expect(damaged?.document).toBeNull()
    expect(damaged?.problem).toMatch(/explained_20261202_030000_000Z\/explain\.json: .*JSON/)
    expect(explanationSection(damaged).text).toContain('class="problem"')
    await explainFolder(
      `${RUN_ID}-explained_20261202_040000_000Z`,
      JSON.stringify(document('another_run', '2026-12-02T04:00:00.000Z')),
    )
    expect((await loadExplanation(join(folder, RUN_ID), RUN_ID))?.problem).toMatch(
      /it explains another_run, not this run/,
    )
  })
})
