#!/usr/bin/env node
// The package's command. Node 24 runs our TypeScript sources directly (type stripping), so there is
// no build step between a checkout and a working command. An older or flag-restricted Node (e.g. the system
// Node on PATH when the command is run without npx) gets one clear line instead of an unknown-extension
// stack trace: the check runs first and the TypeScript entry point is imported only after it passes.
import { nodeProblem } from './node-guard.js'

const problem = nodeProblem(process.versions.node, process.features?.typescript)
if (problem !== null) {
  process.stderr.write(`${problem}\n`)
  process.exit(1)
}
const { main } = await import('../src/cli/main.ts')
process.exitCode = await main(process.argv.slice(2))
