import { parseArgs } from 'node:util'
import { writeFileAtomically } from '../artifacts/atomic-file.ts'
import { AudioRealismError, CONDITIONS, processWavFile } from '../audio/effects/index.ts'
import { type CommandIO, EXIT_USAGE } from './command-start.ts'

// `live-evals audio <condition> <in.wav> <out.wav> [flags]`: apply an acoustic condition to a recording,
// streaming (any length, flat memory), and write the §5 metadata beside the output: out.wav's is out.realism.json.
// The flags are reference-toolkit §5's audio-realism flags; each one switches its effect on. A value the effects
// refuse (an unknown condition, a seed or an override out of bounds) is a usage error like any other bad argument
// (usage, exit 2); only the files (the input, the background recording, the destination) fail with exit 1.

/** Flag name → §5 override key; every value is a number except the background file. */
const OVERRIDE_FLAGS = {
  'noise-rms': 'noise_rms',
  'background-speech': 'background_speech',
  'background-gain': 'background_gain',
  'echo-delay-ms': 'echo_delay_ms',
  'echo-decay': 'echo_decay',
  'packet-loss-rate': 'packet_loss_rate',
  'packet-loss-burst': 'packet_loss_burst',
  'cough-every-ms': 'cough_every_ms',
  'non-directed-every-ms': 'non_directed_every_ms',
} as const

const USAGE = `Usage: live-evals audio <condition> <in.wav> <out.wav> [options]
       live-evals audio --condition <condition> <in.wav> <out.wav> [options]

Applies an acoustic condition to a mono 16-bit 24000 Hz WAV and writes the processed WAV (same length) and,
beside it, its metadata under the same name with .realism.json for .wav (out.wav: out.realism.json): the
audio-realism metadata (effects, background provenance, observations), the caller's speech intervals measured on
the clean input, and the chain's fixed latency. To run the WAV as a WALK recording, copy its
caller_speech_intervals_ms into the dataset entry's metadata.speech_intervals (nothing reads the file itself).

Conditions: ${CONDITIONS.join(', ')}

Options (each one switches its effect on, whatever the condition):
  --seed N                    0..4294967295 (default 0); the same seed gives the same bytes
  --noise-rms X               white noise RMS in PCM16 units, 0..32767
  --background-speech PATH    background recording (mono or stereo 16-bit PCM WAV, any rate)
  --background-gain G         0..1
  --echo-delay-ms MS          0..60000
  --echo-decay D              0..1
  --packet-loss-rate R        0..1 (chance that a 200 ms frame starts a loss burst)
  --packet-loss-burst N       1..1000 consecutive 200 ms frames lost per burst
  --cough-every-ms MS         1..3600000
  --non-directed-every-ms MS  1..3600000
`

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  let parsed: ReturnType<typeof parse>
  try {
    parsed = parse(argv)
  } catch (error) {
    io.err(`live-evals audio: ${(error as Error).message}\n\n${USAGE}`)
    return EXIT_USAGE
  }
  if (parsed === 'help') {
    io.out(USAGE)
    return 0
  }
  const { condition, input, output, seed, overrides } = parsed
  try {
    const processed = await processWavFile(input, output, { condition, seed, overrides })
    const metadataFile = metadataPathFor(output)
    const document = {
      audio_realism: processed.metadata,
      source: input,
      duration_ms: processed.durationMs,
      latency_ms: processed.latencyMs,
      caller_speech_intervals_ms: processed.callerSpeechIntervals.map(({ startMs, endMs }) => ({
        start_ms: startMs,
        end_ms: endMs,
      })),
    }
    await writeFileAtomically(metadataFile, `${JSON.stringify(document, null, 2)}\n`)
    const observed = processed.metadata.observations
    io.out(
      `${output}: ${condition}, seed ${seed}, ${(processed.durationMs / 1000).toFixed(2)} s ` +
        `(lost frames ${observed.lost_frames}, vocal tics ${observed.vocal_tic_events}, ` +
        `non-directed events ${observed.non_directed_events})\n${metadataFile}: metadata\n`,
    )
    return 0
  } catch (error) {
    if (error instanceof AudioRealismError) {
      const flag = flagFor(error.field)
      const said = `live-evals audio: ${flag === null ? '' : `${flag}: `}${error.message}\n`
      // The background recording is a file: a missing or unusable one is not a wrong command line.
      if (error.field === 'background_speech') {
        io.err(said)
        return 1
      }
      io.err(`${said}\n${USAGE}`)
      return EXIT_USAGE
    }
    // Everything else is about the files (a bad or missing recording, an unwritable destination): say so.
    io.err(`live-evals audio: ${error instanceof Error ? error.message : String(error)}\n`)
    return 1
  }
}

/** `out.wav` → `out.realism.json` (any other name gets `.realism.json` appended). */
export function metadataPathFor(output: string): string {
  return `${output.replace(/\.wav$/i, '')}.realism.json`
}

function parse(argv: readonly string[]) {
  const options = {
    help: { type: 'boolean', short: 'h' },
    condition: { type: 'string' },
    seed: { type: 'string' },
    ...Object.fromEntries(Object.keys(OVERRIDE_FLAGS).map((flag) => [flag, { type: 'string' }])),
  } as const
  const { values, positionals } = parseArgs({
    args: [...argv],
    options,
    allowPositionals: true,
    strict: true,
  })
  if (values.help) return 'help' as const
  const named = values.condition as string | undefined
  const expected = named === undefined ? 3 : 2
  if (positionals.length !== expected) {
    throw new Error(
      named === undefined
        ? `expected <condition> <in.wav> <out.wav>; got ${positionals.length} argument(s)`
        : `with --condition, expected <in.wav> <out.wav>; got ${positionals.length} argument(s)`,
    )
  }
  const [condition, input, output] = (named === undefined ? positionals : [named, ...positionals]) as [
    string,
    string,
    string,
  ]
  const overrides: Record<string, number | string> = {}
  for (const [flag, key] of Object.entries(OVERRIDE_FLAGS)) {
    const raw = (values as Record<string, unknown>)[flag]
    if (typeof raw !== 'string') continue
    overrides[key] = key === 'background_speech' ? raw : numberFlag(flag, raw)
  }
  const seed = values.seed === undefined ? 0 : numberFlag('seed', values.seed as string)
  return { condition, input, output, seed, overrides }
}

function numberFlag(flag: string, raw: string): number {
  const value = raw.trim() === '' ? Number.NaN : Number(raw)
  if (!Number.isFinite(value)) throw new Error(`--${flag} needs a number; got "${raw}"`)
  return value
}

function flagFor(field: string): string | null {
  if (field === 'seed') return '--seed'
  const entry = Object.entries(OVERRIDE_FLAGS).find(([, key]) => key === field)
  return entry === undefined ? null : `--${entry[0]}`
}
