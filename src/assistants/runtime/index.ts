// The generic tool runtime shared by every assistant architecture: the executor contract, the
// definitions check, GPT-Live tool normalization and asynchronous execution with failure records.
export { FaultInjector, type InjectedFault, InjectedFaultSchema } from './faults.ts'
export { deepCopy, isJsonObject } from './json.ts'
export { normalizeLiveTools } from './live-tools.ts'
export {
  type FunctionToolDefinition,
  functionToolDefinitionSchema,
  parseToolDefinitions,
  readToolDefinitions,
  ToolDefinitionsError,
  toolMutates,
} from './tool-definitions.ts'
export {
  ToolArgumentError,
  type ToolExecutionRecord,
  type ToolExecutor,
  toolExecutionRecordSchema,
} from './tool-executor.ts'
export {
  type ToolCallRequest,
  type ToolCallResult,
  ToolExecutionError,
  ToolRuntime,
  type ToolRuntimeOptions,
} from './tool-runtime.ts'
