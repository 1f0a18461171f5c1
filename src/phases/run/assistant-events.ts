// What a RUN call records of the assistant under test's session, offline and live alike: its voice (handed to the
// caller's side), its output captions on the timeline, and each delegation it opens. Offline the assistant's own
// input captions are the caller's lines too (the scripted caller has no session of its own to caption itself).
import { pcm16FromBase64 } from '../../audio/pcm.ts'
import type { LiveSession, ReceivedLiveEvent } from '../../live/index.ts'
import type { SessionTimeline } from '../../observability/timeline.ts'

/** The PCM of an output audio delta; null for any other event or an empty delta. */
export function outputAudioOf(event: ReceivedLiveEvent['event']): Int16Array | null {
  if (event.type !== 'session.output_audio.delta') return null
  const samples = pcm16FromBase64(event.delta)
  return samples.length === 0 ? null : samples
}

export interface AssistantEventRecord {
  /** `session.delegation.created` ids in arrival order (repeats kept). */
  delegationIds: string[]
  stop(): void
}

export function recordAssistantEvents(
  session: Pick<LiveSession, 'subscribe'>,
  timeline: SessionTimeline,
  options: {
    onAudio(samples: Int16Array, receivedAtMs: number): void
    /** Also put the assistant's input captions (what it heard the caller say) on the timeline as the caller's. */
    inputCaptions: boolean
  },
): AssistantEventRecord {
  const delegationIds: string[] = []
  const stop = session.subscribe(({ event, receivedAtMs }) => {
    const samples = outputAudioOf(event)
    if (samples !== null) options.onAudio(samples, receivedAtMs)
    else if (
      event.type === 'session.output_transcript.delta' ||
      (options.inputCaptions && event.type === 'session.input_transcript.delta')
    ) {
      timeline.transcript({
        role: event.type === 'session.output_transcript.delta' ? 'assistant' : 'user',
        text: event.delta,
        startMs: event.start_ms,
        endMs: event.end_ms,
        receivedAtMs,
      })
    } else if (event.type === 'session.delegation.created') {
      delegationIds.push(event.delegation.id)
      timeline.delegationCreated(event.delegation.id, receivedAtMs)
    }
  })
  return { delegationIds, stop }
}
