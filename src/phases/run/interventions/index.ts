// Scheduled caller interventions (issue 13): the sidecar's schema and loader, and each intervention's outcome.
// The offline conversation driver (../conversation.ts) carries them out; turn-metrics.ts bargeInYields folds
// their outcomes into the run_turns row feature.
export { type InterventionSchedule, interventionsFor, loadInterventions, NO_INTERVENTIONS } from './load.ts'
export { type InterventionOutcome, InterventionOutcomeSchema, UNEXERCISED_REASONS } from './outcomes.ts'
export {
  type Intervention,
  type InterventionKind,
  InterventionSchema,
  type InterventionTrigger,
} from './schema.ts'
