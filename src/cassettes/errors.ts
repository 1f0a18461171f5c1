// The cassette errors: one root naming the cassette, and a subclass per kind. Each message says which cassette
// (its id or folder), what is wrong and what to do.
export class CassetteError extends Error {
  readonly cassette: string

  constructor(cassette: string, message: string, options?: ErrorOptions) {
    super(message, options)
    this.name = 'CassetteError'
    this.cassette = cassette
  }
}

/** A recording grew past the size cap; nothing was written. */
export class CassetteTooLargeError extends CassetteError {
  constructor(cassette: string, limitBytes: number) {
    super(
      cassette,
      `Cassette ${cassette} would exceed ${Math.round(limitBytes / 1024 / 1024)} MiB (frames, HTTP bodies and ` +
        'audio together); it was not written. Shorten the scenario (simulation.max_duration_seconds) or record fewer trials.',
    )
    this.name = 'CassetteTooLargeError'
  }
}

/**
 * A cassette that is missing (no cassette.json), unreadable (there, but reading it failed: permissions, a folder),
 * invalid (not JSON, off the schema, an audio file absent or short), of another format version, or recorded for
 * another scenario or model.
 */
export class CassetteRefusedError extends CassetteError {
  readonly reason: 'missing' | 'unreadable' | 'invalid' | 'version' | 'scenario' | 'model'

  constructor(cassette: string, reason: CassetteRefusedError['reason'], message: string) {
    super(cassette, message)
    this.name = 'CassetteRefusedError'
    this.reason = reason
  }
}

/**
 * Replay found no recorded caller speech for the text a scenario says now: the text changed since the recording,
 * or the scenario was never recorded. `folder` is the cassettes' speech folder. Replay never synthesises, so no
 * key or address could help; recording again does.
 */
export class CallerSpeechNotRecordedError extends CassetteError {
  readonly text: string
  /** The fact and what to do, as a divergence phrases it ("the recording holds no speech for …"). */
  readonly detail: string

  constructor(folder: string, text: string) {
    const detail =
      `the recording holds no caller speech for this input.text (${JSON.stringify(clipped(text))}) in ${folder}: ` +
      'the scenario’s text, the speech model or the voice changed since it was recorded (the speech is kept by ' +
      'all three), the speech folder was not kept with the cassettes, or it was never recorded; record it again ' +
      '(LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1), or restore what changed.'
    super(folder, `Replay: ${detail}`)
    this.name = 'CallerSpeechNotRecordedError'
    this.text = text
    this.detail = detail
  }
}

/** A caller text as a message quotes it: its first 60 characters. */
function clipped(text: string): string {
  return text.length > 60 ? `${text.slice(0, 60)}…` : text
}
