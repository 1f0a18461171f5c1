// One recording's acoustic condition: builds the effects a condition and its overrides call for, runs them in
// order on each chunk, and keeps the observations and the caller's own speech intervals for the metadata.
//
// Chain order, the way sound reaches a phone gateway: the caller's clean voice, plus their own coughs and
// asides, plus the room (background conversation, noise), then the room's echo, then the phone line
// (telephony), then the network (packet loss, whole effect frames of `frameMs`).
// Caller speech is measured on the clean input, before anything is mixed in, with the energy detector
// (RMS 220, ../speech-activity.ts), which is exact on a clean signal; background speech and non-directed speech
// are added afterwards and so are never caller speech. The intervals are moved by the chain's latency so they
// describe the processed recording.

import { SAMPLE_RATE_HZ, samplesForMs } from '../pcm.ts'
import { SpeechActivityDetector, type SpeechInterval } from '../speech-activity.ts'
import { type BackgroundBed, BUNDLED_BACKGROUND_NAME, loadBackgroundBed } from './background-source.ts'
import { BackgroundSpeech } from './background-speech.ts'
import { Echo } from './echo.ts'
import type { AudioEffect } from './effect.ts'
import { AudioRealismError } from './errors.ts'
import { type AudioRealismMetadata, effectsBlock } from './metadata.ts'
import { PacketLoss } from './packet-loss.ts'
import {
  type Condition,
  type EffectSettings,
  parseCondition,
  parseOverrides,
  resolveEffects,
} from './presets.ts'
import { effectSeed } from './random.ts'
import { RoomMix, roomMixApplies } from './room-mix.ts'
import { coughSound, nonDirectedSpeechSound, PeriodicSound } from './speech-events.ts'
import { TELEPHONY_LATENCY_MS, Telephony } from './telephony.ts'
import { WhiteNoise } from './white-noise.ts'

/** Salts that give each seeded effect its own stream; packet loss uses §5's `seed ^ 0xA0D10`. */
const NOISE_SALT = 0x401_5e
const PACKET_LOSS_SALT = 0xa0d10
const MAX_SEED = 0xffff_ffff
/**
 * The reference's effect frame: it conditions recordings in 200 ms frames (walk-generate-audio's --frame-ms) and
 * a simulated call in ticks (tick_ms, 200 by default), and packet loss drops whole frames.
 */
export const DEFAULT_EFFECT_FRAME_MS = 200

export interface RealismOptions {
  /** One of CONDITIONS; anything else is refused with the list of valid names. */
  condition: string
  /** Integer 0..4294967295: the same seed gives the same bytes. */
  seed: number
  /** §5 overrides (snake_case keys), each within its bounds; each one switches its effect on. */
  overrides?: unknown
  /** Where a relative `background_speech` path resolves from (default: the working directory). */
  baseDirectory?: string
  /**
   * The effect frame in ms (a whole number of ms, 1 or more; default 200): the unit packet loss drops, so a burst of 2 silences
   * 2 × frameMs. A simulated call passes its tick (§5: frames are tick-sized offline).
   */
  frameMs?: number
}

export interface RealismSummary {
  metadata: AudioRealismMetadata
  /** The caller's speech in the processed recording, measured on the clean input (ms from its start). */
  callerSpeechIntervals: SpeechInterval[]
  /** Fixed delay the chain adds (the telephone line's resamplers); 0 without telephony. */
  latencyMs: number
}

export interface RealismResult extends RealismSummary {
  samples: Int16Array
}

export class RealismProcessor {
  readonly condition: Condition
  readonly seed: number
  readonly settings: EffectSettings
  /** The effect frame (RealismOptions.frameMs). */
  readonly frameMs: number
  /** Fixed delay between a sample going in and coming out. */
  readonly latencyMs: number
  readonly #effects: AudioEffect[]
  readonly #packetLoss: PacketLoss | null
  readonly #coughs: PeriodicSound | null
  readonly #asides: PeriodicSound | null
  readonly #background: BackgroundBed | null
  readonly #backgroundName: string | null
  readonly #callerSpeech: SpeechActivityDetector
  #position = 0
  #ticks = 0
  #closed = false

