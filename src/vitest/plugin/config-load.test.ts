// Every Vitest start loads vitest.config.ts, `vitest --project unit` and each child Vitest of the integration
// tests included, and Vite bundles the config with every module it reaches. The phase engine (and the openai SDK
// behind it) is a worker's to load, never the config's (bundling it cost 4 s of CPU per start) nor the main
// process's (main-process-imports.test.ts).
import { resolve } from 'node:path'
import { loadConfigFromFile } from 'vite'
import { expect, test } from 'vitest'

const ROOT = resolve(import.meta.dirname, '../../..')

test("the config's bundle holds the project wiring, not the phase engine", async () => {
  const loaded = await loadConfigFromFile(
    { command: 'serve', mode: 'test' },
    resolve(ROOT, 'vitest.config.ts'),
    ROOT,
    'silent',
    undefined,
    'bundle',
  )
  const bundled = (loaded?.dependencies ?? []).map((file) => resolve(file).slice(ROOT.length + 1))
  expect(bundled).toContain('src/vitest/plugin/live-evals-plugin.ts')
  expect(bundled.filter((file) => /^src\/(phases|assistants|client|responses)\//.test(file))).toEqual([])
  expect(bundled.length, bundled.join('\n')).toBeLessThan(40)
})
