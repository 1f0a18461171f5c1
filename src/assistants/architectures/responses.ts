// Responses delegation: GPT-Live calls a Responses model whose function calls our application executes. The
// controller runs each call once per call_id and publishes the outputs after the backend response completed.
import { renderConversationContext } from '../../scenarios/derived.ts'
import { ResponsesDelegationController } from '../responses/delegation/index.ts'
import { RestaurantOfflineBehaviour } from '../responses/offline/restaurant-offline-behaviour.ts'
import { RestaurantTools } from '../responses/tools/restaurant-tools.ts'
import { ToolRuntime } from '../runtime/tool-runtime.ts'
import {
  type ArchitectureController,
  type AssistantArchitecture,
  applicationOver,
  parseArguments,
  type RequestedCall,
} from './architecture.ts'

export const responsesDelegation: AssistantArchitecture = {
  name: 'responses',
  createApplication(visibleInput, facts) {
    const initialState = structuredClone(visibleInput.initialState)
    // The executor deep-copies both, so it never shares state with the view or with the caller's facts.
    const runtime = new ToolRuntime(new RestaurantTools({ initialState, facts }))
    return applicationOver(runtime, visibleInput.scenarioId, 'responses', initialState)
  },
  offlineBehaviour(visibleInput) {
    return new RestaurantOfflineBehaviour({
      conversationContext: renderConversationContext(visibleInput.context),
      initialState: visibleInput.initialState,
    })
  },
  attach({ session, runtime, clock }): ArchitectureController {
    const controller = new ResponsesDelegationController(session, runtime, { clock })
    return {
      get pending() {
        return controller.pending
      },
      wait: (options) => controller.wait(options),
      close: () => controller.close(),
      observation: () => ({ architecture: 'responses', records: controller.observation() }),
      requestedCalls() {
        // One request per call_id: a repeated delivery of the same call is the same request.
        const seen = new Set<string>()
        const calls: RequestedCall[] = []
        for (const call of controller.observation().requestedCalls) {
          if (call.name === null) continue
          if (call.callId !== null) {
            if (seen.has(call.callId)) continue
            seen.add(call.callId)
          }
          calls.push({ name: call.name, arguments: parseArguments(call.arguments) })
        }
        return calls
      },
      backendUsage: () => controller.observation().backendUsage.map((record) => record.usage),
      delegationFinished(delegationId) {
        // Work is tracked only from the first function call, so an idle controller alone does not mean the
        // backend is done: its response must have ended, and any calls it made must have been published.
        const records = controller.observation()
        const responded = records.backendUsage.some((usage) => usage.delegationId === delegationId)
        const ranTools = records.requestedCalls.some(
          (call) => call.delegationId === delegationId && call.executed,
        )
        const published = records.publications.some(
          (publication) => publication.delegationId === delegationId,
        )
        return responded && (!ranTools || published)
      },
    }
  },
}
