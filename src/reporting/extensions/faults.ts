// Row extension `faults` (issue 22): the fault profile a row ran under and every fault it injected, on every plane
// (tool, delegation backend, audio transport), with when and where each took effect. Present only on rows that
// ran under a profile. How the assistant coped is in the `checks` extension (no_false_confirmation,
// verification_after_implausible_result, progress_statement_when_slow, dead_air_while_pending) and the reference's
// application_state check.
import { FaultsRecordSchema } from '../../faults/events.ts'
import { defineExtensionFeature } from './define.ts'

export const faultsExtension = defineExtensionFeature({
  name: 'faults',
  scope: 'row',
  version: '1.0',
  summary:
    'the fault profile (name, seed, setting or scenario tag) and every fault injected into the row (kind, plane, target, position, time, what it changed), with the row’s fault classes',
  schema: FaultsRecordSchema,
})
