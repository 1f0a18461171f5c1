// The architecture choice (src/phases/engine/architecture-choice.ts): client mode with an endpoint is the
// remote connector, whatever the execution mode; without one it stays in process; responses never changes.
import { describe, expect, it } from 'vitest'
import { architectureFor } from '../../../phases/engine/architecture-choice.ts'
import { loadSuiteSettings } from '../../../vitest/settings.ts'
import { usesRemoteClientAssistant } from './endpoint.ts'
import { REMOTE_CLIENT_VARIANT, REMOTE_TOOL_EVIDENCE } from './remote-client.ts'

const ENDPOINT = 'ws://127.0.0.1:8795/ws/assistant'
const settingsWith = (env: Record<string, string>) =>
  loadSuiteSettings('crawl', 'specs/crawl/config.toml', { env: { LIVE_EVALS_MODE: 'offline', ...env } })

describe('architectureFor', () => {
  it('client with OPENAI_CLIENT_ASSISTANT_ENDPOINT is the remote client assistant, marked as such', () => {
    const architecture = architectureFor(
      'client',
      settingsWith({ OPENAI_CLIENT_ASSISTANT_ENDPOINT: ENDPOINT }),
    )
    expect(architecture).toMatchObject({
      name: 'client',
      variant: REMOTE_CLIENT_VARIANT,
      toolEvidence: REMOTE_TOOL_EVIDENCE,
    })
  })

  it('says which runs are remote: an endpoint, blanks aside', () => {
    expect(usesRemoteClientAssistant(settingsWith({ OPENAI_CLIENT_ASSISTANT_ENDPOINT: ENDPOINT }))).toBe(true)
    expect(usesRemoteClientAssistant(settingsWith({}))).toBe(false)
    expect(usesRemoteClientAssistant(settingsWith({ OPENAI_CLIENT_ASSISTANT_ENDPOINT: '  ' }))).toBe(false)
  })

  it('client without an endpoint stays in process, and responses ignores the endpoint', () => {
    expect(architectureFor('client', settingsWith({}))).not.toHaveProperty('variant')
    const responses = architectureFor(
      'responses',
      settingsWith({ OPENAI_CLIENT_ASSISTANT_ENDPOINT: ENDPOINT }),
    )
    expect(responses.name).toBe('responses')
    expect(responses).not.toHaveProperty('variant')
  })

  it('a bad endpoint does not fail the choice, nor fall back to in-process: each scenario refuses it', () => {
    // The refusal itself (before any socket) is pinned by connect.test.ts; here the run must stay remote.
    const architecture = architectureFor(
      'client',
      settingsWith({ OPENAI_CLIENT_ASSISTANT_ENDPOINT: 'ws://example.com/ws' }),
    )
    expect(architecture).toMatchObject({ name: 'client', variant: REMOTE_CLIENT_VARIANT })
  })
  // The opt-in variable itself is exercised end to end by crawl-remote.integration.test.ts: the cancellation
  // scenarios pass there only because the scenario state reaches the service.
})
