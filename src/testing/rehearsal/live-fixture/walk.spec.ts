// The bundled WALK spec (specs/walk/restaurant.spec.ts) as it is, but for its config.toml: scenarioSuite() names
// none, so the project's own (the rehearsal's walk.toml, vitest.config.ts here) is the one read.
import { scenarioSuite } from '../../../vitest/suite.ts'

await scenarioSuite({ phase: 'walk' })
