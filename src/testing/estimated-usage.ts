// Token estimates for the test servers: Responses usage and the offline GPT-Live server's context limits.
// Nothing tokenizes offline, so both estimate about four characters per token; the numbers only need to be
// plausible, deterministic and shaped like the API's.
import type { ResponseUsage } from 'openai/resources/responses/responses'

const CHARS_PER_TOKEN = 4

export function estimatedTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN)
}

export function estimatedUsage(inputText: string, outputText: string): ResponseUsage {
  return usageForCharacters(inputText.length, outputText.length)
}

/** The same estimate from character counts, for callers that count what they read instead of keeping it. */
export function usageForCharacters(inputChars: number, outputChars: number): ResponseUsage {
  const input = Math.ceil(inputChars / CHARS_PER_TOKEN)
  const output = Math.ceil(outputChars / CHARS_PER_TOKEN)
  return {
    input_tokens: input,
    input_tokens_details: { cached_tokens: 0, cache_write_tokens: 0 },
    output_tokens: output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: input + output,
  }
}
