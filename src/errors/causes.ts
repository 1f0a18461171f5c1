// An error and the errors it wraps. Ours wrap as they travel (a delegation failure around an offline rule's error, a
// StageError around a LiveSessionError, an SDK error in a connection failure), and the harness asks of the whole
// chain what the outermost error does not say: whether an offline rule threw, whether the account was refused, why
// the judge refused. One walk for all of them, in a folder of its own that imports nothing: the judge's modules
// may not import the live-session side (src/grading/judge/evidence.test.ts), and the phases and Vitest ask too.

/** How many wrappers deep a cause is looked for (error chains are short; a cycle must not loop). */
const CAUSE_DEPTH = 8

/** `error`, then what it wraps through `cause`, outermost first: only Errors, at most CAUSE_DEPTH of them. */
export function* causesOf(error: unknown): Generator<Error, void, undefined> {
  let current = error
  for (let depth = 0; depth < CAUSE_DEPTH && current instanceof Error; depth += 1) {
    yield current
    current = current.cause
  }
}

/** The first of `error`'s chain (itself included) that is a `kind`, or null. */
export function firstCauseOf<Kind extends Error>(
  error: unknown,
  kind: abstract new (...args: never[]) => Kind,
): Kind | null {
  for (const cause of causesOf(error)) if (cause instanceof kind) return cause
  return null
}
