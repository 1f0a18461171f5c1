// Under client delegation the backend runs the assistant author's offline rules in this process. A rule that threw
// failed its delegation: the controller retained that failure (its cause the OfflineRuleError) and gave the voice
// model its failure answer. It is the author's bug, not a backend failure the call goes on after, so the offline
// call ends on it, as the offline server's close ends it under Responses; the engine reports it at offline_rule
// (src/phases/engine/offline-rule-failure.ts). Other retained failures (a fault profile's failing backend) are part
// of the call and leave it running.
//
// The watch never awaits: the call's steps keep exactly their await points, so an offline call sends the same bytes
// in the same order with or without it. A look reads the controller's retained failure (what a wait for the
// delegated work would reject with at once), and the next throwIfThrown (after the clock's next step, or once the
// call stopped) acts on it. A look used to be that wait, cancelled by aborting it: an AbortController and its
// abort event on every step after the first delegation, 2.6% of `npx node --cpu-prof bench/run-offline.ts`.
//
// Under Responses the offline server ran the rule and closed the session with its message; the clock's next send
// runs into that close. A close that came in the step the watcher stopped the call at meets no later send: only
// the close outcome shows it, so it is read once the call closed (throwIfEndedOnRule).
import type { AssistantUnderTest } from '../../assistants/assistant-session.ts'
import { offlineRuleErrorIn } from '../../assistants/offline-rule-error.ts'
import type { LiveSessionOutcome } from '../../live/outcome.ts'
import { offlineRuleFailure } from '../engine/offline-rule-failure.ts'

export class OfflineRuleWatch {
  readonly #assistant: Pick<AssistantUnderTest, 'delegationFailure'>
  #thrown: Error | null = null

  constructor(assistant: Pick<AssistantUnderTest, 'delegationFailure'>) {
    this.#assistant = assistant
  }

  /** Asks the controller for its retained failure; one an offline rule caused is thrown by throwIfThrown. */
  look(): void {
    const failure = this.#assistant.delegationFailure()
    if (failure !== null && offlineRuleErrorIn(failure) !== null) this.#thrown ??= failure
  }

  /** Throws the delegation failure an offline rule caused, once a look found one. */
  throwIfThrown(): void {
    if (this.#thrown !== null) throw this.#thrown
  }

  /** Once the call closed: throws what a look found, or the session failure of a close for a rule that threw. */
  throwIfEndedOnRule(closed: LiveSessionOutcome): void {
    this.throwIfThrown()
    if (closed.type === 'failed' && offlineRuleFailure(closed.error) !== null) throw closed.error
  }
}
