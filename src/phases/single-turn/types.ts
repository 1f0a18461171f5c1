// The single-turn modules' view of the engine's shared vocabulary (src/phases/engine).
export type { CallerAudio, HeardUtterance } from '../engine/caller.ts'
export { describeError, type FailureStage, StageError, type StageFailure } from '../engine/stage.ts'
