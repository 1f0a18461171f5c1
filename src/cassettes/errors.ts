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
