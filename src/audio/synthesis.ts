// Live caller text-to-speech through the OpenAI speech endpoint, behind a content-addressed file cache.
// The cache key covers everything that shapes the audio (text, model, voice, instructions and our
// format version), so a cached file can only ever be the answer to the same request. Entries are
// written atomically (temp file + rename) so an interrupted run or a parallel worker never leaves a
// half-written entry under the final name; files are 0600 and the directory 0700 because the text may
// be sensitive scenario content.

import { createHash } from 'node:crypto'
import { chmod, mkdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type OpenAI from 'openai'
import { writeFileAtomically } from '../artifacts/atomic-file.ts'
import { BYTES_PER_SAMPLE, pcm16FromBytes } from './pcm.ts'

/**
 * Version of what a cache entry holds: raw PCM16 LE mono 24 kHz from `response_format: "pcm"`. Bump it
 * whenever that meaning changes so old entries stop matching.
 */
export const SPEECH_CACHE_FORMAT = 'pcm16le-mono-24000hz-v1'

export interface SpeechRequest {
  text: string
  model: string
  voice: string
  /** Speaking-style instructions (not supported by tts-1 models); omitted from the request when absent. */
  instructions?: string
}

export interface SynthesizedSpeech {
  samples: Int16Array
  /** True when the audio came from the cache and no request was made. */
  cached: boolean
  /** sha256 cache key (hex). */
  key: string
  /** Cache file holding the audio. */
  path: string
}

export interface SpeechSynthesizerOptions {
  client: OpenAI
  /** Cache directory; created (0700) if missing. */
  cacheDir: string
  /**
   * Ignore entries that existed before this synthesizer was created and synthesise again. Audio this
   * synthesizer produced itself is still reused, so a refresh run pays once per distinct request.
   */
  refresh?: boolean
  /**
   * What the cache key names as the endpoint, instead of the client's base URL. Cassettes keep their speech under
   * a label of their own, so a replay finds what a recording made whichever server it was made against, and no
   * other cache can ever answer with it.
   */
  keyEndpoint?: string
}

/** Failure of the `audio_synthesis` stage; the message says which request and what to do. */
export class SpeechSynthesisError extends Error {
  readonly stage = 'audio_synthesis'

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'SpeechSynthesisError'
  }
}

/** The speech endpoint whose audio the cache held before endpoints were part of the key. */
const OPENAI_API = 'https://api.openai.com/v1'

/**
 * Cache key: sha256 over an unambiguous JSON encoding of the format version, the request and, for any endpoint
 * but the OpenAI API, that endpoint: audio from a local stand-in (the dress-rehearsal server's synthetic voice)
 * must never be streamed to the real service by a later live run sharing the cache. The OpenAI API's entries keep
 * the key they always had.
 */
export function speechCacheKey(request: SpeechRequest, endpoint: string = OPENAI_API): string {
  const base = endpoint.replace(/\/+$/, '')
  const material = JSON.stringify([
    SPEECH_CACHE_FORMAT,
    request.text,
    request.model,
    request.voice,
    request.instructions ?? null,
    ...(base === OPENAI_API ? [] : [base]),
  ])
  return createHash('sha256').update(material, 'utf8').digest('hex')
}

export class SpeechSynthesizer {
  readonly #client: OpenAI
  readonly #cacheDir: string
  readonly #refresh: boolean
  /** Keys written by this instance: trusted even in refresh mode. */
  readonly #fresh = new Set<string>()
  /** Requests in flight, so concurrent scenarios asking for the same audio share one API call. */
  readonly #inFlight = new Map<string, Promise<SynthesizedSpeech>>()
  #directoryReady: Promise<void> | null = null
  readonly #keyEndpoint: string | null

  constructor(options: SpeechSynthesizerOptions) {
    this.#client = options.client
    this.#cacheDir = options.cacheDir
    this.#refresh = options.refresh ?? false
    this.#keyEndpoint = options.keyEndpoint ?? null
  }

