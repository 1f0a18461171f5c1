import { mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openAiError } from '../testing/responses-server/routes.ts'
import { type ResponsesServer, startResponsesServer } from '../testing/responses-server/server.ts'
import { type SpeechRequest, SpeechSynthesisError, SpeechSynthesizer, speechCacheKey } from './synthesis.ts'
import { syntheticSpeech } from './synthetic-voice.ts'

const SPEECH = '/v1/audio/speech'
const request: SpeechRequest = {
  text: 'Hi, I would like a table for two tonight.',
  model: 'gpt-4o-mini-tts',
  voice: 'marin',
  instructions: 'Speak like a relaxed caller.',
}

let server: ResponsesServer
let client: OpenAI
let root: string
let cacheDir: string

beforeEach(async () => {
  server = await startResponsesServer()
  client = new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 0 })
  root = await mkdtemp(join(tmpdir(), 'live-evals-tts-'))
  cacheDir = join(root, 'cache')
})

afterEach(async () => {
  await server.close()
  await rm(root, { recursive: true, force: true })
})

const speechRequests = () => server.requestsTo('POST', SPEECH)

describe('SpeechSynthesizer', () => {
  it('requests raw PCM with the given model, voice and instructions and returns its samples', async () => {
    const result = await new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    expect(result.cached).toBe(false)
    expect([...result.samples]).toEqual([...syntheticSpeech(request.text)])
    expect(speechRequests().map((r) => r.body)).toEqual([
      {
        model: request.model,
        voice: request.voice,
        input: request.text,
        instructions: request.instructions,
        response_format: 'pcm',
      },
    ])
  })

  it('leaves instructions out of the request when there are none', async () => {
    await new SpeechSynthesizer({ client, cacheDir }).synthesize({
      text: 'Hello',
      model: 'tts-1',
      voice: 'alloy',
    })
    expect(speechRequests()[0]?.body).not.toHaveProperty('instructions')
  })

  it('serves a repeated request from the cache without a second API call, across instances', async () => {
    const first = await new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    const second = await new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    expect(second.cached).toBe(true)
    expect(second.path).toBe(first.path)
    expect([...second.samples]).toEqual([...first.samples])
    expect(speechRequests()).toHaveLength(1)
  })

  it('synthesises again with refresh, then reuses what it produced itself', async () => {
    await new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    const refreshing = new SpeechSynthesizer({ client, cacheDir, refresh: true })
    expect((await refreshing.synthesize(request)).cached).toBe(false)
    expect(speechRequests()).toHaveLength(2)
    expect((await refreshing.synthesize(request)).cached).toBe(true)
    expect(speechRequests()).toHaveLength(2)
  })

  it('changes the key with each of text, model, voice and instructions', async () => {
    const variants: SpeechRequest[] = [
      request,
      { ...request, text: `${request.text}!` },
      { ...request, model: 'tts-1-hd' },
      { ...request, voice: 'cedar' },
      { ...request, instructions: 'Speak quickly.' },
      { text: request.text, model: request.model, voice: request.voice },
    ]
    const keys = variants.map((variant) => speechCacheKey(variant))
    expect(new Set(keys).size).toBe(variants.length)
    const synthesizer = new SpeechSynthesizer({ client, cacheDir })
    for (const variant of variants) expect((await synthesizer.synthesize(variant)).cached).toBe(false)
    expect(speechRequests()).toHaveLength(variants.length)
  })

  it('keys speech from another endpoint apart: a local stand-in never answers for the OpenAI API', async () => {
    expect(speechCacheKey(request)).toBe(speechCacheKey(request, 'https://api.openai.com/v1/'))
    expect(speechCacheKey(request, server.baseURL)).not.toBe(speechCacheKey(request))
    // Audio cached from the test server is not what a synthesizer for another endpoint reads.
    await new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    const elsewhere = new OpenAI({
      apiKey: 'test-key',
      baseURL: `${server.baseURL.replace('/v1', '')}/other/v1`,
      maxRetries: 0,
    })
    await expect(new SpeechSynthesizer({ client: elsewhere, cacheDir }).synthesize(request)).rejects.toThrow(
      SpeechSynthesisError,
    )
  })

  it('keys are unambiguous: moving text between fields changes the key', () => {
    expect(speechCacheKey({ text: 'a', model: 'b', voice: 'c' })).not.toBe(
      speechCacheKey({ text: 'a', model: 'b', voice: 'c', instructions: '' }),
    )
    expect(speechCacheKey({ text: 'a b', model: 'c', voice: 'd' })).not.toBe(
      speechCacheKey({ text: 'a', model: 'b c', voice: 'd' }),
    )
  })

  it('writes cache files 0600 in a 0700 directory, with no temporary files left', async () => {
    const { path } = await new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    expect((await stat(cacheDir)).mode & 0o777).toBe(0o700)
    expect((await stat(path)).mode & 0o777).toBe(0o600)
    expect(await readdir(cacheDir)).toEqual([`${speechCacheKey(request, server.baseURL)}.pcm`])
  })

  it('shares one API call between concurrent requests for the same audio', async () => {
    const synthesizer = new SpeechSynthesizer({ client, cacheDir })
    const results = await Promise.all([synthesizer.synthesize(request), synthesizer.synthesize(request)])
    expect(results[0]).toBe(results[1])
    expect(speechRequests()).toHaveLength(1)
  })

  it('replaces a corrupted cache entry instead of trusting it', async () => {
    await new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    await writeFile(join(cacheDir, `${speechCacheKey(request, server.baseURL)}.pcm`), new Uint8Array(3))
    const again = await new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    expect(again.cached).toBe(false)
    expect(again.samples.length).toBe(syntheticSpeech(request.text).length)
  })

  it('refuses an odd byte count and caches nothing', async () => {
    server.route('POST', SPEECH, () => ({ body: new Uint8Array(5) }))
    const failure = new SpeechSynthesizer({ client, cacheDir }).synthesize(request)
    await expect(failure).rejects.toThrow(SpeechSynthesisError)
    await expect(failure).rejects.toThrow(/returned 5 bytes \(model "gpt-4o-mini-tts", voice "marin"\).*odd/)
    expect(await readdir(cacheDir)).toEqual([])
  })

  it('refuses empty audio', async () => {
    server.route('POST', SPEECH, () => ({ body: new Uint8Array(0) }))
    await expect(new SpeechSynthesizer({ client, cacheDir }).synthesize(request)).rejects.toThrow(
      /returned no audio/,
    )
  })

  it('reports an API error as the audio_synthesis stage with the request and what to do', async () => {
    server.route('POST', SPEECH, () => openAiError(400, 'Voice not available.', { param: 'voice' }))
    const error = await new SpeechSynthesizer({ client, cacheDir })
      .synthesize(request)
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SpeechSynthesisError)
    expect((error as SpeechSynthesisError).stage).toBe('audio_synthesis')
    // The URL it tried, the API's reason without a doubled period, and what to change.
    expect((error as Error).message).toBe(
      `Text-to-speech request to ${server.baseURL}/audio/speech failed (model "gpt-4o-mini-tts", voice "marin"): ` +
        '400 Voice not available. Check OPENAI_API_KEY, OPENAI_BASE_URL (the address) and the speech model/voice ' +
        'settings, or run offline (LIVE_EVALS_MODE=offline).',
    )
  })

  it('refuses empty text without calling the API', async () => {
    await expect(
      new SpeechSynthesizer({ client, cacheDir }).synthesize({ ...request, text: '  ' }),
    ).rejects.toThrow(/input text is empty/)
    expect(server.requests).toHaveLength(0)
  })
})
