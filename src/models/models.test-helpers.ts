// A loopback fake OpenAI server with scripted /v1/responses and /v1/decisions replies, and the client reaching it,
// for the model-call tests. `script` is read at request time, so a test pushes replies after starting it.

import OpenAI from 'openai'
import { decisionsRoute, type ScriptedDecision } from '../testing/responses-server/decisions-route.ts'
import type { ScriptedFault } from '../testing/responses-server/faults.ts'
import { responsesRoute, type ScriptedResponse } from '../testing/responses-server/responses-route.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'

export interface ScriptedOpenAi {
  server: ResponsesServer
  client: OpenAI
  responses: (ScriptedResponse | ScriptedFault)[]
  decisions: (ScriptedDecision | ScriptedFault)[]
  [Symbol.asyncDispose](): Promise<void>
}

export async function startScriptedOpenAi(): Promise<ScriptedOpenAi> {
  const responses: (ScriptedResponse | ScriptedFault)[] = []
  const decisions: (ScriptedDecision | ScriptedFault)[] = []
  const server = await startResponsesServer({
    routes: {
      'POST /v1/responses': responsesRoute({ respond: (_request, index) => responses[index] }),
      'POST /v1/decisions': decisionsRoute({ respond: (_request, index) => decisions[index] }),
    },
  })
  // The SDK's own retries stay on here on purpose: the call runner must turn them off per request.
  const client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL })
  return { server, client, responses, decisions, [Symbol.asyncDispose]: () => server.close() }
}

/** A sleep that waits for nothing and remembers what it was asked to wait. */
export function recordingSleep(): { sleep: (ms: number) => Promise<void>; waits: number[] } {
  const waits: number[] = []
  return {
    waits,
    sleep: async (ms) => {
      waits.push(ms)
    },
  }
}
