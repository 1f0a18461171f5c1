// The delegation architectures of the assistant under test: one object each (see architecture.ts).
export {
  type ApplicationView,
  type ArchitectureController,
  type AssistantArchitecture,
  type ControllerContext,
  type DelegationObservation,
  parseArguments,
  type RequestedCall,
  type ScenarioApplication,
  scenarioApplicationOf,
} from './architecture.ts'
export { backendMessagesOf } from './backend-messages.ts'
export {
  type ClientBackendFactory,
  type ClientDelegationObservation,
  clientDelegation,
  offlineClientBackend,
} from './client.ts'

export { responsesDelegation } from './responses.ts'
