// The dataset's scenarios with the default matchers, on every model and architecture of the run.
import { scenarioSuite } from '../../suite.ts'

await scenarioSuite({ phase: 'crawl' })
