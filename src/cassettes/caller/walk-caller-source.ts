// WALK with replay.caller: the caller is the audio a recorded WALK run streamed to the assistant (its recorded
// `session.input_audio.append` frames, in order, on their original clock: the lead-in, the request as it was
// degraded then, nothing re-synthesised), up to the last sound (the harness's own trailing silence is not the
// caller's). Where the caller speaks in it is measured with the WebRTC voice activity detector, as for a user's own
// recording. Live only, so nothing is handed to an offline server's hearing.
import { pcm16FromBytes } from '../../audio/pcm.ts'
import { detectVoiceActivity } from '../../audio/voice-activity.ts'
import type { WalkSettings } from '../../config/index.ts'
import type { CallerSource } from '../../phases/engine/caller.ts'
import { StageError } from '../../phases/engine/stage.ts'
import { audioBytes, type LoadedCassette } from '../files.ts'
import { cassetteIdOf } from '../header.ts'
import { findCallerCassette } from './find-cassette.ts'

/** The caller's audio as the recorded assistant session was sent it. */
export function recordedCallerAudio(loaded: LoadedCassette): Int16Array {
  const assistant = loaded.cassette.sessions.find((session) => session.label === 'assistant')
  const chunks = (assistant?.frames ?? []).flatMap((frame) =>
    frame.direction === 'sent' &&
    frame.event.type === 'session.input_audio.append' &&
    frame.audio !== undefined
      ? [audioBytes(loaded.files, frame.audio)]
      : [],
  )
  const samples = pcm16FromBytes(Buffer.concat(chunks))
  let end = samples.length
  while (end > 0 && samples[end - 1] === 0) end--
  return samples.slice(0, end)
}

export function cassetteCallerSource(settings: WalkSettings): CallerSource {
  const directory = settings.replay.caller as string
  return {
    audioSource: 'recorded',
    async prepare(scenario) {
      let loaded: LoadedCassette
      try {
        // Any architecture's recording: the caller's audio is the scenario's.
        loaded = await findCallerCassette(
          directory,
          'walk',
          scenario.id,
          cassetteIdOf(scenario.id, settings.assistant.mode, null),
        )
      } catch (error) {
        throw new StageError('input_setup', (error as Error).message, { cause: error })
      }
      const samples = recordedCallerAudio(loaded)
      if (samples.length === 0) {
        throw new StageError(
          'input_setup',
          `replay.caller: cassette ${loaded.cassette.header.id} holds no caller audio; record it again`,
        )
      }
      const speech = await detectVoiceActivity(samples)
      return {
        samples,
        text: scenario.input.text,
        hearing: [],
        ...(speech.length === 0 ? {} : { callerSpeech: speech }),
        source: 'recorded',
      }
    },
  }
}
