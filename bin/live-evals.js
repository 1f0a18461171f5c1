#!/usr/bin/env node
// The package's command. Installed from npm, it runs the compiled JavaScript in dist/ on any Node that
// Vitest supports. In a checkout without a build, Node 24 runs the TypeScript sources directly (type
// stripping); an older or flag-restricted Node then gets one clear line instead of an unknown-extension stack
// trace: the check runs first and the TypeScript entry point is imported only after it passes.
import { existsSync } from 'node:fs'
import { nodeProblem, unsupportedNode } from './node-guard.js'

const compiled = new URL('../dist/src/cli/main.js', import.meta.url)
const tooOld = unsupportedNode(process.versions.node)
if (tooOld !== null) {
  process.stderr.write(`${tooOld}\n`)
  process.exit(1)
}
let entry = compiled.href
if (!existsSync(compiled)) {
  const problem = nodeProblem(process.versions.node, process.features?.typescript)
  if (problem !== null) {
    process.stderr.write(`${problem}\n`)
    process.exit(1)
  }
  entry = '../src/cli/main.ts'
}
const { main } = await import(entry)
process.exitCode = await main(process.argv.slice(2))
