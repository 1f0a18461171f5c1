import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HarnessConfigError } from '../../../config/errors.ts'
import {
  interventionsFor,
  loadInterventions,
  MAX_INTERVENTIONS_FILE_BYTES,
  parseInterventions,
  parseInterventionsBytes,
} from './load.ts'

const FILE = 'specs/run/interventions.json'
const IDS = ['run_001', 'run_002']

const document = (interventions: unknown, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ schema_version: '1.0', interventions, ...extra })

/** The problems a refused schedule lists, one per line. */
function problemsOf(text: string, ids: readonly string[] = IDS): readonly string[] {
  try {
    parseInterventions(text, FILE, ids)
  } catch (error) {
    expect(error).toBeInstanceOf(HarnessConfigError)
    return (error as HarnessConfigError).problems
  }
  throw new Error('the schedule was accepted')
}

describe('interventions sidecar', () => {
  it('reads each scenario’s interventions in order, with the trigger made explicit', () => {
    const schedule = parseInterventions(
      document({
        run_001: [
          { id: 'cut-in', kind: 'barge_in', text: ' Sorry, one thing. ', trigger: { at_ms: 4_000 } },
          {
            id: 'ack.1',
            kind: 'backchannel',
            text: 'Mm-hmm.',
            trigger: { while_assistant_speaking_ms: 1_500, occurrence: 2, after_caller_line: 1 },
          },
          { id: 'plain', kind: 'barge_in', text: 'Hold on.', trigger: { while_assistant_speaking_ms: 900 } },
        ],
      }),
      FILE,
      IDS,
    )
    expect(interventionsFor(schedule, 'run_001')).toEqual([
      { id: 'cut-in', kind: 'barge_in', text: 'Sorry, one thing.', trigger: { type: 'at', at_ms: 4_000 } },
      {
        id: 'ack.1',
        kind: 'backchannel',
        text: 'Mm-hmm.',
        trigger: { type: 'while_assistant_speaking', ms: 1_500, occurrence: 2, after_caller_line: 1 },
      },
      {
        id: 'plain',
        kind: 'barge_in',
        text: 'Hold on.',
        trigger: { type: 'while_assistant_speaking', ms: 900, occurrence: 1, after_caller_line: null },
      },
    ])
    expect(interventionsFor(schedule, 'run_002')).toEqual([])
  })

  it('no file means no interventions', async () => {
    const schedule = await loadInterventions(null, IDS)
    expect(schedule.size).toBe(0)
  })

  it('names the file and the field of every problem, all at once', () => {
    const problems = problemsOf(
      document(
        {
          run_001: [
            { id: 'a', kind: 'barge_in', text: 'x', trigger: { at_ms: 1, while_assistant_speaking_ms: 2 } },
            { id: 'b', kind: 'interrupt', text: 'x', trigger: {} },
            { id: 'c', kind: 'barge_in', text: '', trigger: { at_ms: -5 } },
            { id: 'd', kind: 'barge_in', text: 'x', trigger: { at_ms: 10, occurrence: 2 } },
            { id: 'a', kind: 'barge_in', text: 'x', trigger: { at_ms: 10 }, when: 'now' },
          ],
          run_002: [
            {
              id: 'e',
              kind: 'backchannel',
              text: 'Yes and also could you book it for five?',
              trigger: { while_assistant_speaking_ms: 0 },
            },
          ],
        },
        { version: 2 },
      ),
    )
    const expected = [
      'version: unknown field "version" (the file holds "schema_version" and "interventions")',
      'interventions.run_001[0].trigger: needs exactly one of "at_ms"',
      'interventions.run_001[1].kind: must be one of "barge_in", "backchannel", got "interrupt"',
      'interventions.run_001[1].trigger: needs exactly one of "at_ms"',
      'interventions.run_001[2].text: must not be empty',
      'interventions.run_001[2].trigger.at_ms: must be >= 0, got -5',
      'interventions.run_001[3].trigger.occurrence: applies only to a "while_assistant_speaking_ms"',
      'interventions.run_001[4].when: unknown field "when"',
      'interventions.run_002[0].trigger.while_assistant_speaking_ms: must be > 0, got 0',
      'interventions.run_002[0].text: a backchannel is a short acknowledgement of at most 4 words (got 9)',
    ]
    for (const [index, fragment] of expected.entries()) {
      expect(problems[index]).toContain(`Interventions file ${FILE}: ${fragment}`)
    }
    expect(problems).toHaveLength(expected.length)
  })

  it('refuses a backchannel that is a request, an id that is not a plain name, and a repeated id', () => {
    const problems = problemsOf(
      document({
        run_001: [
          { id: 'a', kind: 'backchannel', text: 'Yes, and make it five please.', trigger: { at_ms: 1 } },
          { id: 'b', kind: 'barge_in', text: 'x', trigger: { at_ms: 1 } },
          { id: 'b', kind: 'barge_in', text: 'y', trigger: { at_ms: 2 } },
          { id: 'no spaces', kind: 'barge_in', text: 'y', trigger: { at_ms: 2 } },
        ],
      }),
    )
    expect(problems).toEqual([
      expect.stringContaining(
        'interventions.run_001[0].text: a backchannel is a short acknowledgement of at most 4 words (got 6)',
      ),
      expect.stringContaining(
        'interventions.run_001[3].id: must be 1-64 letters, digits, "_", "." or "-", starting with a letter or digit',
      ),
      expect.stringContaining('interventions.run_001[2].id: duplicate intervention id "b"'),
    ])
  })

  it('refuses a scenario id the dataset does not hold (a misspelled schedule would never run)', () => {
    const problems = problemsOf(document({ run_01: [], ['__proto__']: [] }))
    expect(problems).toEqual([
      `Interventions file ${FILE}: interventions.run_01: scenario "run_01" is not in the dataset (check the id, or remove its entry)`,
      `Interventions file ${FILE}: interventions.__proto__: scenario "__proto__" is not in the dataset (check the id, or remove its entry)`,
    ])
  })

  it('refuses what is not a schedule with the file named', () => {
    expect(problemsOf('{"schema_version": "1.0", ')[0]).toMatch(
      /^Interventions file specs\/run\/interventions\.json: malformed JSON at line 1, column 27/,
    )
    expect(problemsOf('[]')).toEqual([
      `Interventions file ${FILE}: (file): must be a JSON object with "schema_version" and "interventions", got a list`,
    ])
    expect(problemsOf(JSON.stringify({ schema_version: '2.0', interventions: [] }))).toEqual([
      `Interventions file ${FILE}: schema_version: must be "1.0", got "2.0"`,
      `Interventions file ${FILE}: interventions: must be an object of intervention lists keyed by scenario id, got a list`,
    ])
    expect(problemsOf('{}')).toEqual([
      `Interventions file ${FILE}: schema_version: missing required field (must be "1.0")`,
      `Interventions file ${FILE}: interventions: missing required field (an object of intervention lists keyed by scenario id)`,
    ])
    expect(problemsOf(document({ run_001: { id: 'x' } }))).toEqual([
      `Interventions file ${FILE}: interventions.run_001: must be a list, got an object`,
    ])
  })

  it('refuses invalid UTF-8 and an oversized file by their bytes', () => {
    expect(() => parseInterventionsBytes(new Uint8Array([0x7b, 0xff, 0x7d]), FILE, IDS)).toThrow(
      `Interventions file ${FILE}: invalid UTF-8 at byte offset 1`,
    )
    expect(() =>
      parseInterventionsBytes(new Uint8Array(MAX_INTERVENTIONS_FILE_BYTES + 1), FILE, IDS),
    ).toThrow(/is 1048577 bytes; an interventions file may be at most 1048576 bytes/)
  })
})

describe('interventions file on disk', () => {
  let folder: string
  beforeAll(async () => {
    folder = await mkdtemp(path.join(tmpdir(), 'interventions-'))
  })
  afterAll(async () => {
    await rm(folder, { recursive: true, force: true })
  })

  it('loads a file with a byte-order mark', async () => {
    const file = path.join(folder, 'ok.json')
    await writeFile(
      file,
      `\uFEFF${document({ run_002: [{ id: 'a', kind: 'backchannel', text: 'Right.', trigger: { at_ms: 0 } }] })}`,
    )
    const schedule = await loadInterventions(file, IDS)
    expect(interventionsFor(schedule, 'run_002').map((intervention) => intervention.id)).toEqual(['a'])
  })

  it('a missing file or a folder is refused with its path and what to check', async () => {
    const missing = path.join(folder, 'missing.json')
    await expect(loadInterventions(missing, IDS)).rejects.toThrow(
      `Interventions file ${missing}: cannot be read (ENOENT); check simulation.interventions_file`,
    )
    const sub = path.join(folder, 'sub')
    await mkdir(sub)
    await expect(loadInterventions(sub, IDS)).rejects.toThrow(
      `Interventions file ${sub}: is not a regular file`,
    )
  })
})
