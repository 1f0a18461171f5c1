// The two restaurant copies side by side, for the parity tests only. The copies never import each
// other; this is the one place that sees both.

import * as clientOffline from '../client/offline/restaurant-offline-behaviour.ts'
import * as clientArguments from '../client/tools/arguments.ts'
import * as clientResources from '../client/tools/resources.ts'
import * as clientTools from '../client/tools/restaurant-tools.ts'
import type { JsonObject } from '../offline-behaviour.ts'
import * as responsesOffline from '../responses/offline/restaurant-offline-behaviour.ts'
import * as responsesArguments from '../responses/tools/arguments.ts'
import * as responsesResources from '../responses/tools/resources.ts'
import * as responsesTools from '../responses/tools/restaurant-tools.ts'

export const copies = [
  {
    label: 'responses',
    ...responsesResources,
    RestaurantTools: responsesTools.RestaurantTools,
    RestaurantToolError: responsesArguments.RestaurantToolError,
    RestaurantOfflineBehaviour: responsesOffline.RestaurantOfflineBehaviour,
  },
  {
    label: 'client',
    ...clientResources,
    RestaurantTools: clientTools.RestaurantTools,
    RestaurantToolError: clientArguments.RestaurantToolError,
    RestaurantOfflineBehaviour: clientOffline.RestaurantOfflineBehaviour,
  },
] as const

export type RestaurantCopy = (typeof copies)[number]

/** What one call did: its output or its error message, then the state and the execution log. */
export interface CallOutcome {
  output: JsonObject | null
  error: string | null
  state: JsonObject
  executions: unknown[]
}

/** Run a sequence of calls on a fresh executor of one copy and record everything observable. */
export function runCalls(
  copy: RestaurantCopy,
  initialState: JsonObject,
  calls: readonly { name: string; args: unknown }[],
): CallOutcome[] {
  const tools = new copy.RestaurantTools({ initialState })
  return calls.map(({ name, args }, index) => {
    let output: JsonObject | null = null
    let error: string | null = null
    try {
      output = tools.execute(name, args, `call-${index}`)
    } catch (caught) {
      if (!(caught instanceof copy.RestaurantToolError)) throw caught
      error = caught.message
    }
    return { output, error, state: tools.snapshot(), executions: tools.executions }
  })
}
