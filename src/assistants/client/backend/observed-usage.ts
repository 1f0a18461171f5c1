// The client backend's token usage, read from what it published for observation: every `response.completed`
// carries its response's usage (the OpenAI backend forwards the stream's, the offline backend reports its
// estimate). One reader for the in-process and the remote client, so both report the same consumption.
import type { ObservedResponseUsage } from '../../../reporting/consumption.ts'
import type { ObservationEvent } from './application-backend.ts'

/** Usage of each completed backend response, in order; a completion that carried none is unknown (null). */
export function backendUsageOfEvents(events: readonly ObservationEvent[]): (ObservedResponseUsage | null)[] {
  return events.flatMap((event) => {
    if (event.type !== 'response.completed') return []
    const response = event.response as { usage?: unknown } | undefined
    const usage = response?.usage
    return [
      typeof usage === 'object' && usage !== null && !Array.isArray(usage)
        ? (usage as ObservedResponseUsage)
        : null,
    ]
  })
}
