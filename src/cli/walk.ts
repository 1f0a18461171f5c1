// `live-evals walk generate-audio <dataset.json> [options]`: record a WALK dataset's requests (text-to-speech,
// then the acoustic condition) and write its dataset entries. The work is src/phases/walk/generate-audio.ts;
// this file reads the command line and says what happened.
import { parseArgs } from 'node:util'
import { AudioRealismError, AudioRealismOverrides, CONDITIONS } from '../audio/effects/index.ts'
import { generateAudio } from '../phases/walk/generate-audio.ts'
import { chooseSpeechEngine } from '../phases/walk/speech/choose.ts'
import { SPEECH_ENGINES, type SpeechEngineName } from '../phases/walk/speech/engine.ts'
import { DatasetValidationError } from '../scenarios/violations.ts'
import { type CommandIO, EXIT_USAGE } from './command-start.ts'

/** §5's audio-realism flags are its override keys with dashes: --noise-rms is noise_rms. */
const OVERRIDE_KEYS = Object.keys(AudioRealismOverrides.shape)
const flagOf = (key: string) => key.replaceAll('_', '-')

const USAGE = `Usage: live-evals walk generate-audio <dataset.json> [options]

Records the single-turn requests of a dataset as WAV files (mono 16-bit 24000 Hz): the request text spoken by
text-to-speech, with the row's acoustic condition applied for its seed; the dataset entries get the recording's
provenance (metadata.generation: source, audio_realism, tts_model, tts_voice, source_scenario_id, text, voice,
engine, condition, seed, effects) and the caller's speech intervals measured on the clean signal.

Without --condition it fills: every recording entry whose WAV is missing is recorded (existing WAVs are kept).
An entry written by another toolkit (e.g. the reference WALK dataset, which ships without its WAVs) keeps its
metadata as it is; ours goes beside it under metadata.live_evals.
With --condition or --vary-conditions it varies: each selected row becomes one new row per condition (<id>_<condition>, recording
audio/<id>_<condition>.wav beside the output dataset), equal to it except the id and the recording.

Options:
  --engine espeak|openai      default: openai in live mode (LIVE_EVALS_MODE=live, or OPENAI_API_KEY set and no
                              mode), espeak otherwise (Debian/Ubuntu package espeak-ng)
  --condition C               vary: one new row per condition (repeat the flag); ${CONDITIONS.join(', ')}
  --vary-conditions           vary with one condition per row instead, cycling through the --condition
                              list (all seven when none is given)
  --data FILE                 the dataset, instead of the positional argument
  --scenario ID, --example ID only these rows (repeat the flag)
  --seed N                    seed of entries that name none; with --condition, the first new row's (default 0)
  --output-data FILE          write the dataset here (default: over the input dataset)
  --append                    with --condition: add the new rows to the existing output dataset
  --force                     record again where a WAV exists; replace an existing output dataset or rows
  --voice V                   espeak voice (default en-us) or OpenAI voice (default OPENAI_WALK_TTS_VOICE or coral)
  --rate WPM                  espeak words per minute (default 160)
  --tts-model M               OpenAI speech model (default OPENAI_TTS_MODEL or gpt-4o-mini-tts)
  --cache-dir DIR             OpenAI speech cache (default .audio_cache/walk)
${OVERRIDE_KEYS.map((key) => `  --${flagOf(key)}`).join('\n')}
                              audio-realism overrides for every recording, as in \`live-evals audio\`
`

export function run(argv: readonly string[], io: CommandIO): Promise<number> {
  return runWith(argv, io, process.env)
}

