// `npm run build`: the installable package. TypeScript compiles src/ and reporters/ to dist/ (tsconfig.build.json),
// then the data files the code reads beside itself through import.meta.url are copied to the same places:
// prompts, tool definitions, business facts, bundled audio and the effects' WebAssembly. Test data stays out.
// `--no-check` leaves out tsc's type check (tsc --noCheck: the emit is the same, and declaration-emit errors are
// still reported): the unit run's package build (src/package/shared-package-build.test-helpers.ts), whose
// sources `npm test` has type-checked already (`npm run typecheck`, over src/, reporters/ and types/ too).
import { spawnSync } from 'node:child_process'
import { cpSync, readdirSync, rmSync } from 'node:fs'
import { join, relative } from 'node:path'

const root = join(import.meta.dirname, '..')
const out = join(root, 'dist')
const DATA_FILE = /\.(txt|json|wav|wasm)$/
const TEST_DATA = /(^|\/)(fixtures|test-assets|parity)(\/|$)|\.test\./

rmSync(out, { recursive: true, force: true })
const tsc = spawnSync(
  process.execPath,
  [
    join(root, 'node_modules/typescript/bin/tsc'),
    '-p',
    'tsconfig.build.json',
    ...(process.argv.includes('--no-check') ? ['--noCheck'] : []),
  ],
  {
    cwd: root,
    stdio: 'inherit',
  },
)
if (tsc.status !== 0) process.exit(tsc.status ?? 1)

function copyData(folder: string): number {
  let copied = 0
  for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
    const path = join(folder, entry.name)
    if (TEST_DATA.test(path)) continue
    if (entry.isDirectory()) copied += copyData(path)
    else if (DATA_FILE.test(entry.name)) {
      cpSync(join(root, path), join(out, path))
      copied += 1
    }
  }
  return copied
}

const copied = copyData('src')
console.log(`built ${relative(root, out)}/ and copied ${copied} data files beside the code`)
