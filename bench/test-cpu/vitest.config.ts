// The repository's Vitest configuration with bench/test-cpu/record-cpu.setup.ts added to the unit project (see
// bench/test-cpu.ts). Everything else is the repository's own config, so what is measured is what `npm test` runs.
import path from 'node:path'
import { defineConfig } from 'vitest/config'
import repository from '../../vitest.config.ts'

const root = path.resolve(import.meta.dirname, '../..')
const setup = path.join(import.meta.dirname, 'record-cpu.setup.ts')

type Project = { test?: { name?: string; setupFiles?: string[] } }

export default defineConfig({
  ...repository,
  root,
  test: {
    ...repository.test,
    projects: ((repository.test?.projects ?? []) as Project[]).map((project) => {
      const test = project.test
      if (test?.name !== 'unit') return project
      return { ...project, test: { ...test, setupFiles: [...(test.setupFiles ?? []), setup] } }
    }),
  },
})
