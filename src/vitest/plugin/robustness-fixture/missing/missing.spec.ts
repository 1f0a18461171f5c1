// The dataset whose noisy recording's file is missing (missing-recording.test-helpers.ts), with the default test body.
import { scenarioSuite } from '../../../suite.ts'

const dataset = process.env.MISSING_RECORDING_DATASET
if (dataset === undefined) throw new Error('MISSING_RECORDING_DATASET names no dataset')
await scenarioSuite({ phase: 'walk', dataset })
