// live-evals refuses a Node that Vitest 5 does not support before anything runs. Without this, Node 20 collects and
// runs every scenario and then crashes in the reporter (`Map.groupBy is not a function`), leaving no results.json
// and a journal the next run calls killed. The check and its one-line message are the CLI's (bin/node-guard.js,
// plain JavaScript so any Node can run it); it sits beside bin/ in the checkout and one folder further up from
// dist/src/vitest/plugin in the installed package.
import { fileURLToPath } from 'node:url'

type NodeGuard = typeof import('../../../bin/node-guard.js')

const fromSources = import.meta.url.endsWith('.ts')
const guardFile = fileURLToPath(
  new URL(fromSources ? '../../../bin/node-guard.js' : '../../../../bin/node-guard.js', import.meta.url),
)
const { unsupportedNode } = (await import(guardFile)) as NodeGuard

/** Why this Node cannot run live-evals, or null when it can (the CLI's message). */
export function nodeSupportProblem(version: string = process.versions.node): string | null {
  return unsupportedNode(version)
}

/** On an unsupported Node: prints the CLI's one line to stderr and ends the process with exit code 1. */
export function refuseUnsupportedNode(version: string = process.versions.node): void {
  const problem = nodeSupportProblem(version)
  if (problem === null) return
  process.stderr.write(`${problem}\n`)
  process.exit(1)
}