  private constructor(parts: {
    condition: Condition
    seed: number
    settings: EffectSettings
    frameMs: number
    effects: AudioEffect[]
    packetLoss: PacketLoss | null
    coughs: PeriodicSound | null
    asides: PeriodicSound | null
    background: BackgroundBed | null
    backgroundName: string | null
  }) {
    this.condition = parts.condition
    this.seed = parts.seed
    this.settings = parts.settings
    this.frameMs = parts.frameMs
    this.#effects = parts.effects
    this.#packetLoss = parts.packetLoss
    this.#coughs = parts.coughs
    this.#asides = parts.asides
    this.#background = parts.background
    this.#backgroundName = parts.backgroundName
    this.latencyMs = parts.settings.telephony ? TELEPHONY_LATENCY_MS : 0
    this.#callerSpeech = new SpeechActivityDetector({ originMs: this.latencyMs })
  }

  /** Validate the options, load the background bed if one is needed and build the effects. */
  static async create(options: RealismOptions): Promise<RealismProcessor> {
    const condition = parseCondition(options.condition)
    const seed = options.seed
    if (!Number.isInteger(seed) || seed < 0 || seed > MAX_SEED) {
      throw new AudioRealismError('seed', `The seed must be an integer from 0 to ${MAX_SEED}; got ${seed}.`)
    }
    const frameMs = options.frameMs ?? DEFAULT_EFFECT_FRAME_MS
    if (!Number.isInteger(frameMs) || frameMs < 1) {
      throw new AudioRealismError(
        'frame_ms',
        `The effect frame must be a whole number of ms, 1 or more; got ${frameMs}.`,
      )
    }
    const settings = resolveEffects(condition, parseOverrides(options.overrides))
    const effects: AudioEffect[] = []
    const coughs =
      settings.coughEveryMs === null ? null : new PeriodicSound(coughSound(), settings.coughEveryMs)
    const asides =
      settings.nonDirectedEveryMs === null
        ? null
        : new PeriodicSound(nonDirectedSpeechSound(), settings.nonDirectedEveryMs)
    if (coughs) effects.push(coughs)
    if (asides) effects.push(asides)
    let background: BackgroundBed | null = null
    if (settings.backgroundGain !== null) {
      background = await loadBackgroundBed(settings.backgroundSpeech, options.baseDirectory ?? process.cwd())
    }
    const room =
      background !== null &&
      settings.backgroundGain !== null &&
      settings.noiseRms !== null &&
      settings.echoDelayMs !== null &&
      settings.echoDecay !== null
        ? {
            bed: background.samples,
            backgroundGain: settings.backgroundGain,
            noiseRms: settings.noiseRms,
            noiseSeed: effectSeed(seed, NOISE_SALT),
            echoDelaySamples: samplesForMs(settings.echoDelayMs),
            echoDecay: settings.echoDecay,
          }
        : null
    if (room !== null && roomMixApplies(room)) {
      // The same three effects in one pass (room-mix.ts), same bytes.
      effects.push(new RoomMix(room))
    } else {
      if (background !== null && settings.backgroundGain !== null) {
        effects.push(new BackgroundSpeech(background.samples, settings.backgroundGain))
      }
      if (settings.noiseRms !== null)
        effects.push(new WhiteNoise(settings.noiseRms, effectSeed(seed, NOISE_SALT)))
      if (settings.echoDelayMs !== null && settings.echoDecay !== null) {
        effects.push(new Echo(samplesForMs(settings.echoDelayMs), settings.echoDecay))
      }
    }
    if (settings.telephony) effects.push(await Telephony.create(SAMPLE_RATE_HZ))
    const packetLoss =
      settings.packetLossRate > 0
        ? new PacketLoss(
            settings.packetLossRate,
            settings.packetLossBurst,
            effectSeed(seed, PACKET_LOSS_SALT),
            samplesForMs(frameMs),
          )
        : null
    if (packetLoss) effects.push(packetLoss)
    const backgroundName = background === null ? null : (settings.backgroundSpeech ?? BUNDLED_BACKGROUND_NAME)
    return new RealismProcessor({
      condition,
      seed,
      settings,
      frameMs,
      effects,
      packetLoss,
      coughs,
      asides,
      background,
      backgroundName,
    })
  }

