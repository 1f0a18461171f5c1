// The shared secret between the evaluator and a client-delegation service (contract §2). Both sides refuse a
// token that is short, long, not printable ASCII, or equal to an OpenAI key: a leaked endpoint token must not be
// an API key, and an API key must not double as the endpoint's password. Comparisons run in constant time.
import { createHash, timingSafeEqual } from 'node:crypto'

export const TOKEN_VARIABLE = 'OPENAI_CLIENT_ASSISTANT_TOKEN'
export const MIN_TOKEN_LENGTH = 32
export const MAX_TOKEN_LENGTH = 512
/** The keys a token must never equal. */
export const OPENAI_KEY_VARIABLES = ['OPENAI_API_KEY', 'OPENAI_RESPONSES_API_KEY'] as const

export const TOKEN_SHAPE_MESSAGE = `${TOKEN_VARIABLE} must contain a separate random token of at least ${MIN_TOKEN_LENGTH} characters`
export const TOKEN_REUSE_MESSAGE = `${TOKEN_VARIABLE} must not reuse an OpenAI API key`

export class AssistantTokenError extends Error {
  override name = 'AssistantTokenError'
}

/** Printable ASCII without space: 33..126. */
const TOKEN_CHARACTERS = /^[\x21-\x7e]+$/

/** Returns the token when it follows the rules; throws AssistantTokenError (never echoing it) otherwise. */
export function checkAssistantToken(
  token: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (
    token === undefined ||
    token.length < MIN_TOKEN_LENGTH ||
    token.length > MAX_TOKEN_LENGTH ||
    !TOKEN_CHARACTERS.test(token)
  ) {
    throw new AssistantTokenError(TOKEN_SHAPE_MESSAGE)
  }
  for (const variable of OPENAI_KEY_VARIABLES) {
    const key = env[variable]
    if (key !== undefined && key !== '' && constantTimeEqual(token, key)) {
      throw new AssistantTokenError(TOKEN_REUSE_MESSAGE)
    }
  }
  return token
}

/**
 * Equality whose time depends on neither content nor length: both sides are hashed to 32 bytes first, so
 * timingSafeEqual always compares equal-length buffers. Strings are compared as their latin1 bytes, which is how
 * Node hands over header values.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (text: string) => createHash('sha256').update(Buffer.from(text, 'latin1')).digest()
  return timingSafeEqual(digest(a), digest(b))
}
