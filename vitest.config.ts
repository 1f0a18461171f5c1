import { defineConfig } from 'vitest/config'

// One Vitest project per concern: `unit` holds the colocated module tests; each evaluation phase
// (crawl, walk, run) gets its own project when its issue lands, so `vitest run --project unit`
// never opens a GPT-Live session.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['src/**/*.test.ts', 'reporters/**/*.test.ts', 'bin/**/*.test.ts'],
          environment: 'node',
          testTimeout: 20_000,
        },
      },
    ],
  },
})
