// The one `session.configure` a connector sends (contract §3.1): the authorized startup history only, rebuilt
// field by field so nothing else can ride along; the scenario's initial application state and conversation
// summary only when the project opted in (a service accepts them only when started with
// `--accept-scenario-state`). Never instructions, tools or a model: the service owns its prompt and backend.
import type { InitialItem } from 'openai/resources/live/live'
import type { AssistantVisibleInput } from '../../../scenarios/visible.ts'
import {
  type HistoryItem,
  MAX_INITIAL_ITEMS,
  type SessionConfigure,
} from '../../client/service/protocol/index.ts'

export interface ConfigureOptions {
  /** Send `application_state` and `conversation_summary` (the service must accept scenario state). */
  sendScenarioState: boolean
}

/** The startup history as the contract's items: user/assistant messages with their non-empty text parts. */
export function authorizedHistory(input: readonly InitialItem[]): HistoryItem[] {
  const items: HistoryItem[] = []
  for (const item of input) {
    if (
      (item.type !== undefined && item.type !== 'message') ||
      (item.role !== 'user' && item.role !== 'assistant')
    )
      continue
    const content = (Array.isArray(item.content) ? item.content : []).flatMap((part) =>
      (part.type === 'input_text' || part.type === 'output_text') && typeof part.text === 'string'
        ? [{ type: part.type, text: part.text }]
        : [],
    )
    if (content.length > 0) items.push({ type: 'message', role: item.role, content })
  }
  if (items.length > MAX_INITIAL_ITEMS) {
    throw new RangeError(
      `the startup history has ${items.length} items; a client assistant accepts at most ${MAX_INITIAL_ITEMS}`,
    )
  }
  return items
}

export function sessionConfigureFor(
  input: readonly InitialItem[],
  visibleInput: Pick<AssistantVisibleInput, 'initialState' | 'context'>,
  options: ConfigureOptions,
): SessionConfigure {
  const configure: SessionConfigure = { type: 'session.configure', initial_items: authorizedHistory(input) }
  if (!options.sendScenarioState) return configure
  configure.application_state = structuredClone(visibleInput.initialState)
  const summary = visibleInput.context?.summary ?? ''
  if (summary.trim() !== '') configure.conversation_summary = summary
  return configure
}
