// The environment of a process a test starts (a child Vitest run, the packed package's commands, a shell running
// the README's commands): the test process's own, without what would make the child something other than a
// user's fresh run, and with the test run's heap option (test-heap.test-helpers.ts) and no colours.
// Cleared: Vitest's worker variables, every live-evals and OpenAI setting, and NODE_OPTIONS (the parent's loaders
// and debugging flags); a caller clears more prefixes of its own (alsoCleared) and sets what it needs (extra).
import { TEST_HEAP_OPTION } from './test-heap.test-helpers.ts'

const CLEARED = /^(VITEST|LIVE_EVALS_|OPENAI_|GPT_LIVE_EVALS_)/

export interface ChildEnvironmentOptions {
  /** Variables the child must not get either (a fixture's own, npm's, GitHub's). */
  alsoCleared?: RegExp
  /** Set last: they win over everything else. */
  extra?: NodeJS.ProcessEnv
}

export function testChildEnvironment(options: ChildEnvironmentOptions = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (CLEARED.test(name) || options.alsoCleared?.test(name) || name === 'NODE_OPTIONS') continue
    env[name] = value
  }
  return { ...env, NODE_OPTIONS: TEST_HEAP_OPTION, CI: '1', NO_COLOR: '1', ...options.extra }
}