/** `run` with the environment given (engine choice, OPENAI_* settings) instead of the process's. */
export async function runWith(
  argv: readonly string[],
  io: CommandIO,
  env: Record<string, string | undefined>,
): Promise<number> {
  const [sub, ...rest] = argv
  if (sub === undefined || sub === '--help' || sub === '-h') {
    ;(sub === undefined ? io.err : io.out)(USAGE)
    return sub === undefined ? EXIT_USAGE : 0
  }
  if (sub !== 'generate-audio') {
    io.err(`live-evals walk: unknown subcommand "${sub}" (walk has: generate-audio)\n\n${USAGE}`)
    return EXIT_USAGE
  }
  let parsed: Exclude<ReturnType<typeof parse>, 'help'>
  try {
    const result = parse(rest)
    if (result === 'help') {
      io.out(USAGE)
      return 0
    }
    parsed = result
  } catch (error) {
    io.err(`live-evals walk generate-audio: ${(error as Error).message}\n\n${USAGE}`)
    return EXIT_USAGE
  }
  try {
    const engine = await chooseSpeechEngine({ ...parsed.engineChoice, env })
    const report = await generateAudio({
      ...parsed.generate,
      engine,
      log: (line) => io.out(`${line}\n`),
    })
    io.out(
      `${report.outputDataset}: ${report.rows} scenario(s); ${report.written.length} recording(s) written, ` +
        `${report.kept.length} kept\n`,
    )
    return 0
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    if (error instanceof AudioRealismError) {
      // Only --condition can name an unknown condition (a dataset's are checked by the contract): a bad argument,
      // said with the usage like every other. Other fields can come from a dataset entry's own metadata.
      if (error.field === 'condition') {
        io.err(`live-evals walk generate-audio: --condition: ${message}\n\n${USAGE}`)
        return EXIT_USAGE
      }
      io.err(`live-evals walk generate-audio: --${flagOf(error.field)}: ${message}\n`)
      return 1
    }
    io.err(
      `live-evals walk generate-audio: ${error instanceof DatasetValidationError ? `\n${message}` : message}\n`,
    )
    return 1
  }
}

function parse(argv: readonly string[]) {
  const { values, positionals } = parseArgs({
    args: [...argv],
    options: {
      help: { type: 'boolean', short: 'h' },
      engine: { type: 'string' },
      condition: { type: 'string', multiple: true },
      'vary-conditions': { type: 'boolean' },
      data: { type: 'string' },
      scenario: { type: 'string', multiple: true },
      example: { type: 'string', multiple: true },
      seed: { type: 'string' },
      'output-data': { type: 'string' },
      append: { type: 'boolean' },
      force: { type: 'boolean' },
      voice: { type: 'string' },
      rate: { type: 'string' },
      'tts-model': { type: 'string' },
      'cache-dir': { type: 'string' },
      ...Object.fromEntries(OVERRIDE_KEYS.map((key) => [flagOf(key), { type: 'string' as const }])),
    },
    allowPositionals: true,
    strict: true,
  })
  if (values.help) return 'help' as const
  const datasets = [...positionals, ...(values.data === undefined ? [] : [values.data as string])]
  if (datasets.length !== 1) {
    throw new Error(`expected one <dataset.json> (or --data FILE); got ${datasets.length}`)
  }
  const engine = values.engine as string | undefined
  if (engine !== undefined && !(SPEECH_ENGINES as readonly string[]).includes(engine)) {
    throw new Error(`--engine must be one of ${SPEECH_ENGINES.join(', ')}; got "${engine}"`)
  }
  const overrides: Record<string, number | string> = {}
  for (const key of OVERRIDE_KEYS) {
    const raw = (values as Record<string, unknown>)[flagOf(key)]
    if (typeof raw !== 'string') continue
    overrides[key] = key === 'background_speech' ? raw : numberFlag(flagOf(key), raw)
  }
  const seed = values.seed === undefined ? undefined : numberFlag('seed', values.seed as string)
  if (seed !== undefined && (!Number.isInteger(seed) || seed < 0)) {
    throw new Error(`--seed must be a whole number 0 or greater; got "${values.seed}"`)
  }
  const rate = values.rate === undefined ? undefined : numberFlag('rate', values.rate as string)
  const conditions = (values.condition as string[] | undefined) ?? []
  return {
    engineChoice: {
      ...(engine === undefined ? {} : { engine: engine as SpeechEngineName }),
      ...(values.voice === undefined ? {} : { voice: values.voice as string }),
      ...(rate === undefined ? {} : { rateWpm: rate }),
      ...(values['tts-model'] === undefined ? {} : { ttsModel: values['tts-model'] as string }),
      ...(values['cache-dir'] === undefined ? {} : { cacheDir: values['cache-dir'] as string }),
    },
    generate: {
      dataset: datasets[0] as string,
      ...(values['output-data'] === undefined ? {} : { outputDataset: values['output-data'] as string }),
      force: values.force === true,
      append: values.append === true,
      conditions,
      varyConditions: values['vary-conditions'] === true,
      scenarioIds: [
        ...((values.scenario as string[] | undefined) ?? []),
        ...((values.example as string[] | undefined) ?? []),
      ],
      ...(seed === undefined ? {} : { seed }),
      overrides,
    },
  }
}

function numberFlag(flag: string, raw: string): number {
  const value = raw.trim() === '' ? Number.NaN : Number(raw)
  if (!Number.isFinite(value)) throw new Error(`--${flag} needs a number; got "${raw}"`)
  return value
}
