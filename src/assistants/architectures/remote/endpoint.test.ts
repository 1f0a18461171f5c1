// Endpoint validation (contract §2, §10 "Connector refuses …"): decided on the text alone, before any socket.
import { describe, expect, it } from 'vitest'
import {
  ClientAssistantEndpointError,
  dialableEndpoint,
  ENDPOINT_MESSAGE,
  isLoopbackHost,
  isOptedIn,
} from './endpoint.ts'

const optIn = { allowInsecureLoopback: true }
const noOptIn = { allowInsecureLoopback: false }

function refusal(endpoint: string, options = optIn): Error {
  try {
    dialableEndpoint(endpoint, options)
  } catch (error) {
    return error as Error
  }
  throw new Error(`${endpoint} was accepted`)
}

describe('dialableEndpoint', () => {
  it.each([
    'ws://example.com/ws/assistant',
    'http://example.com/ws/assistant',
    'wss://user:hunter2@example.com/ws/assistant',
    'wss://user@example.com/ws/assistant',
    'wss://@example.com/ws/assistant',
    'wss://example.com/ws/assistant?token=hunter2',
    'wss://example.com/ws/assistant?',
    'wss://example.com/ws/assistant#hunter2',
    'wss://example.com/ws/assistant#',
    'file:///etc/passwd',
    'ftp://example.com/ws',
    'ws://localhost.example.com/ws/assistant',
    'ws://127.0.0.1.example.com/ws/assistant',
    'wss://example.com:0/ws/assistant',
    'wss://exa mple.com/ws',
    'wss://example.com/ws\n',
    'wss://example.com/w\ts',
    'wss://example.com/\u0000',
    'wss:///ws/assistant',
    'not a url',
  ])('refuses %j even with the opt-in, without echoing it', (endpoint) => {
    const error = refusal(endpoint)
    expect(error).toBeInstanceOf(ClientAssistantEndpointError)
    expect(error.message).toBe(ENDPOINT_MESSAGE)
    expect(error.message).not.toContain('hunter2')
    expect(error.message).not.toContain('example')
  })

  it.each([
    'ws://localhost:8795/ws/assistant',
    'ws://127.0.0.1:8795/ws/assistant',
    'ws://[::1]:8795/ws/assistant',
    'http://localhost:8795/ws/assistant',
  ])('%s needs the opt-in', (endpoint) => {
    expect(refusal(endpoint, noOptIn).message).toBe(ENDPOINT_MESSAGE)
    expect(dialableEndpoint(endpoint, optIn).protocol).toBe('ws:')
  })

  it('wss:// and https:// need nothing, and https dials wss', () => {
    expect(dialableEndpoint('wss://example.com/ws/assistant', noOptIn).href).toBe(
      'wss://example.com/ws/assistant',
    )
    expect(dialableEndpoint('https://example.com:8443/ws/assistant', noOptIn).href).toBe(
      'wss://example.com:8443/ws/assistant',
    )
  })

  it('http to loopback dials ws', () => {
    expect(dialableEndpoint('http://127.0.0.1:9/ws/assistant', optIn).href).toBe(
      'ws://127.0.0.1:9/ws/assistant',
    )
  })
})

describe('isLoopbackHost', () => {
  it.each(['localhost', 'LOCALHOST', '127.0.0.1', '127.8.9.10', '[::1]', '::1', '[0:0:0:0:0:0:0:1]'])(
    '%s is loopback',
    (host) => {
      expect(isLoopbackHost(host)).toBe(true)
    },
  )
  it.each([
    'localhost.example.com',
    '127.0.0.1.example.com',
    '10.0.0.1',
    '0.0.0.0',
    '[::]',
    'example.com',
    '128.0.0.1',
  ])('%s is not', (host) => {
    expect(isLoopbackHost(host)).toBe(false)
  })
})

describe('the insecure-loopback opt-in', () => {
  it.each(['1', 'true', 'yes', ' TRUE ', 'Yes'])('%j opts in', (value) => {
    expect(isOptedIn(value)).toBe(true)
  })
  it.each(['', '0', 'false', 'no', 'on', 'y', undefined, null])('%j does not', (value) => {
    expect(isOptedIn(value)).toBe(false)
  })
})
