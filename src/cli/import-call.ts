// `live-evals import-call <stereo.wav> --caller-channel left|right [--transcript FILE] [--out DATASET] [--id ID]`:
// a real recorded call becomes a WALK scenario (src/phases/walk/imported-call.ts): the caller's channel is written
// as the scenario's recording beside the dataset (audio/<id>.wav), and the scenario is added to the dataset (a new
// one, or appended to an existing one, which is checked first). The whole dataset is checked against the contract,
// its recordings included, before it replaces anything; the recording is written first, the dataset last.
import { access, mkdir, readFile, rm } from 'node:fs/promises'
import { dirname, join, relative, resolve } from 'node:path'
import { writeFileAtomically } from '../artifacts/atomic-file.ts'
import { CallTranscriptError, parseCallTranscript } from '../phases/walk/call-transcript.ts'
import {
  CALLER_CHANNELS,
  type CallerChannel,
  ImportCallError,
  importCall,
  PLACEHOLDER_ANSWER,
} from '../phases/walk/imported-call.ts'
import { appendTarget, type RawDataset } from '../phases/walk/raw-dataset.ts'
import { parseDataset } from '../scenarios/index.ts'
import { recordingFileViolations } from '../scenarios/recording-files.ts'
import { DatasetValidationError, describeViolations } from '../scenarios/violations.ts'
import { type CommandIO, EXIT_USAGE } from './main.ts'

const DEFAULT_OUT = 'imported-calls.json'

const USAGE = `Usage: live-evals import-call <stereo.wav> --caller-channel left|right [--transcript FILE]
                              [--out DATASET] [--id ID]

Turns a real recorded call into a WALK scenario: the caller's channel of a stereo recording (uncompressed 16-bit
PCM, any sample rate; resampled to 24 kHz) becomes the scenario's recording, on its original clock, at
audio/<id>.wav beside the dataset. Where the caller speaks is measured with the WebRTC voice activity detector;
where the call's agent spoke is measured on the other channel and kept in the recording's metadata. A WALK run
then streams the caller into your current assistant (LIVE_EVALS_MODE=live).

  --caller-channel left|right  which channel is the caller (required)
  --transcript FILE  the call's transcript: one utterance per line, "caller: ..." or "agent: ..."; the caller's
                     lines become what the scenario's caller says, the agent's are kept for comparison
  --out DATASET      the dataset to write, or to add the scenario to when it exists (default ${DEFAULT_OUT})
  --id ID            the scenario id (default: from the WAV's file name)

The import cannot know what the assistant should achieve: expected.answer is a placeholder ("TO FILL IN: ..."),
with no criteria, tools or state; fill them in before you read a verdict. Exits 1 when the call cannot be
imported (the message names the file and why), 2 for a wrong command line.
`

interface ImportArguments {
  wav: string
  callerChannel: CallerChannel
  transcript: string | null
  out: string
  id: string | null
}

function parseArguments(argv: readonly string[]): ImportArguments | string {
  const positional: string[] = []
  const values: Record<string, string> = {}
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (['--caller-channel', '--transcript', '--out', '--id'].includes(argument)) {
      const value = argv[++index]
      if (value === undefined || value.startsWith('--')) return `${argument} needs a value`
      values[argument] = value
    } else if (argument.startsWith('-')) return `unknown option ${argument}`
    else positional.push(argument)
  }
  if (positional.length !== 1) return 'name exactly one stereo WAV file'
  const channel = values['--caller-channel']
  if (channel === undefined) return '--caller-channel left|right is required (which channel is the caller)'
  if (!CALLER_CHANNELS.includes(channel as CallerChannel)) {
    return `--caller-channel must be left or right (got ${JSON.stringify(channel)})`
  }
  return {
    wav: positional[0] as string,
    callerChannel: channel as CallerChannel,
    transcript: values['--transcript'] ?? null,
    out: values['--out'] ?? DEFAULT_OUT,
    id: values['--id'] ?? null,
  }
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  )

export async function importCallCommand(
  argv: readonly string[],
  io: CommandIO,
  cwd: string = process.cwd(),
): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    io.out(USAGE)
    return 0
  }
  const args = parseArguments(argv)
  if (typeof args === 'string') {
    io.err(`live-evals import-call: ${args}\n\n${USAGE}`)
    return EXIT_USAGE
  }
  const out = resolve(cwd, args.out)
  let recording: string | null = null
  try {
    let transcript = null
    if (args.transcript !== null) {
      const file = resolve(cwd, args.transcript)
      const text = await readFile(file, 'utf8').catch((error: NodeJS.ErrnoException) => {
        throw new ImportCallError(`the transcript ${file} cannot be read (${error.code ?? error.message})`)
      })
      transcript = parseCallTranscript(text, file)
    }
    const base: RawDataset = (await exists(out))
      ? await appendTarget(out).catch((error: unknown) => {
          const why = error instanceof Error ? error.message : String(error)
          throw new ImportCallError(
            `${out} exists but is not a dataset the scenario can be added to:\n${why}`,
          )
        })
      : { schema_version: '1.0', scenarios: [] }
    const imported = await importCall({
      wavFile: resolve(cwd, args.wav),
      callerChannel: args.callerChannel,
      transcript,
      ...(args.id === null ? {} : { id: args.id }),
      recordingPath: (id) => join('audio', `${id}.wav`),
    })
    if (base.scenarios.some((scenario) => scenario.id === imported.id)) {
      throw new ImportCallError(`${out} already has a scenario ${imported.id}; give another one with --id`)
    }
    recording = resolve(dirname(out), 'audio', `${imported.id}.wav`)
    if (await exists(recording)) {
      const taken = recording
      recording = null
      throw new ImportCallError(`${taken} exists; give another scenario id with --id`)
    }
    await mkdir(dirname(recording), { recursive: true })
    await writeFileAtomically(recording, imported.wav)
    const document: RawDataset = { ...base, scenarios: [...base.scenarios, imported.scenario] }
    const text = `${JSON.stringify(document, null, 2)}\n`
    // The contract's whole check, recordings included, before the dataset is replaced.
    const problems = await recordingFileViolations(parseDataset(text, out))
    if (problems.length > 0) throw new DatasetValidationError(problems)
    await writeFileAtomically(out, text)
    const seconds = (imported.durationMs / 1000).toFixed(1)
    io.out(
      `imported ${imported.id}: ${seconds} s, the caller speaks in ${imported.callerSpeech.length} interval(s), ` +
        `the agent in ${imported.agentSpeech.length}\n` +
        `recording: ${relative(cwd, recording) || recording}\ndataset:   ${relative(cwd, out) || out}\n` +
        `Fill in expected.answer (now "${PLACEHOLDER_ANSWER.slice(0, 12)}…"), criteria, tools and state before ` +
        'reading a verdict.\n',
    )
    return 0
  } catch (error) {
    // A recording written for a dataset that was not: removed, so the next attempt does not trip over it.
    if (recording !== null) await rm(recording, { force: true })
    if (error instanceof DatasetValidationError) {
      io.err(
        `live-evals import-call: the scenario does not fit ${out}:\n${describeViolations(error.violations)}\n`,
      )
      return 1
    }
    if (error instanceof ImportCallError || error instanceof CallTranscriptError) {
      io.err(`live-evals import-call: ${error.message}\n`)
      return 1
    }
    throw error
  }
}

export function run(argv: readonly string[], io: CommandIO): Promise<number> {
  return importCallCommand(argv, io)
}
