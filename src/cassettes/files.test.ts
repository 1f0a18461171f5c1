import { chmod, mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import { testCassetteHeader } from './cassette-header.test-helpers.ts'
import { CassetteRefusedError, CassetteTooLargeError } from './errors.ts'
import { readCassette, writeCassette } from './files.ts'
import { CASSETTE_VERSION, type Cassette } from './schema.ts'

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
  pacing: null,
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
    await writeFile(
      join(folder, 'cassette.json'),
      JSON.stringify({ header: { cassette_version: CASSETTE_VERSION } }),
    )
    await expect(readCassette(dir, 'broken')).rejects.toThrow(
      /^Cassette broken .* does not match the schema at header/,
    )
    await writeCassette(dir, cassette, new Map([['assistant.sent.pcm', audio.subarray(0, 2)]]))
    const refusal = await readCassette(dir, cassette.header.id).catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(CassetteRefusedError)
    expect((refusal as Error).message).toContain('assistant.sent.pcm is shorter than its frames say')
  })

  test('only an absent cassette.json is missing', async () => {
    const refusal = await readCassette(dir, 'never_recorded').catch((error: unknown) => error)
    expect(refusal).toBeInstanceOf(CassetteRefusedError)
    expect(refusal).toMatchObject({ reason: 'missing', cassette: 'never_recorded' })
    expect((refusal as Error).message).toBe(
      `No cassette never_recorded at ${join(dir, 'never_recorded', 'cassette.json')}: record it with ` +
        'LIVE_EVALS_MODE=live LIVE_EVALS_RECORD=1 (or point LIVE_EVALS_CASSETTES at the folder that holds it).',
    )
  })

  test('a cassette.json that is there but cannot be read is unreadable, naming the file and why', async () => {
    const file = join(dir, 'a_folder', 'cassette.json')
    await mkdir(file, { recursive: true })
    const refusal = await readCassette(dir, 'a_folder').catch((error: unknown) => error)
    expect(refusal).toMatchObject({ reason: 'unreadable', cassette: 'a_folder' })
    expect((refusal as Error).message).toBe(
      `Cassette a_folder (${file}) is there but cannot be read: it is a folder, not a file (EISDIR).`,
    )
  })

  // Root reads a file whatever its mode, so the permission case can only be shown as another user.
  test.skipIf(process.getuid?.() === 0)(
    'a cassette.json without read permission is unreadable, not missing',
    async () => {
      const folder = await writeCassette(dir, cassette, new Map([['assistant.sent.pcm', audio]]))
      await chmod(join(folder, 'cassette.json'), 0o000)
      const refusal = await readCassette(dir, cassette.header.id).catch((error: unknown) => error)
      expect(refusal).toMatchObject({ reason: 'unreadable' })
      expect((refusal as Error).message).toContain('permission denied (EACCES)')
    },
  )

  test('an audio file that is there but cannot be read is unreadable; an absent one makes the cassette invalid', async () => {
    const folder = await writeCassette(dir, cassette, new Map([['assistant.sent.pcm', audio]]))
    const pcm = join(folder, 'assistant.sent.pcm')
    await rm(pcm)
    const absent = await readCassette(dir, cassette.header.id).catch((error: unknown) => error)
    expect(absent).toMatchObject({ reason: 'invalid' })
    expect((absent as Error).message).toBe(
      `Cassette ${cassette.header.id} names assistant.sent.pcm, which is not in ${folder}.`,
    )
    await mkdir(pcm)
    const unreadable = await readCassette(dir, cassette.header.id).catch((error: unknown) => error)
    expect(unreadable).toMatchObject({ reason: 'unreadable' })
    expect((unreadable as Error).message).toBe(
      `Cassette ${cassette.header.id}: ${pcm} is there but cannot be read: it is a folder, not a file (EISDIR).`,
    )
  })

  test('a cassette.json that is not JSON is invalid, naming the file and where the JSON breaks', async () => {
    const folder = join(dir, 'cut_short')
    await mkdir(folder)
    await writeFile(join(folder, 'cassette.json'), '{"header": {"cassette_version": ')
    const refusal = await readCassette(dir, 'cut_short').catch((error: unknown) => error)
    expect(refusal).toMatchObject({ reason: 'invalid' })
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `^Cassette cut_short \\(${join(folder, 'cassette.json')}\\) is not JSON \\(.+\\); record it again\\.$`,
      ),
    )
  })
})