  synthesize(request: SpeechRequest, options: { signal?: AbortSignal } = {}): Promise<SynthesizedSpeech> {
    if (request.text.trim() === '') {
      return Promise.reject(
        new SpeechSynthesisError('Cannot synthesise caller speech: the input text is empty.'),
      )
    }
    const key = speechCacheKey(request, this.#keyEndpoint ?? this.#client.baseURL)
    const pending = this.#inFlight.get(key)
    if (pending !== undefined) return pending
    const work = this.#load(key, request, options.signal).finally(() => this.#inFlight.delete(key))
    this.#inFlight.set(key, work)
    return work
  }

  async #load(
    key: string,
    request: SpeechRequest,
    signal: AbortSignal | undefined,
  ): Promise<SynthesizedSpeech> {
    await this.#ensureDirectory()
    const path = join(this.#cacheDir, `${key}.pcm`)
    if (!this.#refresh || this.#fresh.has(key)) {
      const cached = await readCacheEntry(path)
      if (cached !== null) return { samples: cached, cached: true, key, path }
    }
    const bytes = await this.#request(request, signal)
    await writeAtomically(path, bytes)
    this.#fresh.add(key)
    return { samples: pcm16FromBytes(bytes), cached: false, key, path }
  }

  async #request(request: SpeechRequest, signal: AbortSignal | undefined): Promise<Uint8Array> {
    const what = `model "${request.model}", voice "${request.voice}"`
    let bytes: Uint8Array
    try {
      const response = await this.#client.audio.speech.create(
        {
          model: request.model,
          voice: request.voice,
          input: request.text,
          ...(request.instructions === undefined ? {} : { instructions: request.instructions }),
          response_format: 'pcm',
        },
        signal === undefined ? {} : { signal },
      )
      bytes = new Uint8Array(await response.arrayBuffer())
    } catch (error) {
      // The SDK's messages end with a period of their own ("401 Incorrect API key provided.").
      const reason = (error instanceof Error ? error.message : String(error)).replace(/[\s.]+$/, '')
      throw new SpeechSynthesisError(
        `Text-to-speech request to ${this.#speechURL()} failed (${what}): ${reason}. Check OPENAI_API_KEY, ` +
          'OPENAI_BASE_URL (the address) and the speech model/voice settings, or run offline (LIVE_EVALS_MODE=offline).',
        { cause: error },
      )
    }
    if (bytes.byteLength === 0) {
      throw new SpeechSynthesisError(
        `Text-to-speech returned no audio (${what}) for input ${JSON.stringify(request.text)}.`,
      )
    }
    if (bytes.byteLength % BYTES_PER_SAMPLE !== 0) {
      throw new SpeechSynthesisError(
        `Text-to-speech returned ${bytes.byteLength} bytes (${what}): an odd count cannot be PCM16, so the ` +
          'response is truncated or not raw "pcm" audio.',
      )
    }
    return bytes
  }

  /** The URL the SDK posts speech requests to (its base URL: OPENAI_BASE_URL, else the OpenAI API). */
  #speechURL(): string {
    return `${this.#client.baseURL.replace(/\/+$/, '')}/audio/speech`
  }

  #ensureDirectory(): Promise<void> {
    this.#directoryReady ??= (async () => {
      try {
        const created = await mkdir(this.#cacheDir, { recursive: true, mode: 0o700 })
        // Only a directory we created is tightened; an existing one keeps the permissions its owner chose.
        if (created !== undefined) await chmod(this.#cacheDir, 0o700)
      } catch (error) {
        this.#directoryReady = null
        throw new SpeechSynthesisError(
          `Cannot create the speech cache directory ${this.#cacheDir}: ${(error as Error).message}`,
          { cause: error },
        )
      }
    })()
    return this.#directoryReady
  }
}

/**
 * A cache entry, or null when absent or unusable. An empty or odd-sized file can only come from outside
 * interference (our writes are atomic); it is treated as a miss and replaced rather than trusted.
 */
async function readCacheEntry(path: string): Promise<Int16Array | null> {
  let bytes: Uint8Array
  try {
    bytes = await readFile(path)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new SpeechSynthesisError(`Cannot read speech cache entry ${path}: ${(error as Error).message}`, {
      cause: error,
    })
  }
  if (bytes.byteLength === 0 || bytes.byteLength % BYTES_PER_SAMPLE !== 0) return null
  return pcm16FromBytes(bytes)
}

async function writeAtomically(path: string, bytes: Uint8Array): Promise<void> {
  try {
    await writeFileAtomically(path, bytes)
  } catch (error) {
    throw new SpeechSynthesisError(`Cannot write speech cache entry ${path}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}
