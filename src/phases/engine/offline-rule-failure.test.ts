// The shared failure classification finds an offline rule that threw wherever the phase's error wrapped it: the
// rule's own error under a delegation failure and a stage error, or the offline server's error event in the
// session failure a media clock send ran into. Anything else keeps its stage.
import { describe, expect, it } from 'vitest'
import { OFFLINE_RULE_ERROR_CODE, OfflineRuleError } from '../../assistants/offline-rule-error.ts'
import { LiveSessionError } from '../../live/errors.ts'
import type { LiveSession } from '../../live/index.ts'
import { type ClockedStream, MediaClock, MediaClockSendError } from './media-clock.ts'
import { StageError, stageFailureOf } from './stage.ts'

const RULE_MESSAGE = 'assistant "todo-line", offline.rules[0] (when /add/): answer(output) threw TypeError: …'

/** The session failure of the offline server's close after it sent `error` (what LiveSession keeps). */
function closedAfter(code: string, message: string): LiveSessionError {
  return new LiveSessionError(`connection closed (code 1011) before session.closed after ${message}`, {
    stage: 'stream',
    kind: 'unexpected_eof',
    closeCode: 1011,
    serverError: { type: 'server_error', code, message },
  })
}

/** A stream whose session already failed with `error`: the clock's next send finds it closed. */
function failedStream(error: LiveSessionError): ClockedStream {
  const session = {
    appendAudio: () => false,
    settled: { type: 'failed', synthetic: false, error, atMs: 0 },
  } as unknown as Pick<LiveSession, 'appendAudio' | 'send' | 'reply' | 'log' | 'settled'>
  return { label: 'assistant', session, next: (samples) => new Int16Array(samples) }
}

describe('stageFailureOf: an offline rule that threw', () => {
  it('is found under the wrappers a phase put around it, whatever stage was running', () => {
    const rule = new OfflineRuleError(RULE_MESSAGE)
    const delegation = new Error('Client delegation failed (OfflineRuleError)', { cause: rule })
    const collecting = new StageError('response_collection', 'Collecting the response failed', {
      cause: delegation,
    })
    expect(stageFailureOf(collecting, 'example_execution')).toEqual({
      stage: 'offline_rule',
      message: RULE_MESSAGE,
    })
  })

  it('is the cause of a send the media clock made to a session the offline server closed over it', async () => {
    const clock = new MediaClock({ mode: 'virtual', stepMs: 200 })
    const sending = clock.step([failedStream(closedAfter(OFFLINE_RULE_ERROR_CODE, RULE_MESSAGE))])
    await expect(sending).rejects.toBeInstanceOf(MediaClockSendError)
    const error = await sending.catch((thrown: unknown) => thrown)
    expect(stageFailureOf(error, 'response_collection')).toEqual({
      stage: 'offline_rule',
      message: RULE_MESSAGE,
    })
  })

  it('leaves any other failure at its own stage', async () => {
    const clock = new MediaClock({ mode: 'virtual', stepMs: 200 })
    const other = closedAfter('offline_server_error', 'The offline server failed')
    const error = await clock.step([failedStream(other)]).catch((thrown: unknown) => thrown)
    expect(stageFailureOf(error, 'connection')).toEqual({
      stage: 'response_collection',
      message: 'The assistant session ended while the media clock was sending audio.',
    })
    expect(stageFailureOf(other, 'connection')).toEqual({ stage: 'connection', message: other.message })
  })
})
