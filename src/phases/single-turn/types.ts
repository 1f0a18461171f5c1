// The shared vocabulary of a single-turn execution (CRAWL now, WALK later): the environment a scenario runs in,
// the caller audio, the failure stages of reference §4.4 and what one execution hands back to Vitest.

import type { ClientControllerFactory } from '../../assistants/assistant-session.ts'
import type { Architecture } from '../../assistants/frontend/index.ts'
import type { SpeechSynthesizer } from '../../audio/synthesis.ts'
import type { CrawlSettings } from '../../config/index.ts'
import type { SingleTurnObservation } from '../../observability/observation.ts'
import type { SingleTurnGrade } from '../../grading/single-turn.ts'
import type { ResultArtifacts, ResultItem } from '../../reporting/result-schema.ts'
import type { OfflineLiveServer } from '../../testing/live-server/index.ts'

/**
 * Where and how one single-turn scenario runs.
 * - `settings`: the resolved CRAWL settings (execution.mode offline|live, audio.real_time, timeouts, models).
 * - `runDirectory`: the reserved run folder (absolute); artifacts go below it.
 * - `offlineServer`: the offline GPT-Live server in offline mode, null live.
 * - `speech`: the text-to-speech synthesizer (with its cache) live; null offline (synthetic voice).
 * - `architecture`: which delegation architecture the assistant under test uses.
 * - `clientController`: builds the application's controller for client delegation (required for `client`).
 */
export interface SingleTurnEnv {
  phase: 'crawl'
  settings: CrawlSettings
  runDirectory: string
  offlineServer: OfflineLiveServer | null
  speech: SpeechSynthesizer | null
  architecture: Architecture
  clientController?: ClientControllerFactory
}

export interface HeardUtterance {
  text: string
  startMs: number
  endMs: number
}

/** The request as it will be streamed: PCM16 mono 24 kHz, lead-in silence included. */
export interface CallerAudio {
  samples: Int16Array
  text: string
  /** Offline: what the caller actually says and when (the offline server's hearing oracle); [] live. */
  hearing: HeardUtterance[]
  source: 'synthetic' | 'tts'
}

/** Failure stages, named as the reference toolkit names them. */
export type FailureStage =
  | 'input_setup'
  | 'audio_synthesis'
  | 'connection'
  | 'session_start'
  | 'response_collection'
  | 'output_audio'
  | 'result_validation'
  | 'example_execution'

export interface StageFailure {
  stage: FailureStage
  message: string
}

/** An error that knows which stage of the execution it ended. */
export class StageError extends Error {
  readonly stage: FailureStage

  constructor(stage: FailureStage, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'StageError'
    this.stage = stage
  }
}

/**
 * Absolute paths of the artifacts written for one scenario; null when not written. The keys are the results
 * row's `artifacts` (which holds the same files relative to the run directory).
 */
export type SingleTurnArtifactPaths = ResultArtifacts

export interface SingleTurnExecution {
  scenarioId: string
  observation: SingleTurnObservation | null
  grade: SingleTurnGrade | null
  row: ResultItem
  artifacts: SingleTurnArtifactPaths
  failure: StageFailure | null
}

export function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}
