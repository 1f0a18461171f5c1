// A real recorded call turned into a WALK scenario (`live-evals import-call`): the caller's channel of a stereo
// recording becomes the scenario's recording, on its original clock (nothing trimmed, resampled to the transport
// format), so a WALK run streams exactly what the caller said, when they said it, into today's assistant. Where
// the caller speaks is measured with the project's WebRTC voice activity detector on the caller's channel (the
// recording's `speech_intervals`, which the recorded caller source and the completion window read); where the
// call's own agent spoke is measured on the other channel and kept, with the agent's transcript lines, so the
// departure of a changed assistant from the recorded call can be found (src/cassettes/caller).
//
// Refused, each naming the file and what to do: an unreadable file, a WAV that is not uncompressed 16-bit PCM, a
// mono (or more than two channel) file, and a caller channel without speech.
import { basename, extname } from 'node:path'
import { isArtifactSafeId } from '../../artifacts/ids.ts'
import { SAMPLE_RATE_HZ } from '../../audio/pcm.ts'
import { resampleWhole } from '../../audio/resampler.ts'
import type { SpeechInterval } from '../../audio/speech-intervals.ts'
import { detectVoiceActivity } from '../../audio/voice-activity.ts'
import { decodePcm16Channels, encodeMonoWav, WavFormatError } from '../../audio/wav.ts'
import {
  describeInputFileRefusal,
  INPUT_FILE_CAPS,
  InputFileError,
  readInputFile,
} from '../../inputs/read-input-file.ts'
import type { CallTranscript } from './call-transcript.ts'
import type { RawScenario } from './raw-dataset.ts'

export type CallerChannel = 'left' | 'right'
export const CALLER_CHANNELS: readonly CallerChannel[] = ['left', 'right']

/** What the recording's metadata says about the call it came from. */
export const IMPORTED_CALL_KEY = 'imported_call'
/** The recording id of an imported caller channel. */
export const IMPORTED_RECORDING_ID = 'caller_channel'

/** The expected answer an imported call starts with: the import cannot know it, and says so. */
export const PLACEHOLDER_ANSWER =
  'TO FILL IN: what the assistant should achieve for this caller (imported call; the import cannot know it).'

export class ImportCallError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'ImportCallError'
  }
}

export interface ImportCallOptions {
  wavFile: string
  callerChannel: CallerChannel
  transcript: CallTranscript | null
  /** The scenario id; default: from the file name. */
  id?: string
  /** Where the recording will be, relative to the dataset (the scenario's recording path). */
  recordingPath: (id: string) => string
}

export interface ImportedCall {
  id: string
  scenario: RawScenario
  /** The caller's channel as a transport WAV (mono, 16-bit, 24 kHz). */
  wav: Uint8Array
  callerSpeech: SpeechInterval[]
  agentSpeech: SpeechInterval[]
  durationMs: number
}

/** A scenario id from a file name: lower case, anything unsafe as `_`, `call_` in front of a leading symbol. */
export function callIdFromFile(file: string): string {
  const stem = basename(file, extname(file))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '_')
    .replace(/\.+$/, '')
  const id = /^[a-z0-9]/.test(stem) ? stem : `call_${stem.replace(/^[^a-z0-9]+/, '')}`
  return id.slice(0, 100)
}

const asMs = (intervals: readonly SpeechInterval[]) =>
  intervals.map(({ startMs, endMs }) => ({ start_ms: Math.floor(startMs), end_ms: Math.ceil(endMs) }))

async function decodeCall(file: string) {
  let bytes: Uint8Array
  try {
    bytes = await readInputFile(file, INPUT_FILE_CAPS.recording)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    throw new ImportCallError(`${file} ${describeInputFileRefusal(error.refusal)}; name a readable WAV file`)
  }
  try {
    return decodePcm16Channels(bytes, file)
  } catch (error) {
    if (!(error instanceof WavFormatError)) throw error
    throw new ImportCallError(
      `${file}: ${error.problems.join('; ')}; import-call needs an uncompressed 16-bit PCM stereo WAV ` +
        '(for example: sox call.wav -b 16 -e signed-integer call16.wav)',
    )
  }
}

export async function importCall(options: ImportCallOptions): Promise<ImportedCall> {
  const file = options.wavFile
  const id = options.id ?? callIdFromFile(file)
  if (!isArtifactSafeId(id)) {
    throw new ImportCallError(
      `scenario id ${JSON.stringify(id)} cannot name an artifact (letters, digits, ".", "_" and "-"); give one with --id`,
    )
  }
  const decoded = await decodeCall(file)
  if (decoded.channels.length !== 2) {
    throw new ImportCallError(
      `${file} is ${decoded.channels.length === 1 ? 'mono' : `${decoded.channels.length}-channel`}: import-call ` +
        'needs a stereo call recording with the caller on one channel and the agent on the other',
    )
  }
  const callerIndex = options.callerChannel === 'left' ? 0 : 1
  const toTransport = (samples: Int16Array) =>
    decoded.sampleRateHz === SAMPLE_RATE_HZ
      ? Promise.resolve(samples)
      : resampleWhole(samples, decoded.sampleRateHz, SAMPLE_RATE_HZ)
  const caller = await toTransport(decoded.channels[callerIndex] as Int16Array)
  const agent = await toTransport(decoded.channels[1 - callerIndex] as Int16Array)
  const callerSpeech = await detectVoiceActivity(caller)
  if (callerSpeech.length === 0) {
    const other = options.callerChannel === 'left' ? 'right' : 'left'
    throw new ImportCallError(
      `the ${options.callerChannel} channel of ${file} holds no speech (the voice activity detector found none): ` +
        `is the caller on the ${other} channel? (--caller-channel ${other})`,
    )
  }
  const agentSpeech = await detectVoiceActivity(agent)
  const durationMs = Math.round((caller.length * 1000) / SAMPLE_RATE_HZ)
  const transcript = options.transcript
  const callerText =
    transcript === null
      ? `(imported call ${basename(file)}: no transcript was given; what the caller says is in the recording)`
      : transcript.caller.join(' ')
  const scenario: RawScenario = {
    id,
    title: `Imported call: ${basename(file)}`,
    type: 'imported_call',
    interaction: 'single_turn',
    tags: ['imported_call'],
    input: {
      text: callerText,
      recordings: [
        {
          id: IMPORTED_RECORDING_ID,
          path: options.recordingPath(id),
          condition: 'clean',
          metadata: {
            ...(transcript === null ? {} : { transcript: callerText }),
            speech_intervals: asMs(callerSpeech),
            [IMPORTED_CALL_KEY]: {
              source_file: basename(file),
              caller_channel: options.callerChannel,
              source_sample_rate_hz: decoded.sampleRateHz,
              duration_ms: durationMs,
              detector: 'webrtc_vad_mode_3',
              agent_speech_intervals: asMs(agentSpeech),
              agent_transcript: transcript?.agent ?? [],
            },
          },
        },
      ],
    },
    application: { initial_state: {} },
    expected: {
      answer: PLACEHOLDER_ANSWER,
      criteria: [],
      tools: { required: [], prohibited: [] },
      golden_path: { turns: 2 },
      delegation: 'optional',
    },
  }
  return { id, scenario, wav: encodeMonoWav(caller), callerSpeech, agentSpeech, durationMs }
}
