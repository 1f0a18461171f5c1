// The authorized factual application context: the only application facts the assistant (voice model and
// backend) may read. It is appended to both prompts under a fixed heading, rendered exactly like the
// reference toolkit renders it (Python's `json.dumps` defaults), so prompts built from the same scenario
// are byte-identical across the two harnesses and results stay comparable.

import type { AssistantVisibleInput } from '../../scenarios/visible.ts'
import type { JsonObject } from '../offline-behaviour.ts'

export const AUTHORIZED_CONTEXT_HEADING = '\n\n## Authorized factual application context\n'

export interface AuthorizedContext {
  /** Public business facts: never `availability_overrides`. */
  business_facts: JsonObject
  /** The scenario's initial application state, which the assistant is authorized to read. */
  authorized_application_state: JsonObject
  /** Present only when the visible context has a non-empty summary. */
  previous_conversation_summary?: string
}

/** Builds the context from the visible input and the architecture's public facts (checked to be public). */
export function authorizedContext(
  visible: AssistantVisibleInput,
  publicFacts: JsonObject,
): AuthorizedContext {
  if ('availability_overrides' in publicFacts) {
    throw new Error(
      `Scenario ${visible.scenarioId}: the business facts given to the assistant plan still hold the private ` +
        'availability_overrides; pass publicBusinessFacts() of the assistant copy instead.',
    )
  }
  const context: AuthorizedContext = {
    business_facts: structuredClone(publicFacts),
    authorized_application_state: structuredClone(visible.initialState),
  }
  const summary = visible.context?.summary ?? ''
  if (summary.trim() !== '') context.previous_conversation_summary = summary
  return context
}

/** `prompt` followed by the heading and the rendered context. */
export function withAuthorizedContext(prompt: string, context: AuthorizedContext): string {
  return `${prompt}${AUTHORIZED_CONTEXT_HEADING}${renderPythonJson(context)}`
}

/**
 * JSON as Python's `json.dumps(value)` writes it by default: `", "` and `": "` separators, keys in insertion
 * order, and every non-ASCII character escaped as `\uXXXX` (surrogate pairs for astral characters).
 */
export function renderPythonJson(value: unknown): string {
  if (value === null || typeof value === 'boolean') return JSON.stringify(value)
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new Error(`Cannot render ${value} in the authorized context: not JSON`)
    return JSON.stringify(value)
  }
  if (typeof value === 'string') return asciiOnly(JSON.stringify(value))
  if (Array.isArray(value)) return `[${value.map(renderPythonJson).join(', ')}]`
  if (typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined)
    return `{${entries.map(([key, v]) => `${asciiOnly(JSON.stringify(key))}: ${renderPythonJson(v)}`).join(', ')}}`
  }
  throw new Error(`Cannot render a ${typeof value} in the authorized context: not JSON`)
}

function asciiOnly(json: string): string {
  return json.replace(/[\u0080-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}
