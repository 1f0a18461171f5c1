// WALK: a recorded single-turn request. The caller is the scenario's WAV recording, streamed exactly as it is
// (20 ms frames, paced in real time live, on the virtual clock offline); the reference text in input.text is
// never sent. Offline, the offline GPT-Live server "hears" what the recording says from its own metadata or
// input.text (a stand-in for recognition), so offline WALK tests the pipeline under every acoustic condition;
// live, the model hears the audio, which is what tests robustness. The conversation is CRAWL's single turn.
import { cassetteCallerSource } from '../../cassettes/caller/walk-caller-source.ts'
import { recordedCallerSource } from '../engine/caller-sources.ts'
import type { SingleTurnExecution, SingleTurnSettings } from '../engine/execution.ts'
import type { ObservedConversation } from '../engine/observed.ts'
import type { PhaseModule } from '../engine/phase-module.ts'
import { singleTurnDriver } from '../single-turn/driver.ts'
import { singleTurnGrader } from '../single-turn/grader.ts'
import { asWalk, walkDescription } from './description.ts'

export const walkPhase: PhaseModule<ObservedConversation, SingleTurnExecution, SingleTurnSettings> = {
  ...walkDescription,
  driver: singleTurnDriver,
  grader: singleTurnGrader,
  callerSource(settings) {
    const walk = asWalk(settings)
    // replay.caller: the audio a recorded WALK run streamed, instead of the dataset's recording (src/cassettes/caller).
    if (typeof walk.replay.caller === 'string') return cassetteCallerSource(walk)
    return recordedCallerSource({ offline: walk.execution.mode === 'offline', reportMeasuredSpeech: true })
  },
}
