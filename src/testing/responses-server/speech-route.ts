// `POST /v1/audio/speech` for the test server: validates the request like the API (strict fields, known
// formats) and answers `response_format: "pcm"` with deterministic synthetic voiced audio, raw PCM16 LE
// mono 24 kHz, the same format the real endpoint documents for "pcm".

import type { SpeechCreateParams } from 'openai/resources/audio/speech'
import { z } from 'zod'
import { pcm16ToBytes } from '../../audio/pcm.ts'
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { invalidRequest, openAiError, type RouteHandler } from './routes.ts'

// Mirrors the SDK's SpeechCreateParams; `satisfies` below keeps the two from drifting apart.
const SpeechRequest = z.strictObject({
  model: z.string().min(1),
  input: z.string().min(1).max(4096),
  voice: z.union([z.string().min(1), z.strictObject({ id: z.string().min(1) })]),
  instructions: z.string().optional(),
  response_format: z.enum(['mp3', 'opus', 'aac', 'flac', 'wav', 'pcm']).optional(),
  speed: z.number().min(0.25).max(4).optional(),
  stream_format: z.enum(['sse', 'audio']).optional(),
}) satisfies z.ZodType<SpeechCreateParams>

export type SpeechRequest = z.infer<typeof SpeechRequest>

export interface SpeechRouteOptions {
  /** Audio for a request; deterministic synthetic speech of the input text by default. */
  synthesize?: (request: SpeechRequest) => Int16Array
}

export function speechRoute(options: SpeechRouteOptions = {}): RouteHandler {
  const synthesize = options.synthesize ?? ((request: SpeechRequest) => syntheticSpeech(request.input))
  return (request) => {
    const parsed = SpeechRequest.safeParse(request.body)
    if (!parsed.success) return invalidRequest('speech request', parsed.error)
    if (parsed.data.response_format !== 'pcm') {
      // Only raw PCM is synthesised here; other formats would need an encoder the harness never uses.
      return openAiError(400, `The test server only produces response_format "pcm".`, {
        param: 'response_format',
      })
    }
    return {
      status: 200,
      headers: { 'content-type': 'audio/pcm' },
      body: pcm16ToBytes(synthesize(parsed.data)),
    }
  }
}
