// replay.caller: a recorded caller streamed on its original clock into the current, live assistant. The recording
// is a WALK or RUN cassette of the same scenario (find-cassette.ts).
// - RUN: the caller's GPT-Live session is played from the cassette by a loopback replay server (leniently: what
//   the caller hears now is the new assistant, which it cannot react to), while the assistant's session, its
//   backend, the observer and the judge are live. The departure watch compares each assistant turn with the
//   recorded one at the caller's next onset, and silences the caller from the first that differs in meaning. A
//   caller that was silenced, or that played out (its recording has nothing left), ends the live call once the
//   assistant is done, through the scope's `recordedCallerDone`.
// - WALK: the caller's audio is the recorded request (walk-caller-source.ts, chosen by the WALK phase); the reply
//   is compared with the recorded one afterwards (the caller says nothing after its request).
// Tools are the application's, or the recording's outputs (replay.caller_tools, recorded-tools.ts). The row gets
// the `caller_replay` extension: the cassette, the departure with both texts, the tool calls of both, and what
// was graded. A missing or foreign recording is an infrastructure_error at stage `replay`, never a pass.
import { scenarioApplicationOf } from '../../assistants/architectures/index.ts'
import type { PhaseSettings } from '../../config/index.ts'
import { credentialValues } from '../../config/redact.ts'
import type { ScenarioExecution } from '../../phases/engine/execution.ts'
import type { CallerReplayRowExtension } from '../../reporting/extensions/caller-replay.ts'
import { withRowExtension } from '../../reporting/extensions/with-row-extension.ts'
import type { LoadedCassette } from '../files.ts'
import { type CassetteExecutionContext, cassetteIdFor } from '../recording.ts'
import { startReplayServer } from '../replay-server.ts'
import { type CassetteScope, runInCassetteScope } from '../scope.ts'
import { DepartureWatch } from './departure-watch.ts'
import { findCallerCassette } from './find-cassette.ts'
import { applicationAnsweredFromCassette, recordedToolExecutions } from './recorded-tools.ts'
import { recordedTurns } from './turns.ts'

const callsOf = (executions: unknown) =>
  recordedToolExecutions(executions).map(({ name, arguments: args }) => ({ name, arguments: args }))

export async function replayCallerExecution<Execution extends ScenarioExecution>(
  context: CassetteExecutionContext<Execution>,
): Promise<Execution> {
  const settings: PhaseSettings = context.env.settings
  const directory = settings.replay.caller as string
  let loaded: LoadedCassette
  try {
    loaded = await findCallerCassette(directory, settings.phase, context.scenario.id, cassetteIdFor(context))
  } catch (error) {
    return context.failed({ stage: 'replay', message: (error as Error).message })
  }
  const { cassette } = loaded
  const tools = settings.replay.caller_tools
  const application =
    tools === 'cassette'
      ? scenarioApplicationOf(
          applicationAnsweredFromCassette(
            context.env.architecture.application,
            recordedToolExecutions(cassette.tool_executions),
          ),
          context.env.architecture.name,
          { scenarioId: context.scenario.id, initialState: context.application.initialState },
        )
      : undefined
  const recorded = recordedTurns(cassette)
  const watch = new DepartureWatch(recorded)
  let execution: Execution
  if (cassette.sessions.some((session) => session.label === 'caller')) {
    const redaction = { extraNames: settings.redact_fields, secretValues: credentialValues(settings) }
    const server = await startReplayServer(loaded, {
      match: 'lenient',
      redaction,
      // The assistant is live, so the call runs in real time: the caller's frames are played as they come due.
      clock: 'real_time',
      transform: (label, event, atMs) =>
        label.startsWith('caller') ? watch.callerFrame(event, atMs) : event,
    })
    try {
      execution = await runInCassetteScope(callerOnlyScope(server.scope(), watch), () =>
        context.run(application),
      )
    } finally {
      await server.close()
    }
  } else {
    execution = await context.run(application)
    // A single request: the reply is the turn after it, compared once the call is over.
    for (const line of (execution.observation?.transcript ?? []).filter(
      (entry) => entry.role === 'assistant',
    )) {
      watch.said(1, line.text)
    }
  }
  const departure = watch.finish()
  const extension: CallerReplayRowExtension = {
    cassette: cassette.header.id,
    tools,
    recorded_turns: recorded.turns.filter((turn) => turn !== '').length,
    departure,
    tool_calls: {
      recorded: callsOf(cassette.tool_executions),
      now: callsOf(execution.observation?.tool_executions ?? []),
    },
    graded: departure?.caller_silenced_at_ms == null ? 'whole_call' : 'until_departure',
    note: noteOf(departure, tools),
  }
  return { ...execution, row: withRowExtension(execution.row, 'caller_replay', extension) }
}

/** The replay scope for the caller's session only; the assistant's stays live (and is listened to) and HTTP too. */
function callerOnlyScope(replay: CassetteScope, watch: DepartureWatch): CassetteScope {
  const tap = replay.tap
  return {
    tap: {
      endpoint: (endpoint, label) =>
        label === 'caller' && tap.endpoint !== undefined ? tap.endpoint(endpoint, label) : endpoint,
      receiveClock: (label) => (label === 'caller' ? tap.receiveClock?.(label) : undefined),
      opened(session, label) {
        if (label === 'assistant') watch.listen(session)
      },
    },
    fetch: (input, init) => fetch(input, init),
    recordedCallerDone: (nowMs) => watch.callerDone(nowMs),
  }
}

function noteOf(departure: ReturnType<DepartureWatch['finish']>, tools: 'application' | 'cassette'): string {
  const state =
    tools === 'cassette'
      ? ' The tools answered with the recorded outputs, so the application state did not change.'
      : ''
  if (departure === null) {
    return `The assistant said what the recording's assistant said, turn by turn: the whole call is comparable.${state}`
  }
  if (departure.caller_silenced_at_ms === null) {
    return (
      `The conversation left the recording at assistant turn ${departure.turn}, its last: the caller said nothing ` +
      `after it, so the whole call is comparable.${state}`
    )
  }
  return (
    `The conversation left the recording at assistant turn ${departure.turn}: the recorded caller was silenced at ` +
    `${Math.round(departure.caller_silenced_at_ms)} ms (its later lines answer the recorded assistant), so the call ` +
    `was graded on what came before, and the task may be unfinished for that reason.${state}`
  )
}
