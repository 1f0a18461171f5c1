// The offline server serves the GPT-Live models the service does: each model id and its dated snapshots
// (`<id>-YYYY-MM-DD`, a real date), and refuses any other id before the session starts, with the service's
// `model_not_found` error on `session.model` and a closed socket, as it refuses every failed session.start.
import { describe, expect, it } from 'vitest'
import { type Frame, useOfflineLiveServer } from './test-support.ts'

const { connect } = useOfflineLiveServer()

const isError = (clientEventId: string) => (event: Frame) =>
  event.type === 'error' && event.client_event_id === clientEventId

describe('models the offline server accepts', () => {
  it.each(['gpt-live-1', 'gpt-live-1.1', 'gpt-live-1-2026-06-30', 'gpt-live-1.1-2026-11-20'])(
    'starts a session on %s and names it in session.started',
    async (model) => {
      const client = await connect()
      const started = await client.start({ model })
      expect(started.session).toMatchObject({ model, status: 'active' })
    },
  )

  it.each([
    'gpt-live-2',
    'gpt-realtime',
    'gpt-live-1.1-2026-02-30',
    'gpt-live-1.1-20261120',
    'gpt-live-1.2-2026-11-20',
    'GPT-LIVE-1',
  ])('refuses %s as the service does: model_not_found on session.model, no session', async (model) => {
    const client = await connect()
    client.send({ type: 'session.start', event_id: 'start', session: { model } })
    const error = await client.waitFor(isError('start'))
    expect(error.error).toEqual({
      type: 'invalid_request_error',
      code: 'model_not_found',
      message: `The model \`${model}\` does not exist or you do not have access to it.`,
      param: 'session.model',
      client_event_id: 'start',
    })
    expect(await client.waitForClose()).toBe(1008)
    expect(client.events.some((event) => event.type === 'session.started')).toBe(false)
  })
})
