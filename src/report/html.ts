// HTML built only through the `html` tagged template: every interpolated value is escaped unless it is already a
// SafeHtml fragment made by this module. Transcripts, tool arguments and model output can therefore never become
// markup, whatever they contain.

export class SafeHtml {
  readonly text: string
  constructor(text: string) {
    this.text = text
  }
  toString(): string {
    return this.text
  }
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/** Text safe in element content and in quoted attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPES[character] as string)
}

type Interpolation = SafeHtml | string | number | boolean | null | undefined | readonly Interpolation[]

function fragment(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return ''
  if (value instanceof SafeHtml) return value.text
  if (Array.isArray(value)) return value.map(fragment).join('')
  return escapeHtml(String(value))
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): SafeHtml {
  let text = strings[0] ?? ''
  values.forEach((value, index) => {
    text += fragment(value) + (strings[index + 1] ?? '')
  })
  return new SafeHtml(text)
}

/** Markup this codebase wrote itself (the page's own CSS and script); never for data. */
export function trustedMarkup(text: string): SafeHtml {
  return new SafeHtml(text)
}

/**
 * A JSON value shown as text (indented unless `compact`); escaped by `html` when interpolated. A value nested too
 * deeply for JSON.stringify is named instead of crashing the report.
 */
export function jsonText(value: unknown, compact = false): string {
  try {
    return (compact ? JSON.stringify(value) : JSON.stringify(value, null, 2)) ?? 'undefined'
  } catch (error) {
    if (error instanceof RangeError) return '(nested too deeply to show)'
    throw error
  }
}

/** A fragment id built from a row key: only characters that need no escaping in a URL fragment or a selector. */
export function anchorOf(scenarioId: string, trial: number): string {
  return `scenario-${scenarioId.replace(/[^A-Za-z0-9_-]/g, '_')}-t${trial}`
}
