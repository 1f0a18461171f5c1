// The bundled RUN evaluation: every restaurant conversation, a simulated caller against the assistant under test,
// in both assistant architectures.
import { scenarioSuite } from '../../src/vitest/suite.ts'

await scenarioSuite({ phase: 'run', config: new URL('./config.toml', import.meta.url) })
