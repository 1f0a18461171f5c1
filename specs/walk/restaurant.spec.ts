// The bundled WALK evaluation: every recorded restaurant request, clean and under each acoustic condition, in
// both assistant architectures.
import { scenarioSuite } from '../../src/vitest/suite.ts'

await scenarioSuite({ phase: 'walk', config: new URL('./config.toml', import.meta.url) })
