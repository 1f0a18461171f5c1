// The visible prior conversation as GPT-Live startup `input` items: text only, one part each, user turns as
// `input_text` and assistant turns as `output_text`. The service accepts at most 128 messages and 8,192
// rendered tokens; we check both before connecting, so an oversized history fails as a clear plan error for
// that scenario instead of a startup error from the service.
import type { InitialItem } from 'openai/resources/live/live'
import type { HistoryMessage } from '../../scenarios/scenario.ts'

export const MAX_HISTORY_MESSAGES = 128
export const MAX_HISTORY_RENDERED_TOKENS = 8_192

/**
 * The service's tokenizer is not published, so we over-estimate on purpose: one token per 3 UTF-8 bytes
 * (English text averages about 4 characters per token) plus 4 tokens per message for the role framing a
 * chat template adds. Over-estimating can only refuse a history the service would have taken, never send
 * one it refuses.
 */
export const BYTES_PER_TOKEN_ESTIMATE = 3
export const MESSAGE_FRAMING_TOKENS = 4

export function estimateRenderedTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text, 'utf8') / BYTES_PER_TOKEN_ESTIMATE)
}

export function historyInputItems(scenarioId: string, history: readonly HistoryMessage[]): InitialItem[] {
  if (history.length > MAX_HISTORY_MESSAGES) {
    throw new Error(
      `Scenario ${scenarioId}: input.context.history has ${history.length} messages; GPT-Live accepts at most ` +
        `${MAX_HISTORY_MESSAGES}. Shorten the history or move the older part into input.context.summary.`,
    )
  }
  const tokens = history.reduce(
    (sum, message) => sum + estimateRenderedTokens(message.text) + MESSAGE_FRAMING_TOKENS,
    0,
  )
  if (tokens > MAX_HISTORY_RENDERED_TOKENS) {
    throw new Error(
      `Scenario ${scenarioId}: input.context.history renders to about ${tokens} tokens (estimated at ` +
        `${BYTES_PER_TOKEN_ESTIMATE} UTF-8 bytes per token plus ${MESSAGE_FRAMING_TOKENS} per message); GPT-Live ` +
        `accepts at most ${MAX_HISTORY_RENDERED_TOKENS}. Shorten the history or summarize it in input.context.summary.`,
    )
  }
  return history.map(
    (message): InitialItem =>
      message.role === 'user'
        ? { type: 'message', role: 'user', content: [{ type: 'input_text', text: message.text }] }
        : { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: message.text }] },
  )
}
