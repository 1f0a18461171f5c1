// A results folder whose `.attachments` (where Vitest copies attached audio) is a file or a symbolic link: the
// run is refused before any run folder is claimed, with one plain sentence, exit 1 and nothing left behind.
import { mkdir, readdir, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { FIXTURE_CONFIG, runVitest, SPAWN_TIMEOUT_MS, scratch } from './child-vitest.test-helpers.ts'

test.each(['a file', 'a symbolic link'] as const)(
  'an .attachments that is %s is refused plainly and leaves no run folder',
  { timeout: SPAWN_TIMEOUT_MS },
  async (kind) => {
    const space = await scratch()
    const results = join(space.dir, 'results')
    await mkdir(results, { mode: 0o700 })
    const attachments = join(results, '.attachments')
    if (kind === 'a file') await writeFile(attachments, '')
    else await symlink(join(space.dir, 'elsewhere'), attachments)
    const run = await runVitest(['run', '--config', FIXTURE_CONFIG], {
      ...space.env,
      OPENAI_ASSISTANT_MODE: 'responses',
    })
    expect(run.code, run.output).toBe(1)
    expect(run.output).toContain('live-evals: the CRAWL run cannot start; nothing was run')
    expect(run.output).toContain(
      kind === 'a file'
        ? `Attachments folder ${attachments} is a file, not a folder`
        : `${attachments} is a symbolic link (to `,
    )
    expect(run.output).not.toContain('Unhandled Error')
    expect(run.output).not.toMatch(/\n\s+at /) // no stack trace
    expect(await readdir(results)).toEqual(['.attachments'])
  },
)
