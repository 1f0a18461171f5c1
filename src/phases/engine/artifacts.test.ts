// A conversation's artifacts: a transcript only when something was transcribed, so an empty file never stands
// for a conversation stopped before anyone spoke (it would read as a file cut short).
import { readFile, rm } from 'node:fs/promises'
import { afterAll, describe, expect, it } from 'vitest'
import { SessionTimeline } from '../../observability/timeline.ts'
import { SessionTrace } from '../../observability/trace.ts'
import { NO_ARTIFACTS } from '../../reporting/result-item.ts'
import { freshRunDirectory } from '../single-turn/test-support.ts'
import { writeSessionArtifacts } from './artifacts.ts'

const folders: string[] = []
afterAll(async () => {
  await Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true })))
})

describe('writeSessionArtifacts', () => {
  it('writes no transcript or event file for a silent, eventless conversation; one line per utterance otherwise', async () => {
    const runDirectory = await freshRunDirectory()
    folders.push(runDirectory)
    const silent = { ...NO_ARTIFACTS }
    await writeSessionArtifacts(
      runDirectory,
      'silent',
      new SessionTimeline({ mode: 'virtual' }),
      new SessionTrace(),
      silent,
    )
    expect(silent.conversation_transcript).toBeNull()
    expect(silent.conversation_audio).not.toBeNull()
    expect(silent.events).toBeNull()

    const timeline = new SessionTimeline({ mode: 'virtual' })
    timeline.transcript({ role: 'user', text: 'Book a table.', startMs: 200, endMs: 900, receivedAtMs: 900 })
    const spoken = { ...NO_ARTIFACTS }
    await writeSessionArtifacts(runDirectory, 'spoken', timeline, new SessionTrace(), spoken)
    expect(await readFile(spoken.conversation_transcript as string, 'utf8')).toBe(
      '[00:00.200] CALLER: Book a table.\n',
    )
  })
})
