// Setup file of every live-evals project: registers the scenario matchers in each test file's expect.
import { expect } from 'vitest'
import { scenarioMatchers } from './matchers.ts'

expect.extend(scenarioMatchers)
