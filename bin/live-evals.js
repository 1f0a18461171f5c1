#!/usr/bin/env node
// The package's command. Node 24 runs our TypeScript sources directly (type stripping), so there is
// no build step between a checkout and a working command.
import { main } from '../src/cli/main.ts'

process.exitCode = await main(process.argv.slice(2))
