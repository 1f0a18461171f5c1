// Browser origins a service lets in (contract §2). A browser page could otherwise open a socket to a
// developer's loopback service with a token it learned; non-browser clients send no Origin and are allowed.
// Entries are exact origins: a path (even "/"), query, fragment or credentials is a configuration error, and
// `null` (sandboxed frames, file pages) is never an origin anyone can allow.

export const ORIGIN_ENTRY_MESSAGE =
  'Allowed Origins must be exact HTTP(S) origins without paths or credentials'

export class AllowedOriginError extends Error {
  override name = 'AllowedOriginError'
}

/** scheme://host[:port] and nothing after it; the URL parser then checks the host itself. */
const ORIGIN_SHAPE = /^https?:\/\/[^/?#@\s\\]+$/i

/** The origin as browsers serialize it (lower-case host, default port dropped); throws for anything else. */
export function parseAllowedOrigin(entry: string): string {
  if (entry === 'null' || !ORIGIN_SHAPE.test(entry)) throw new AllowedOriginError(ORIGIN_ENTRY_MESSAGE)
  let url: URL
  try {
    url = new URL(entry)
  } catch {
    throw new AllowedOriginError(ORIGIN_ENTRY_MESSAGE)
  }
  if (url.hostname === '' || url.username !== '' || url.password !== '') {
    throw new AllowedOriginError(ORIGIN_ENTRY_MESSAGE)
  }
  return url.origin
}

export function parseAllowedOrigins(entries: readonly string[]): ReadonlySet<string> {
  return new Set(entries.map(parseAllowedOrigin))
}