  /** Process the next chunk of the stream (any length; one tick of a call); returns the processed copy. */
  process(chunk: Int16Array): Int16Array {
    return this.processInto(chunk, new Int16Array(chunk.length))
  }

  /**
   * Process the next chunk into `out` (as long as the chunk; it may be the chunk itself) and return `out`: a whole
   * recording is processed into its output array, chunk by chunk, without a copy per chunk.
   */
  processInto(chunk: Int16Array, out: Int16Array): Int16Array {
    if (this.#closed) throw new Error('RealismProcessor: process() after finish() or close()')
    if (out.length !== chunk.length) {
      throw new RangeError(`RealismProcessor: an output of ${out.length} samples for ${chunk.length}`)
    }
    if (chunk.length === 0) return out
    this.#callerSpeech.push(chunk)
    if (out !== chunk) out.set(chunk)
    for (const effect of this.#effects) effect.process(out, this.#position)
    this.#position += chunk.length
    this.#ticks++
    return out
  }

  /** Indices of the effect frames (frameMs each) packet loss has silenced so far. */
  get lostFrames(): readonly number[] {
    return this.#packetLoss?.lostFrames ?? []
  }

  /** The §5 metadata block for what has been processed so far (a snapshot; finish() gives the final one). */
  metadata(): AudioRealismMetadata {
    return {
      preset: this.condition,
      condition: this.condition,
      seed: this.seed,
      sample_rate: SAMPLE_RATE_HZ,
      effects: effectsBlock(this.settings, this.#backgroundName),
      background_provenance: this.#background?.provenance ?? null,
      observations: {
        processed_ticks: this.#ticks,
        processed_frames: Math.ceil(this.#position / samplesForMs(this.frameMs)),
        lost_ticks: this.#packetLoss?.lostTicks ?? 0,
        lost_frames: this.#packetLoss?.lostFrames.length ?? 0,
        vocal_tic_events: this.#coughs?.events ?? 0,
        non_directed_events: this.#asides?.events ?? 0,
      },
    }
  }

  /** End of stream: the final metadata and the caller's speech intervals; releases the resamplers. Call once. */
  finish(): RealismSummary {
    if (this.#closed) throw new Error('RealismProcessor: finish() after finish() or close()')
    const summary = {
      metadata: this.metadata(),
      callerSpeechIntervals: [...this.#callerSpeech.finish()],
      latencyMs: this.latencyMs,
    }
    this.close()
    return summary
  }

  /** Release the resamplers without a summary (after a failure); safe to call more than once. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    for (const effect of this.#effects) effect.close?.()
  }
}

/**
 * Apply a condition to a whole recording, cut into `chunkMs` chunks (default: the effect frame, so ticks and
 * frames count alike, as in the reference). The bytes are the same for every chunk size.
 */
export async function applyRealism(
  samples: Int16Array,
  options: RealismOptions & { chunkMs?: number },
): Promise<RealismResult> {
  const processor = await RealismProcessor.create(options)
  try {
    const chunk = Math.max(1, samplesForMs(options.chunkMs ?? processor.frameMs))
    const out = new Int16Array(samples.length)
    for (let start = 0; start < samples.length; start += chunk) {
      const end = Math.min(samples.length, start + chunk)
      processor.processInto(samples.subarray(start, end), out.subarray(start, end))
    }
    return { samples: out, ...processor.finish() }
  } finally {
    processor.close()
  }
}
