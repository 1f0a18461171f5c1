// Responses delegation: GPT-Live calls a Responses model whose function calls our application executes. The
// controller runs each call once per call_id and publishes the outputs after the backend response completed.

import { delegationFaultsForServer } from '../../faults/backend.ts'
import type { AssistantApplication } from '../application.ts'
import { restaurantApplication } from '../responses/application.ts'
import { ResponsesDelegationController } from '../responses/delegation/index.ts'
import {
  type ArchitectureController,
  type AssistantArchitecture,
  offlineBehaviourFor,
  parseArguments,
  type RequestedCall,
  scenarioApplicationOf,
} from './architecture.ts'

/** Responses delegation of `application` (default: the restaurant's responses copy). */
export function responsesDelegation(
  application: AssistantApplication = restaurantApplication(),
): AssistantArchitecture {
  return {
    name: 'responses',
    application,
    createApplication: (visibleInput, facts, options) =>
      scenarioApplicationOf(application, 'responses', visibleInput, facts, options),
    // The service runs the backend model live: only our offline stand-in can make it fail or stall.
    faultPlanes: (mode) => (mode === 'offline' ? ['tool', 'backend'] : ['tool']),
    offlineServerFaults: delegationFaultsForServer,
    offlineBehaviour: (visibleInput) => offlineBehaviourFor(application, visibleInput),
    attach({ session, runtime, clock }): ArchitectureController {
      const controller = new ResponsesDelegationController(session, runtime, { clock })
      return {
        get pending() {
          return controller.pending
        },
        wait: (options) => controller.wait(options),
        get failure() {
          return controller.error
        },
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
        delegationFinished: (delegationId) => controller.delegationFinished(delegationId),
      }
    },
  }
}
