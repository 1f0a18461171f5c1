// The cassette an execution records into or replays from, carried by the execution's async context: the engine
// runs a scenario inside `runInCassetteScope`, and the two capture seams read it where they are: the GPT-Live
// session (src/live's session tap) and the openai clients' `fetch` option (cassetteFetch). Outside a scope
// (every run that neither records nor replays) both are exactly what they were.
import { AsyncLocalStorage } from 'node:async_hooks'
import { type SessionTap, sessionTaps } from '../live/index.ts'
import type { RecordingSync, ReplaySync } from '../phases/engine/media-clock.ts'
import type { ReplayedCallerSignal } from '../phases/run/drain.ts'

export interface CassetteScope {
  readonly tap: SessionTap
  /** Performs (recording) or redirects (replay) one HTTP request of an openai client. */
  fetch(input: string | URL | Request, init?: RequestInit): Promise<Response>
  /**
   * Replay only: the media clock's synchronisation with the replay server; a phase that finds it drives its media
   * clock virtually, frame by frame (src/phases/engine/media-clock.ts). A scope wrapping another passes it on.
   */
  readonly clock?: ReplaySync
  /**
   * Recording only: the real-time media clock's synchronisation before each frame (request-end-turns.ts), so that
   * what the end of an HTTP request sets going lands between the same frames as in the replay.
   */
  readonly recording?: RecordingSync
  /**
   * Caller replay only (src/cassettes/caller/replayed-caller.ts): at the call's media time `nowMs`, whether the
   * recorded caller is done (silenced at a departure, or played out), so it will say nothing more and a live call
   * may end once the assistant is done; null while the recording still has something for it to say.
   */
  readonly recordedCallerDone?: (nowMs: number) => ReplayedCallerSignal | null
}

const scopes = new AsyncLocalStorage<CassetteScope>()

export function runInCassetteScope<T>(scope: CassetteScope, run: () => Promise<T>): Promise<T> {
  return scopes.run(scope, () => sessionTaps.run(scope.tap, run))
}

/** The replay clock of the scope this code runs in; null outside a replay (the clock is then the phase's own). */
export function replayClock(): ReplaySync | null {
  return scopes.getStore()?.clock ?? null
}

/** The recording synchronisation of the scope this code runs in; null outside a recording. */
export function recordingSync(): RecordingSync | null {
  return scopes.getStore()?.recording ?? null
}

/** Asks whether the replayed caller of the scope this code runs in is done; null outside a caller replay. */
export function recordedCallerProbe(): ((nowMs: number) => ReplayedCallerSignal | null) | null {
  return scopes.getStore()?.recordedCallerDone ?? null
}

/**
 * The `fetch` option of every openai client live-evals builds. Outside a cassette scope it is the global fetch,
 * looked up at call time (as the SDK's default would be); inside one, the scope records or redirects the request.
 */
export function cassetteFetch(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  const scope = scopes.getStore()
  return scope === undefined ? fetch(input, init) : scope.fetch(input, init)
}
