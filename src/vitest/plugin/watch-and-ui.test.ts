// `vitest --watch` and `vitest --ui` on the fixture project, offline, in one child Vitest process that keeps
// running while the tests talk to it. Watch: editing the dataset or the TOML file reruns the suite with the
// new content (both are read, not imported, so only the plugin's watch triggers can notice them), a dataset
// the TOML file names after an edit is watched from then on, and one saved broken fails only that rerun, which
// writes nothing, while the process keeps watching. UI: on a machine without a desktop nothing tries to open a
// browser, and the UI server serves an audio attachment kept in a results folder outside the project (Vite's
// server.fs.allow).
// One child, `--ui --watch`, for the three tests in order (each child's start and first run costs seconds of
// CPU): the plugin's watch triggers ask only whether Vitest watches (`vitest.config.watch` in root-options.ts
// rerunOnInputChange), which `--watch` sets with or without `--ui`. The UI test reads what the first run
// printed; each watch test judges only what its own edits printed, and the second edits the files the first left.
import { copyFile, readdir, readFile, rename, writeFile } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { afterAll, beforeAll, expect, test } from 'vitest'
import { unusedLoopbackPort } from '../../testing/unused-port.test-helpers.ts'
import {
  FIXTURE_CONFIG,
  ROOT,
  type RunningVitest,
  runDirectoriesIn,
  SPAWN_TIMEOUT_MS,
  scratch,
  startVitest,
} from '../child-vitest.test-helpers.ts'

const FIXTURES = join(ROOT, 'src/vitest/fixtures')
const SUMMARY = /(\d+) passed, (\d+) failed.*$/gm
/** The closing line of a rerun that could not start (reporters/summary-line.ts). */
const NOT_STARTED =
  '0 passed, 0 failed; the CRAWL run did not start (its problem is above), nothing of it was written'
/** The fixture's spec file failed (printed by Vitest's reporter, on stderr). */
const FAILED_SPEC = /FAIL .*tiny\.spec\.ts/

/**
 * Saves `text` as `file` in one step (a temporary file renamed over it), as many editors do. A plain writeFile
 * truncates first, and a rerun may read the file in between and find it empty: that rerun fails (see the test
 * of a file saved broken), while these tests are about what a rerun does with the content they saved.
 */
async function save(file: string, text: string): Promise<void> {
  await writeFile(`${file}.saving`, text)
  await rename(`${file}.saving`, file)
}

/** The dataset a crawl.toml's text names, as a path (relative to the TOML file's folder). */
function datasetNamedBy(toml: string, settings: string): string {
  const named = /^path = "(.+)"$/m.exec(settings)?.[1]
  if (named === undefined) throw new Error(`${toml} names no dataset:\n${settings}`)
  return resolve(dirname(toml), named)
}

/** The closing `N passed, N failed` lines printed so far, whole. */
const summaries = (output: string) => [...output.matchAll(SUMMARY)].map((match) => match[0])

/**
 * `vitest --ui --watch` on the fixture project without a desktop (no DISPLAY and no BROWSER: a server or a
 * container), reading copies of its dataset and TOML file in a scratch folder (the tests edit them), with its
 * results folder in the system temp folder, once its first run has printed its summary.
 */
async function watchingCopies() {
  const space = await scratch()
  const dataset = join(space.dir, 'tiny-dataset.json')
  const toml = join(space.dir, 'crawl.toml')
  await copyFile(join(FIXTURES, 'tiny-dataset.json'), dataset)
  await copyFile(join(FIXTURES, 'crawl.toml'), toml)
  const port = await unusedLoopbackPort()
  const child = startVitest(
    ['--ui', '--watch', '--config', FIXTURE_CONFIG, '--api.host=127.0.0.1', `--api.port=${port}`],
    {
      ...space.env,
      LIVE_EVALS_CONFIG: toml,
      OPENAI_ASSISTANT_MODE: 'responses',
      DISPLAY: '',
      WAYLAND_DISPLAY: '',
      BROWSER: '',
    },
  )
  childToStop = child
  const firstRun = await child.waitFor((output) => summaries(output).length > 0)
  return { space, dataset, toml, port, child, firstRun }
}

let childToStop: RunningVitest | undefined
let watching: Awaited<ReturnType<typeof watchingCopies>>

beforeAll(async () => {
  watching = await watchingCopies()
}, SPAWN_TIMEOUT_MS)

