// Every public entry (`live-evals`, `live-evals/vitest`, `live-evals/reporter`) imports in a plain Node script, with
// no Vitest run around it: a dataset generator, a module that shares an assistant between spec files, or
// vitest.config.ts. No Vitest API that needs a running suite may be called when one of them is imported.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test } from 'vitest'

const ROOT = join(import.meta.dirname, '../..')
const entry = (path: string) => JSON.stringify(pathToFileURL(join(ROOT, path)).href)

test('the public entries import in a plain .mjs script and defineScenario/defineAssistant work there', () => {
  const script = join(mkdtempSync(join(tmpdir(), 'live-evals-plain-')), 'generate.mjs')
  writeFileSync(
    script,
    `import { defineAssistant, defineScenario } from ${entry('src/index.ts')}
import { liveEvalsProject } from ${entry('src/vitest/project.ts')}
import CanonicalReporter from ${entry('reporters/canonical.ts')}
const scenario = defineScenario({ id: 'plain', title: 'Plain', interaction: 'single_turn', input: { text: 'Hi' },
  expected: { answer: 'Hello', criteria: [], tools: { required: [], prohibited: [] }, delegation: 'never' } })
const assistant = defineAssistant({ name: 'plain', instructions: 'Greet.', backendInstructions: 'Help.', tools: [
  { name: 'noop', description: 'Nothing.', parameters: { type: 'object', properties: {} }, execute: () => ({}) }] })
const project = liveEvalsProject({ phase: 'crawl' })
console.log(JSON.stringify([scenario.id, typeof assistant, project.test.name, typeof CanonicalReporter]))
`,
  )
  const env = { ...process.env }
  for (const name of Object.keys(env)) if (name.startsWith('VITEST')) delete env[name]
  const ran = spawnSync(process.execPath, [script], { encoding: 'utf8', env, timeout: 60_000 })
  expect(ran.stderr).not.toContain('Vitest failed to find')
  expect(ran.status, ran.stderr).toBe(0)
  expect(ran.stdout.trim()).toBe(JSON.stringify(['plain', 'object', 'crawl', 'function']))
})
