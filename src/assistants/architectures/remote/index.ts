// The remote client-assistant connector: client delegation answered by a separately deployed application
// over the authenticated WebSocket contract (shared/spec/client-endpoint.md).
export { authorizedHistory, sessionConfigureFor } from './configure.ts'
export {
  CONNECT_TIMEOUT_MS,
  CONNECTION_LIMIT_ATTEMPTS,
  MAX_INBOUND_FRAME_BYTES,
  READY_TIMEOUT_MS,
} from './connect.ts'
export { RemoteClientConnector, type RemoteConnectorOptions } from './connector.ts'
export {
  ClientAssistantEndpointError,
  dialableEndpoint,
  ENDPOINT_MESSAGE,
  INSECURE_LOOPBACK_VARIABLE,
  isLoopbackHost,
  isOptedIn,
} from './endpoint.ts'
export {
  ClientAssistantError,
  CONNECTOR_MESSAGES,
  CONNECTOR_STAGE,
  type ConnectorFailureCode,
} from './errors.ts'
export {
  REMOTE_CLIENT_VARIANT,
  REMOTE_TOOL_EVIDENCE,
  type RemoteClientArchitecture,
  type RemoteClientObservation,
  type RemoteClientOptions,
  remoteClientDelegation,
} from './remote-client.ts'
export { REMOTE_EXECUTION_MESSAGE, RemoteToolObserver } from './tool-observer.ts'
