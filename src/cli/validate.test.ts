import { execFile } from 'node:child_process'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeMonoWav, encodeStereoWav } from '../audio/wav.ts'
import { datasetText, multiTurnRaw, setPath, singleTurnRaw } from '../scenarios/fixtures/builders.ts'
import { PLACEHOLDER_ANSWER } from '../scenarios/placeholder-expectation.ts'
import { captureIO } from './capture-io.ts'
import { main } from './main.ts'

const REPOSITORY = path.resolve(import.meta.dirname, '..', '..')
let folder = ''
const files: Record<string, string> = {}

beforeAll(async () => {
  folder = await mkdtemp(path.join(tmpdir(), 'live-evals-validate-'))
  const recorded = setPath(singleTurnRaw('recorded'), 'input.recordings', [{ id: 'take', path: 'take.wav' }])
  const contents = {
    good: datasetText([singleTurnRaw('one'), recorded, multiTurnRaw('call')]),
    forbidden: datasetText([setPath(singleTurnRaw('refusal'), 'expected.delegation', 'forbidden')]),
    twoProblems: datasetText([
      singleTurnRaw('dup'),
      setPath(multiTurnRaw('DUP'), 'expected.golden_path.turns', 2),
    ]),
    malformed: '{\n  "schema_version": "1.0",\n  "scenarios": [}\n',
    brackets: '['.repeat(8000),
    deep: `{"schema_version": "1.0", "scenarios": [{"id": "x", "application": {"initial_state": {"a": ${'['.repeat(4000)}${']'.repeat(4000)}}}}]}`,
    placeholder: datasetText([
      singleTurnRaw('written'),
      setPath(singleTurnRaw('imported'), 'expected.answer', PLACEHOLDER_ANSWER),
    ]),
    latin1: Buffer.from('{"schema_version": "1.0", "scenarios": [{"id": "caf\xe9"}]}', 'latin1'),
  }
  for (const [name, text] of Object.entries(contents)) {
    files[name] = path.join(folder, `${name}.json`)
    await writeFile(files[name] as string, text)
  }
  // The good dataset's recording is made: a missing one is the subject of its own test.
  await writeFile(path.join(folder, 'take.wav'), encodeMonoWav(new Int16Array(480)))
  files.folder = folder
})
afterAll(async () => {
  await rm(folder, { recursive: true, force: true })
})

async function validate(...names: string[]) {
  const io = captureIO()
  const code = await main(['validate', ...names.map((name) => files[name] ?? path.join(folder, name))], io)
  return { code, stdout: io.stdout(), stderr: io.stderr() }
}

