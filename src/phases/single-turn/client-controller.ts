// The client-delegation controller for offline runs: the application's in-process controller driving the
// offline application backend (the client copy's offline behaviour over application-owned memory, tools on the
// scenario's own runtime). Live runs pass a controller factory with the OpenAI reference backend instead.

import type { ClientControllerContext, DelegationController } from '../../assistants/assistant-session.ts'
import { OfflineApplicationBackend } from '../../assistants/client/backend/offline-backend.ts'
import { runtimeToolCallback } from '../../assistants/client/backend/tool-callback.ts'
import { ClientDelegationController } from '../../assistants/client/delegation/client-delegation-controller.ts'
import { RestaurantOfflineBehaviour } from '../../assistants/client/offline/restaurant-offline-behaviour.ts'

function visibleContextText(context: ClientControllerContext): string {
  const visible = context.visibleInput.context
  if (visible === null) return ''
  const lines = visible.history.map((message) => `${message.role}: ${message.text}`)
  return (visible.summary.trim() === '' ? lines : [visible.summary, ...lines]).join('\n')
}

export function offlineClientController(context: ClientControllerContext): DelegationController {
  const initialState = context.visibleInput.initialState
  const backend = new OfflineApplicationBackend({
    behaviourFor: (conversationContext) =>
      new RestaurantOfflineBehaviour({ conversationContext, initialState: structuredClone(initialState) }),
    callTool: runtimeToolCallback(context.runtime),
    authorizedContext: visibleContextText(context),
  })
  const controller = new ClientDelegationController({
    backend,
    sendToLive: (event) => context.session.send(event) !== null,
    initialItems: context.plan.input,
  })
  const unsubscribe = context.session.subscribe((received) => controller.observe(received.event))
  return {
    get pending() {
      return controller.pending
    },
    wait: (options) => controller.wait(options),
    close: async () => {
      unsubscribe()
      await controller.close()
    },
    observation: () => ({ delegationIds: controller.delegationIds, commentary: controller.commentary() }),
  }
}