afterAll(async () => {
  await childToStop?.stop()
})

test('vitest --ui without a desktop opens no browser and serves attachments kept outside the project', async () => {
  const { space, port, firstRun } = watching
  expect(firstRun).not.toMatch(/xdg-open|spawn .* ENOENT|Unhandled/)
  const token = /\/__vitest__\/\?token=([\w-]+)/.exec(firstRun)?.[1]
  expect(token, firstRun).toBeDefined()

  const attachments = join(space.dir, 'results', '.attachments')
  const wav = (await readdir(attachments)).find((name) => name.endsWith('.wav'))
  expect(wav).toBeDefined()
  const path = join(attachments, wav ?? '')
  const url = new URL(`http://127.0.0.1:${port}/__vitest_attachment__`)
  url.search = new URLSearchParams({ path, contentType: 'audio/wav', token: token ?? '' }).toString()
  const response = await fetch(url)
  expect(response.status).toBe(200)
  expect(response.headers.get('content-type')).toBe('audio/wav')
  const body = Buffer.from(await response.arrayBuffer())
  expect(body.equals(await readFile(path))).toBe(true)
  expect(body.subarray(0, 4).toString('latin1')).toBe('RIFF')
})

test(
  'in watch mode, a changed dataset or config.toml reruns the suite with the new content',
  async () => {
    const { space, dataset, toml, child } = watching

    // Judged by content, not by counting reruns: a watcher may also rerun for unrelated edits.
    const renamed = 'Question about opening hours, asked again after an edit'
    let edited = child.output().length
    const text = await readFile(dataset, 'utf8')
    await save(dataset, text.replace('Question about opening hours', renamed))
    const afterDataset = (output: string) => output.slice(edited)
    await child.waitFor(
      (output) => afterDataset(output).includes(renamed) && summaries(afterDataset(output)).length > 0,
    )
    expect(summaries(afterDataset(child.output()))).toContain('1 passed, 1 failed')

    // The TOML now keeps only the first scenario (the failing one): the rerun resolved the settings again.
    edited = child.output().length
    await save(toml, (await readFile(toml, 'utf8')).replace('[execution]', '[execution]\nmax_examples = 1'))
    await child.waitFor((output) => summaries(output.slice(edited)).includes('0 passed, 1 failed'))

    // The TOML now names another dataset (and every scenario again): the rerun reads it, and from then on the
    // other dataset's edits rerun too.
    const other = join(space.dir, 'other-dataset.json')
    const fromOther = 'Opening hours, from the other dataset'
    await save(other, text.replace('Question about opening hours', fromOther))
    edited = child.output().length
    const settings = (await readFile(toml, 'utf8'))
      .replace('"tiny-dataset.json"', '"other-dataset.json"')
      .replace('max_examples = 1\n', '')
    await save(toml, settings)
    await child.waitFor(
      (output) => output.slice(edited).includes(fromOther) && summaries(output.slice(edited)).length > 0,
    )
    expect(summaries(child.output().slice(edited))).toContain('1 passed, 1 failed')
    edited = child.output().length
    const otherEdited = 'Opening hours, from the other dataset, edited'
    await save(other, text.replace('Question about opening hours', otherEdited))
    await child.waitFor((output) => output.slice(edited).includes(otherEdited))

    // A TOML file that names a dataset not written yet: the spec file says it does not exist, and writing the
    // dataset reruns.
    const third = join(space.dir, 'third-dataset.json')
    edited = child.output().length
    await save(toml, settings.replace('"other-dataset.json"', '"third-dataset.json"'))
    await child.waitFor((output) => output.slice(edited).includes(`${third} (dataset.path`))
    await child.waitFor((output) => summaries(output.slice(edited)).length > 0)
    const fromThird = 'Opening hours, from a dataset written after the TOML named it'
    edited = child.output().length
    await save(third, text.replace('Question about opening hours', fromThird))
    await child.waitFor((output) => output.slice(edited).includes(fromThird))

    // One that is broken when the TOML names it: that rerun cannot start, and fixing the dataset reruns.
    const fourth = join(space.dir, 'fourth-dataset.json')
    await save(fourth, text.slice(0, text.length / 2))
    edited = child.output().length
    await save(toml, settings.replace('"other-dataset.json"', '"fourth-dataset.json"'))
    await child.waitFor((output) => output.slice(edited).includes(`${fourth}: 1 problem`))
    const fromFourth = 'Opening hours, from a dataset fixed after the TOML named it'
    edited = child.output().length
    await save(fourth, text.replace('Question about opening hours', fromFourth))
    await child.waitFor((output) => output.slice(edited).includes(fromFourth))
    // That rerun's closing line too (the broken rerun's may come after `edited`): the next test shares this
    // child, and its edits must not land in this rerun.
    await child.waitFor((output) => summaries(output.slice(output.indexOf(fromFourth, edited))).length > 0)
  },
  SPAWN_TIMEOUT_MS * 2,
)

