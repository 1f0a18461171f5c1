// The report's adapter: everything it reads from a run directory. results.json goes through the gate's loader
// (parseResultsDocument plus partial detection); each row's details JSON is validated with its zod schema; the
// stereo conversation WAV gives both speakers' voiced intervals (the same energy detector the metrics use) and a
// waveform outline. A missing or damaged artifact becomes a stated problem on that scenario, never a crash.

import { join } from 'node:path'
import { artifactPathProblem } from '../artifacts/destinations.ts'
import { RESULTS_FILE } from '../artifacts/results-file-name.ts'
import { detectSpeech, type SpeechInterval } from '../audio/speech-activity.ts'
import { type LoadedExplanation, loadExplanation } from '../explain/load-explanations.ts'
import { loadGateFile } from '../gate/load.ts'
import type { GateFile } from '../gate/rows.ts'
import { describeInputFileRefusal, InputFileError, readInputFile } from '../inputs/read-input-file.ts'
import type { ResultItem } from '../reporting/result-schema.ts'
import { type ReportDetails, reportDetailsOf } from './details-view.ts'
import { peakEnvelope, readPcm16Wav } from './pcm-wav.ts'

/** Details files and WAVs larger than this are not read (a run's own artifacts are far smaller). */
const MAX_ARTIFACT_BYTES = 64 * 1024 * 1024
/** Points in each channel's waveform outline. */
const ENVELOPE_POINTS = 200

export interface VoiceTracks {
  duration_ms: number
  caller: SpeechInterval[]
  assistant: SpeechInterval[]
  envelope: { caller: number[]; assistant: number[] }
}

export interface ScenarioEvidence {
  details: ReportDetails | null
  details_problem: string | null
  voice: VoiceTracks | null
  voice_problem: string | null
}

export interface LoadedRun {
  runDir: string
  file: GateFile
  /** Parallel to file.document.results. */
  evidence: ScenarioEvidence[]
  /** The newest `live-evals explain` of the run (beside its folder); null or absent when it has none. */
  explanation?: LoadedExplanation | null
}

async function readArtifact(
  runDir: string,
  relativePath: string | null,
  what: string,
): Promise<Uint8Array | string> {
  if (relativePath === null) return `no ${what} (the row names none)`
  const problem = artifactPathProblem(relativePath)
  if (problem !== null) return `${relativePath}: ${problem}`
  const path = join(runDir, relativePath)
  try {
    // The bounded reader: a device or a FIFO planted in the run folder is refused at once, not read or waited on.
    return await readInputFile(path, MAX_ARTIFACT_BYTES)
  } catch (error) {
    if (!(error instanceof InputFileError)) throw error
    const refusal = error.refusal
    if (refusal.kind === 'too_large')
      return `${relativePath} is ${refusal.bytes} bytes, over the report's limit`
    if (refusal.kind === 'unreadable') return `${relativePath} cannot be read (${refusal.code})`
    return `${relativePath} ${describeInputFileRefusal(refusal)}`
  }
}

async function loadDetails(
  runDir: string,
  row: ResultItem,
): Promise<Pick<ScenarioEvidence, 'details' | 'details_problem'>> {
  const bytes = await readArtifact(runDir, row.artifacts.details, 'details file')
  if (typeof bytes === 'string') return { details: null, details_problem: bytes }
  let value: unknown
  try {
    value = JSON.parse(Buffer.from(bytes).toString('utf8'))
  } catch (error) {
    return {
      details: null,
      details_problem: `${row.artifacts.details} is not JSON (${(error as Error).message})`,
    }
  }
  const view = reportDetailsOf(value)
  if ('problem' in view) {
    return {
      details: null,
      details_problem: `${row.artifacts.details} is not a details file of this version (${view.problem})`,
    }
  }
  return { details: view.details, details_problem: null }
}

async function loadVoice(
  runDir: string,
  row: ResultItem,
): Promise<Pick<ScenarioEvidence, 'voice' | 'voice_problem'>> {
  const bytes = await readArtifact(runDir, row.artifacts.conversation_audio, 'conversation audio')
  if (typeof bytes === 'string') return { voice: null, voice_problem: bytes }
  const read = readPcm16Wav(bytes)
  if (!read.ok) return { voice: null, voice_problem: `${row.artifacts.conversation_audio}: ${read.reason}` }
  const { channels, sampleRateHz, durationMs } = read.audio
  if (channels.length !== 2) {
    return {
      voice: null,
      voice_problem: `${row.artifacts.conversation_audio} is not stereo (caller left, assistant right)`,
    }
  }
  const [caller, assistant] = channels as [Int16Array, Int16Array]
  return {
    voice: {
      duration_ms: durationMs,
      caller: detectSpeech(caller, { sampleRateHz }),
      assistant: detectSpeech(assistant, { sampleRateHz }),
      envelope: {
        caller: peakEnvelope(caller, ENVELOPE_POINTS),
        assistant: peakEnvelope(assistant, ENVELOPE_POINTS),
      },
    },
    voice_problem: null,
  }
}

/** One row's details and voice tracks; works during a run, before results.json exists. */
export async function loadScenarioEvidence(runDir: string, row: ResultItem): Promise<ScenarioEvidence> {
  return { ...(await loadDetails(runDir, row)), ...(await loadVoice(runDir, row)) }
}

/** @throws GateInputError when the run's results.json cannot be read (the report has nothing to show) */
export async function loadRun(runDir: string, resultsFile = RESULTS_FILE): Promise<LoadedRun> {
  const file = await loadGateFile(join(runDir, resultsFile))
  const evidence: ScenarioEvidence[] = []
  // One scenario at a time: WAV decoding is CPU-bound and the machine running a report may be running evals.
  for (const row of file.document.results) evidence.push(await loadScenarioEvidence(runDir, row))
  return { runDir, file, evidence, explanation: await loadExplanation(runDir, file.document.run.id) }
}