describe('live-evals validate', () => {
  it('prints the scenario count per phase and exits 0 for valid datasets', async () => {
    const result = await validate('good')
    expect(result).toEqual({
      code: 0,
      stdout: `ok   ${files.good}: 3 scenarios (crawl 2, walk 1, run 1)\n`,
      stderr: '',
    })
  })

  it('passes a WALK dataset whose recordings are not made yet, saying how many and the command that makes them', async () => {
    const spaced = path.join(folder, "walk 'takes'")
    await mkdir(spaced)
    const recorded = (id: string, names: string[]) =>
      setPath(
        singleTurnRaw(id),
        'input.recordings',
        names.map((name, index) => ({ id: `take${index}`, path: name })),
      )
    await writeFile(path.join(spaced, 'made.wav'), encodeMonoWav(new Int16Array(480)))
    const file = path.join(spaced, 'walk.json')
    await writeFile(
      file,
      datasetText([recorded('made', ['made.wav']), recorded('later', ['later.wav', 'later_noisy.wav'])]),
    )
    const io = captureIO()
    expect(await main(['validate', file], io)).toBe(0)
    // Quoted for the shell: the path has a space and a quote.
    const command = `live-evals walk generate-audio '${file.replaceAll("'", "'\\''")}'`
    expect(io.stdout()).toBe(
      `ok   ${file}: 2 scenarios (crawl 2, walk 2, run 0); 2 recordings not made yet: run ${command}\n`,
    )
    expect(io.stderr()).toBe('')
  })

  it('checks every file and lists every violation of every file, then exits 1', async () => {
    const result = await validate('forbidden', 'good', 'twoProblems', 'malformed', 'absent.json')
    expect(result.code).toBe(1)
    expect(result.stdout).toBe(`ok   ${files.good}: 3 scenarios (crawl 2, walk 1, run 1)\n`)
    const expectedLines = [
      `FAIL ${files.forbidden}: 1 problem; fix them before running:`,
      '  - scenarios[0].expected.tools.required [scenario refusal]: a scenario cannot forbid delegation and require a tool',
      `FAIL ${files.twoProblems}: 2 problems; fix them before running:`,
      '  - scenarios[1].expected.golden_path.turns [scenario DUP]: RUN scenarios need expected.golden_path.turns >= 7, got 2',
      '  - scenarios[1].id [scenario DUP]: scenario ids must be unique (case-insensitive): "DUP" repeats the id of scenarios[0]',
      `FAIL ${files.malformed}: 1 problem; fix them before running:`,
      `FAIL ${path.join(folder, 'absent.json')}: 1 problem; fix them before running:`,
      '4 of 5 dataset files failed validation.',
    ]
    for (const line of expectedLines) expect(result.stderr.split('\n')).toContain(line)
    expect(result.stderr).toContain('(file): malformed JSON at line 3, column 17')
    expect(result.stderr).toContain('(file): cannot read the dataset file (ENOENT)')
  })

  it('reports hostile files plainly, one after the other, never with a stack trace', async () => {
    const result = await validate('brackets', 'deep', 'latin1', 'folder', 'good')
    expect(result.code).toBe(1)
    expect(result.stdout).toBe(`ok   ${files.good}: 3 scenarios (crawl 2, walk 1, run 1)\n`)
    expect(result.stderr).toContain('(file): malformed JSON at line 1, column 8001')
    expect(result.stderr).toMatch(
      /scenarios\[0\]\.application\.initial_state\.a(\[0\])+ \[scenario x\]: nested deeper/,
    )
    expect(result.stderr).toContain('(file): invalid UTF-8 at byte offset 51 (line 1, byte 0xe9)')
    expect(result.stderr).toContain(`FAIL ${folder}: 1 problem`)
    expect(result.stderr).toContain('the dataset path is a folder, not a regular file')
    expect(result.stderr).toContain('4 of 5 dataset files failed validation.')
    expect(result.stderr).not.toMatch(/\n\s+at /)
  })

  it("lists an imported call whose expected.answer is still import-call's placeholder as a problem", async () => {
    const result = await validate('placeholder')
    expect(result.code).toBe(1)
    expect(result.stdout).toBe('')
    expect(result.stderr).toContain(`FAIL ${files.placeholder}: 1 problem; fix them before running:`)
    expect(result.stderr).toContain(
      '  - scenarios[1].expected.answer [scenario imported]: expected.answer is still the placeholder ' +
        'live-evals import-call wrote',
    )
    expect(result.stderr).toContain('write what the assistant should achieve for this caller')
    expect(result.stderr).toContain('a run fails this scenario at input_setup until then')
  })

  it('decodes each recording that exists as the WALK run will, and leaves one not made yet to generate-audio', async () => {
    await writeFile(path.join(folder, 'notes.wav'), 'not audio, only a file named .wav\n')
    await writeFile(
      path.join(folder, 'stereo.wav'),
      encodeStereoWav(new Int16Array(480), new Int16Array(480), 8000),
    )
    await writeFile(path.join(folder, 'fine.wav'), encodeMonoWav(new Int16Array(480)))
    const takes = (id: string, names: string[]) =>
      setPath(
        singleTurnRaw(id),
        'input.recordings',
        names.map((name, index) => ({ id: `take${index}`, path: name })),
      )
    files.recordings = path.join(folder, 'recordings.json')
    await writeFile(
      files.recordings,
      datasetText([
        takes('unusable', ['notes.wav', 'stereo.wav']),
        takes('usable', ['fine.wav', 'later.wav']),
      ]),
    )
    const result = await validate('recordings')
    expect(result.code).toBe(1)
    const lines = result.stderr.split('\n')
    expect(lines).toContain(`FAIL ${files.recordings}: 2 problems; fix them before running:`)
    const notes = lines.find((line) => line.includes('input.recordings[0].path [scenario unusable]'))
    expect(notes).toContain('notes.wav')
    expect(notes).toContain('is not a readable RIFF/WAVE file')
    const stereo = lines.find((line) => line.includes('input.recordings[1].path [scenario unusable]'))
    expect(stereo).toMatch(/must be mono.*must be 24000 Hz.*sox in\.wav -c 1 -b 16 -r 24000 out\.wav/)
    // fine.wav decodes, later.wav does not exist yet: scenario "usable" has no problem.
    expect(result.stderr).not.toContain('[scenario usable]')
  })

  it('needs at least one file and knows no options', async () => {
    expect((await validate()).code).toBe(2)
    const io = captureIO()
    expect(await main(['validate', '--strict', files.good as string], io)).toBe(2)
    expect(io.stderr()).toContain('unknown option --strict')
  })

  // Two real processes: generous under a loaded machine; nothing here is a timing claim.
  it('works as the installed command', { timeout: 60_000 }, async () => {
    const command = promisify(execFile)
    const ok = await command(process.execPath, ['bin/live-evals.js', 'validate', files.good as string], {
      cwd: REPOSITORY,
    })
    expect(ok.stdout).toContain('3 scenarios (crawl 2, walk 1, run 1)')
    const failed = await command(
      process.execPath,
      ['bin/live-evals.js', 'validate', files.forbidden as string],
      {
        cwd: REPOSITORY,
      },
    ).then(
      () => ({ code: 0, stderr: '' }),
      (error: { code: number; stderr: string }) => error,
    )
    expect(failed.code).toBe(1)
    expect(failed.stderr).toContain('a scenario cannot forbid delegation and require a tool')
  })
})