test(
  'in watch mode, a dataset or config.toml saved broken fails that rerun and keeps watching; the fixed file reruns',
  async () => {
    // The files as the test before left them: the TOML file names a dataset of all the fixture's scenarios.
    const { space, toml, child } = watching
    const dataset = datasetNamedBy(toml, await readFile(toml, 'utf8'))
    const results = join(space.dir, 'results')
    const earlierRuns = await runDirectoriesIn(results)
    const earlierResults = await Promise.all(
      earlierRuns.map((run) => readFile(join(results, run, 'results.json'), 'utf8')),
    )

    /**
     * Saves `file` broken and returns what the rerun printed: its problem, the spec file's FAIL and its closing
     * line. The closing line (stdout) and the FAIL lines (stderr) are printed together at the run's end and reach
     * this process through two pipes, in either order: waiting for the closing line alone once returned before
     * the FAIL line had arrived.
     */
    const rerunBroken = async (file: string, text: string) => {
      const edited = child.output().length
      await save(file, text)
      const rerunPrinted = (output: string) => {
        const rerun = output.slice(edited)
        return rerun.includes('cannot start') && FAILED_SPEC.test(rerun) && summaries(rerun).length > 0
      }
      return (await child.waitFor(rerunPrinted)).slice(edited)
    }
    /** Saves `file` fixed and returns the summary line of the rerun that ran scenarios again. */
    const rerunFixed = async (file: string, text: string) => {
      const edited = child.output().length
      await save(file, text)
      const ran = (output: string) => summaries(output.slice(edited)).filter((line) => line !== NOT_STARTED)
      return ran(await child.waitFor((printed) => ran(printed).length > 0))
    }
    /** The run folders this test's reruns added (a failed rerun adds none); the earlier runs' stay as they were. */
    const expectRunFoldersAdded = async (runs: number) => {
      expect(await runDirectoriesIn(results)).toHaveLength(earlierRuns.length + runs)
      for (const [index, run] of earlierRuns.entries())
        expect(await readFile(join(results, run, 'results.json'), 'utf8')).toBe(earlierResults[index])
    }

    // Truncated, as a save caught half-way: the rerun prints the startup problem naming the file, each spec file
    // fails with it, nothing runs, and the process keeps watching.
    const valid = await readFile(join(FIXTURES, 'tiny-dataset.json'), 'utf8')
    const datasetBroken = await rerunBroken(dataset, valid.slice(0, valid.length / 2))
    expect(datasetBroken).toContain('live-evals: the CRAWL run cannot start')
    expect(datasetBroken).toContain(`${dataset}: 1 problem`)
    expect(datasetBroken).toContain('malformed JSON')
    expect(summaries(datasetBroken)).toEqual([NOT_STARTED])
    expect(datasetBroken).not.toMatch(/Unhandled|Results: /)
    await expectRunFoldersAdded(0)
    const renamed = 'Question about opening hours, asked again after a broken save'
    expect(await rerunFixed(dataset, valid.replace('Question about opening hours', renamed))).toEqual([
      '1 passed, 1 failed',
    ])
    expect(child.output()).toContain(renamed)
    await expectRunFoldersAdded(1)

    const settings = await readFile(toml, 'utf8')
    const tomlBroken = await rerunBroken(toml, `${settings}\n[execution\n`)
    expect(tomlBroken).toContain('live-evals: the CRAWL run cannot start')
    expect(tomlBroken).toContain(toml)
    expect(summaries(tomlBroken)).toEqual([NOT_STARTED])
    expect(tomlBroken).not.toMatch(/Unhandled|Results: /)
    await expectRunFoldersAdded(1)
    expect(await rerunFixed(toml, settings.replace('[execution]', '[execution]\nmax_examples = 1'))).toEqual([
      '0 passed, 1 failed',
    ])
    await expectRunFoldersAdded(2)
  },
  SPAWN_TIMEOUT_MS * 2,
)
