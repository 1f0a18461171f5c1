// The committed WebAssembly modules are their C sources' builds: assets/make-wasm.sh, run into a scratch folder,
// gives the same bytes. Needs Debian's clang and lld (.ci/run installs them); without them it says it skipped.
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const ASSETS = join(import.meta.dirname, 'assets')
const MODULES = ['phone-line', 'room-mix']

const clangMissing = ['clang', 'wasm-ld'].find(
  (program) => spawnSync(program, ['--version'], { stdio: 'ignore' }).status !== 0,
)

describe.skipIf(clangMissing !== undefined)(
  `the effects' WebAssembly${clangMissing === undefined ? '' : ` (skipped: ${clangMissing} is not installed)`}`,
  () => {
    it('each committed module is what make-wasm.sh builds from its source', async () => {
      const scratch = await mkdtemp(join(tmpdir(), 'live-evals-wasm-'))
      try {
        execFileSync('sh', [join(ASSETS, 'make-wasm.sh'), scratch])
        for (const name of MODULES) {
          const committed = await readFile(join(ASSETS, `${name}.wasm`))
          const built = await readFile(join(scratch, `${name}.wasm`))
          expect(
            built.equals(committed),
            `${name}.wasm is not ${name}.c's build: run assets/make-wasm.sh`,
          ).toBe(true)
        }
      } finally {
        await rm(scratch, { recursive: true, force: true })
      }
    })
  },
)
