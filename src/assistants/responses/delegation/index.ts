export { type LiveEventChannel, ResponsesDelegationController } from './controller.ts'
export {
  type BackendUsage,
  backendUsageSchema,
  type FunctionCallItem,
  observeNestedEvent,
  TERMINAL_RESPONSE_EVENTS,
} from './nested-events.ts'
export * from './records.ts'
