// The GPT-Live models a run can evaluate, and how one run evaluates several. The model pages (developers.openai.com
// /api/docs/models/gpt-live-1 and /gpt-live-1.1, read 2026-12-02) list one id per model, whose default snapshot is
// the id itself, and say the two have separate concurrent-session limits. Dated snapshots follow OpenAI's naming
// for every other model family, `<id>-YYYY-MM-DD` (e.g. `gpt-live-1.1-2026-11-20`); the pages list none yet, so a
// snapshot is recognised by that pattern with a real calendar date, never by a list of guessed dates.
import type { Phase, SettingsFor } from './schema.ts'

export interface LiveModelEntry {
  /** When the model was released (its page's date); null when the page does not say. */
  released: string | null
  /** Whether the service has a standby (inference paused) billing state for it: WebRTC only, per its page. */
  standby_state: boolean
}

export const LIVE_MODELS: Readonly<Record<string, LiveModelEntry>> = {
  'gpt-live-1': { released: null, standby_state: false },
  'gpt-live-1.1': { released: '2026-11-20', standby_state: true },
}

const SNAPSHOT = /^(.+)-(\d{4})-(\d{2})-(\d{2})$/

function isCalendarDate(year: number, month: number, day: number): boolean {
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

/** The model a model id names (`gpt-live-1.1` for itself or `gpt-live-1.1-2026-11-20`); null for an unknown id. */
export function liveModelFamily(id: string): string | null {
  if (Object.hasOwn(LIVE_MODELS, id)) return id
  const match = SNAPSHOT.exec(id)
  if (match === null) return null
  const [, family = '', year, month, day] = match
  if (!Object.hasOwn(LIVE_MODELS, family)) return null
  return isCalendarDate(Number(year), Number(month), Number(day)) ? family : null
}

/**
 * The models a run evaluates, in the order given, each once: `execution.models` (LIVE_EVALS_MODELS) when set, else
 * `models.live_model` alone.
 */
export function modelsToEvaluate(settings: SettingsFor<Phase>): string[] {
  const listed = settings.execution.models ?? [settings.models.live_model]
  return [...new Set(listed.map((model) => model.trim()))]
}

/** The setting (and its variable) that chose the models a run evaluates, as messages name it. */
export function modelsSetting(settings: SettingsFor<Phase>): string {
  return settings.execution.models === null
    ? 'models.live_model (OPENAI_LIVE_MODEL)'
    : 'execution.models (LIVE_EVALS_MODELS)'
}

/** Whether a run evaluates several models (its folders, test names and row keys then name the model). */
export function evaluatesSeveralModels(settings: SettingsFor<Phase>): boolean {
  return modelsToEvaluate(settings).length > 1
}

/**
 * How many of one model's scenarios run at once: `execution.concurrency` caps every model (it is what a team chose
 * for its own services), and `execution.model_concurrency` lowers one model's cap to what the service allows it.
 */
export function modelConcurrency(settings: SettingsFor<Phase>, model: string): number {
  const limits = settings.execution.model_concurrency
  const cap = settings.execution.concurrency
  return Object.hasOwn(limits, model) ? Math.min(cap, limits[model] as number) : cap
}

/**
 * The settings one model's scenarios run with: `models.live_model` is that model and `execution.concurrency` its
 * own limit, so everything downstream (session start, the row's provenance, run.configuration) names it.
 */
export function settingsForModel<P extends Phase>(settings: SettingsFor<P>, model: string): SettingsFor<P> {
  return {
    ...settings,
    models: { ...settings.models, live_model: model },
    execution: { ...settings.execution, concurrency: modelConcurrency(settings, model) },
  }
}
