import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { testCassetteHeader } from './cassette-header.test-helpers.ts'
import { CassetteRefusedError, CassetteTooLargeError } from './errors.ts'
import { readCassette, writeCassette } from './files.ts'
import type { Cassette } from './schema.ts'

let dir = ''
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'live-evals-cassette-files-'))
})
afterEach(() => rm(dir, { recursive: true, force: true }))

const audio = new Uint8Array([1, 0, 2, 0])
const cassette: Cassette = {
  header: testCassetteHeader({ scenario_hash: 'a'.repeat(64), models: { live_model: 'gpt-live-1' } }),
  sessions: [
    {
      label: 'assistant',
      frames: [
        {
          seq: 0,
          direction: 'sent',
          at_ms: 0,
          event: { type: 'session.input_audio.append' },
          audio: { file: 'assistant.sent.pcm', offset: 0, bytes: 4, sha256: 'b'.repeat(64) },
        },
      ],
    },
  ],
  http: [],
  tool_executions: null,
}

describe('cassette files', () => {
  test('round trip: JSON and PCM beside it, folder 0700, files 0600', async () => {
    const folder = await writeCassette(dir, cassette, new Map([['assistant.sent.pcm', audio]]))
    expect((await stat(folder)).mode & 0o777).toBe(0o700)
    for (const name of await readdir(folder))
      expect((await stat(join(folder, name))).mode & 0o777).toBe(0o600)
    const loaded = await readCassette(dir, cassette.header.id)
    expect(loaded.cassette).toEqual(cassette)
    expect(loaded.files.get('assistant.sent.pcm')).toEqual(audio)
  })

  test('past the size cap nothing is written and the error names the cassette', async () => {
    await expect(writeCassette(dir, cassette, new Map([['assistant.sent.pcm', audio]]), 100)).rejects.toThrow(
      CassetteTooLargeError,
    )
    await expect(writeCassette(dir, cassette, new Map(), 100)).rejects.toThrow(
      /^Cassette crawl_001__responses would exceed/,
    )
    expect(await readdir(dir)).toEqual([])
  })

  test('a cassette that does not match the schema, or whose audio file is short, is refused by name', async () => {
    const folder = join(dir, 'broken')
    await mkdir(folder)
    await writeFile(join(folder, 'cassette.json'), JSON.stringify({ header: { cassette_version: 1 } }))
    await expect(readCassette(dir, 'broken')).rejects.toThrow(
      /^Cassette broken .* does not match the schema at header/,
    )
    await writeCassette(dir, cassette, new Map([['assistant.sent.pcm', audio.subarray(0, 2)]]))
    const refusal = await readCassette(dir, cassette.header.id).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(CassetteRefusedError)
    expect((refusal as Error).message).toContain('assistant.sent.pcm is shorter than its frames say')
  })
})
