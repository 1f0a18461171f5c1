// The bundled CRAWL evaluation: every single-turn restaurant scenario, in both assistant architectures.
import { scenarioSuite } from '../../src/vitest/suite.ts'

await scenarioSuite({ phase: 'crawl', config: new URL('./config.toml', import.meta.url) })
