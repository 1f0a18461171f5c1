// Which client-assistant endpoints the connector may dial (contract §2), decided before any socket exists.
// A token travels in the upgrade's Authorization header, so plaintext is allowed only to this machine and only
// when the developer opted in; everything that could smuggle a secret or a second target (userinfo, a query, a
// fragment, control characters) is refused. The message never repeats the URL: it may hold credentials.
import { BlockList, isIP } from 'node:net'
import type { PhaseSettings } from '../../../config/index.ts'

export const INSECURE_LOOPBACK_VARIABLE = 'OPENAI_CLIENT_ASSISTANT_ALLOW_INSECURE_LOOPBACK'
export const ENDPOINT_MESSAGE =
  'Client assistant endpoint requires TLS and must not contain credentials; local plaintext development ' +
  `requires ${INSECURE_LOOPBACK_VARIABLE}=true`

export class ClientAssistantEndpointError extends Error {
  override name = 'ClientAssistantEndpointError'
  constructor() {
    super(ENDPOINT_MESSAGE)
  }
}

/**
 * Whether this run's client architecture is a remote application (OPENAI_CLIENT_ASSISTANT_ENDPOINT set): its
 * tool evidence and state come from that service, so its results are not an architecture-only comparison with
 * in-process client delegation. Run labels, tags and the results configuration should say so from this.
 */
export function usesRemoteClientAssistant(settings: Pick<PhaseSettings, 'assistant'>): boolean {
  return settings.assistant.endpoint.trim() !== ''
}

/** `1`, `true` or `yes`, trimmed and in any case: the only spellings that opt in (§2). */
export function isOptedIn(value: string | undefined | null): boolean {
  return ['1', 'true', 'yes'].includes(value?.trim().toLowerCase() ?? '')
}

/** Schemes a user may write, and the WebSocket scheme each one dials. */
const DIAL_SCHEMES: Record<string, 'ws:' | 'wss:'> = {
  'http:': 'ws:',
  'https:': 'wss:',
  'ws:': 'ws:',
  'wss:': 'wss:',
}

/**
 * Exactly `localhost` or a loopback IP literal (127.0.0.0/8, ::1). Names that merely start like one
 * (`localhost.example.com`, `127.0.0.1.example.com`) resolve elsewhere and are not loopback.
 */
export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname
  if (host.toLowerCase() === 'localhost') return true
  const family = isIP(host)
  if (family === 0) return false
  return LOOPBACK_ADDRESSES.check(host, family === 4 ? 'ipv4' : 'ipv6')
}

/** Every spelling of the loopback addresses (BlockList normalizes IPv6 forms and IPv4-mapped ones). */
const LOOPBACK_ADDRESSES = new BlockList()
LOOPBACK_ADDRESSES.addSubnet('127.0.0.0', 8, 'ipv4')
LOOPBACK_ADDRESSES.addAddress('::1', 'ipv6')

/** A code point below 33 (controls and space), DEL, or any other whitespace. */
function hasUnsafeCharacter(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0
    if (code <= 32 || code === 127 || /\s/u.test(character)) return true
  }
  return false
}

/**
 * The WebSocket URL to dial for `endpoint`, or ClientAssistantEndpointError. Checked on the raw text as well as
 * the parsed URL, because the URL parser silently strips tabs and newlines and drops an empty `?` or `#`.
 */
export function dialableEndpoint(endpoint: string, options: { allowInsecureLoopback: boolean }): URL {
  // The authority must be written out: the parser would read `wss:///x` as host `x` and `http:host` as a host.
  const writtenAuthority = /^[a-z][a-z0-9+.-]*:\/\/[^/\\]/i.test(endpoint)
  if (!writtenAuthority || hasUnsafeCharacter(endpoint) || endpoint.includes('?') || endpoint.includes('#')) {
    throw new ClientAssistantEndpointError()
  }
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new ClientAssistantEndpointError()
  }
  const dialScheme = DIAL_SCHEMES[url.protocol]
  if (
    dialScheme === undefined ||
    url.hostname === '' ||
    url.port === '0' ||
    url.username !== '' ||
    url.password !== '' ||
    endpoint.slice(0, endpoint.indexOf(url.host)).includes('@')
  ) {
    throw new ClientAssistantEndpointError()
  }
  const encrypted = dialScheme === 'wss:'
  if (!encrypted && !(options.allowInsecureLoopback && isLoopbackHost(url.hostname))) {
    throw new ClientAssistantEndpointError()
  }
  const dial = new URL(url.href)
  dial.protocol = dialScheme
  return dial
}
