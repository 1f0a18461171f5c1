import { mkdtemp, readdir, utimes, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { modifiedAt, pruneAttachmentCopies, RUN_STARTS_FILE } from './attachment-retention.ts'

const at = (minute: number) => new Date(Date.UTC(2026, 7, 18, 0, minute))

/** A copy Vitest made during the run that started at `minute`. */
async function copyMadeAt(dir: string, name: string, minute: number): Promise<void> {
  await writeFile(join(dir, name), 'RIFF')
  const time = at(minute + 0.5)
  await utimes(join(dir, name), time, time)
}

test('keeps the copies of the last runs and deletes older ones, leaving dot-files alone', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'live-evals-attachments-'))
  await writeFile(join(dir, '.keep'), '')
  for (let run = 0; run < 4; run++) {
    expect(await pruneAttachmentCopies(dir, { now: at(run), keptRuns: 2 })).toEqual(
      run < 2 ? [] : [`run-${run - 2}.wav`],
    )
    await copyMadeAt(dir, `run-${run}.wav`, run)
  }
  expect((await readdir(dir)).sort()).toEqual(['.keep', RUN_STARTS_FILE, 'run-2.wav', 'run-3.wav'])
})

test('an unreadable record of run starts counts as none', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'live-evals-attachments-'))
  await writeFile(join(dir, RUN_STARTS_FILE), 'not json')
  await copyMadeAt(dir, 'old.wav', 0)
  expect(await pruneAttachmentCopies(dir, { now: at(5), keptRuns: 2 })).toEqual(['old.wav'])
})

test('a copy another run deleted meanwhile is passed over; two runs pruning one folder at once both finish', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'live-evals-attachments-'))
  expect(await modifiedAt(join(dir, 'deleted-by-the-other-run.wav'))).toBeNull()
  // Any other failure is still one: a path through a file is not a copy someone deleted.
  await writeFile(join(dir, 'a-file'), '')
  await expect(modifiedAt(join(dir, 'a-file', 'child.wav'))).rejects.toThrow(/ENOTDIR/)
  for (let copy = 0; copy < 200; copy++) await copyMadeAt(dir, `old-${copy}.wav`, 0)
  const [first, second] = await Promise.all([
    pruneAttachmentCopies(dir, { now: at(5), keptRuns: 1 }),
    pruneAttachmentCopies(dir, { now: at(5), keptRuns: 1 }),
  ])
  expect(new Set([...first, ...second]).size).toBe(200)
  expect((await readdir(dir)).filter((name) => name.endsWith('.wav'))).toEqual([])
})
