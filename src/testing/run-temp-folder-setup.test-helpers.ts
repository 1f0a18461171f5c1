// Vitest's first globalSetup of the unit project (vitest.config.ts): one temporary folder for the whole run, made
// the run's TMPDIR before any worker or child process starts, and removed when the run ends. Test files make
// scratch folders with mkdtemp(tmpdir()) by the hundred (run folders, child Vitest results, cassettes), and few
// remove theirs: a full unit run left about 3.5 GB behind in /tmp, and repeated runs filled the disk. Workers and
// the child processes tests start inherit TMPDIR, so everything they make lands here and goes with the run. An
// interrupted run leaves this one folder, named so it is easy to find.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function runTempFolderSetup(): () => void {
  const previous = process.env.TMPDIR
  const folder = mkdtempSync(join(tmpdir(), 'live-evals-unit-run-'))
  // Passable but not listable by other users, as /tmp is to them: the permission tests reach a folder in here as an
  // unprivileged user, which mkdtemp's 0700 would stop at this folder instead of the one under test.
  chmodSync(folder, 0o711)
  process.env.TMPDIR = folder
  return () => {
    if (previous === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = previous
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 })
  }
}
