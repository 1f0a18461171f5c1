// Plain JavaScript on purpose: this runs before any TypeScript is loaded, on whatever Node the shell found
// (the system Node may be far older than the project's pinned Node 24), and must be able to say so itself.

/** Node releases from which `.ts` imports run unflagged (type stripping on by default). */
const FIRST_UNFLAGGED = [22, 18]

export const NEEDS_PROJECT_NODE =
  'live-evals runs its TypeScript sources directly and needs Node 24 from this project: ' +
  'use `npx live-evals …` or `npm run live-evals -- …`'

/**
 * Why this Node cannot run the command, or null when it can. `typescript` is `process.features.typescript`
 * ('strip' | 'transform' when type stripping is on; false, or absent before Node 22.10, when it is not).
 */
export function nodeProblem(version, typescript) {
  const [major = 0, minor = 0] = String(version).replace(/^v/, '').split('.').map(Number)
  const tooOld = major < FIRST_UNFLAGGED[0] || (major === FIRST_UNFLAGGED[0] && minor < FIRST_UNFLAGGED[1])
  if (!typescript || tooOld) {
    const why = typescript ? 'too old' : 'without type stripping'
    return `${NEEDS_PROJECT_NODE} (found Node v${String(version).replace(/^v/, '')}, ${why})`
  }
  return null
}

/** Vitest 5's Node range: ^22.12.0 || ^24.0.0 || >=26.0.0 (the package's engines). */
export const SUPPORTED_NODE = '^22.12.0 || ^24.0.0 || >=26.0.0'

/** Why this Node cannot run live-evals at all (compiled or not), or null when it can. */
export function unsupportedNode(version) {
  const [major = 0, minor = 0] = String(version).replace(/^v/, '').split('.').map(Number)
  const supported = (major === 22 && minor >= 12) || major === 24 || major >= 26
  return supported
    ? null
    : `live-evals needs Node ${SUPPORTED_NODE}, as Vitest 5 does (found Node v${String(version).replace(/^v/, '')})`
}
