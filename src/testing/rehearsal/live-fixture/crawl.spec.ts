// The bundled CRAWL spec (specs/crawl/restaurant.spec.ts) as it is, but for its config.toml: scenarioSuite() names
// none, so the project's own (the rehearsal's crawl.toml, vitest.config.ts here) is the one read.
import { scenarioSuite } from '../../../vitest/suite.ts'

await scenarioSuite({ phase: 'crawl' })
