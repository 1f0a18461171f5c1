// The settings of the replay tools (issue 20, part 4), checked once the layers are merged and the cassette
// settings applied (cassette-settings.ts), because each depends on the run's mode:
// - replay.regrade re-grades recorded conversations, so it needs a replay (LIVE_EVALS_MODE=replay);
// - replay.caller streams a WALK or RUN cassette's recorded caller into the *live* assistant: it needs a live run
//   that is neither a replay nor a recording (both would put the whole execution in another cassette scope), and
//   CRAWL has no recorded caller to stream (its caller is synthesised from the scenario's text).
// Each problem names the setting, its variable and what to do, like every other configuration error.
import { existsSync, statSync } from 'node:fs'
import type { SectionValues } from './defaults.ts'
import type { Phase } from './schema.ts'

export function replayToolProblems(phase: Phase, values: SectionValues): string[] {
  const execution = values.execution ?? {}
  const replay = values.replay ?? {}
  const replaying = replay.enabled === true
  const problems: string[] = []
  if (replay.regrade === true && !replaying) {
    problems.push(
      'replay.regrade (LIVE_EVALS_REPLAY_REGRADE) re-grades recorded conversations and needs ' +
        'execution.mode = "replay" (LIVE_EVALS_MODE=replay); `live-evals grade --cassettes <dir>` sets both',
    )
  }
  const caller = replay.caller
  if (typeof caller !== 'string') return problems
  if (phase === 'crawl') {
    problems.push(
      'replay.caller (LIVE_EVALS_REPLAY_CALLER) streams the recorded caller of a WALK or RUN cassette; ' +
        "CRAWL's caller is synthesised from the scenario text, so unset it for CRAWL",
    )
  } else if (replaying || execution.mode !== 'live') {
    problems.push(
      `replay.caller (LIVE_EVALS_REPLAY_CALLER) streams a recorded caller into the live assistant, but execution.mode is "${replaying ? 'replay' : String(execution.mode)}": ` +
        'set LIVE_EVALS_MODE=live (it needs OPENAI_API_KEY), or unset LIVE_EVALS_REPLAY_CALLER',
    )
  } else if (execution.record === true) {
    problems.push(
      'replay.caller (LIVE_EVALS_REPLAY_CALLER) and execution.record (LIVE_EVALS_RECORD) cannot be combined: a ' +
        'replayed caller is not a conversation to record; unset one of them',
    )
  }
  if (!existsSync(caller) || !statSync(caller).isDirectory()) {
    problems.push(
      `replay.caller (LIVE_EVALS_REPLAY_CALLER) names ${caller}, which is not a folder: give the cassettes ` +
        'folder of a recorded WALK or RUN run (the one LIVE_EVALS_CASSETTES pointed at when it was recorded)',
    )
  }
  return problems
}
