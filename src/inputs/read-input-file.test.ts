import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { inputFaultCases, makeFifo } from './input-file-faults.test-helpers.ts'
import {
  checkInputFile,
  type InputFileError,
  readInputFile,
  readInputFileSync,
  readInputTextSync,
} from './read-input-file.ts'

let scratch = ''
let fifo = ''

beforeAll(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'live-evals-inputs-'))
  fifo = makeFifo(scratch)
})
afterAll(async () => {
  if (scratch !== '') await rm(scratch, { recursive: true, force: true })
})

describe('every file a user names refuses a device or a FIFO at once, saying what it is', () => {
  const cases = Object.entries(inputFaultCases(() => scratch))
  test.each(cases)('%s at /dev/zero', async (_name, read) => {
    const refusal = await read('/dev/zero')
    expect(refusal).toContain('/dev/zero')
    expect(refusal).toMatch(/character device|not a regular file/)
  })

  test.each(cases)('%s at a FIFO', async (_name, read) => {
    const refusal = await read(fifo)
    expect(refusal).toContain(fifo)
    expect(refusal).toMatch(/FIFO|not a regular file/)
  })
})

describe('the bounded reader', () => {
  test('reads a regular file whole, async and sync', async () => {
    const file = path.join(scratch, 'small.txt')
    await writeFile(file, 'hello')
    expect(Buffer.from(await readInputFile(file, 5)).toString()).toBe('hello')
    expect(readInputTextSync(file, 5)).toBe('hello')
    await expect(checkInputFile(file, 5)).resolves.toBeUndefined()
  })

  test('refuses a file over its cap, a folder and a missing file, each by name', async () => {
    const file = path.join(scratch, 'big.txt')
    await writeFile(file, 'x'.repeat(100))
    const refusals = [
      await readInputFile(file, 99).catch((error: InputFileError) => error),
      (() => {
        try {
          return readInputFileSync(scratch, 99)
        } catch (error) {
          return error as InputFileError
        }
      })(),
      await readInputFile(path.join(scratch, 'absent'), 99).catch((error: InputFileError) => error),
    ]
    expect(refusals.map((error) => (error as InputFileError).refusal)).toEqual([
      { kind: 'too_large', bytes: 100, maxBytes: 99 },
      { kind: 'not_a_file', type: 'a folder' },
      { kind: 'unreadable', code: 'ENOENT' },
    ])
    expect((refusals[0] as Error).message).toBe(
      `${file} is too large: 100 bytes or more, over the limit of 99 bytes`,
    )
    expect((refusals[1] as Error).message).toBe(`${scratch} is a folder, not a regular file`)
  })

  test('reads every size whole, across read steps and their edges, as the sync reader does', async () => {
    const MiB = 1024 * 1024
    for (const size of [0, 1, 4095, 4096, 4097, MiB - 1, MiB, MiB + 1, 2.5 * MiB]) {
      const file = path.join(scratch, `sized-${size}.bin`)
      const bytes = Buffer.alloc(size)
      for (let i = 0; i < size; i++) bytes[i] = (i * 7 + (i >> 8)) & 0xff
      await writeFile(file, bytes)
      const read = await readInputFile(file, 3 * MiB)
      expect(read.length).toBe(size)
      expect(Buffer.compare(Buffer.from(read), bytes)).toBe(0)
      expect(Buffer.compare(Buffer.from(readInputFileSync(file, 3 * MiB)), bytes)).toBe(0)
    }
  })

  test('a file of unknown size (it reports 0) is still read whole', async () => {
    // /proc files report size 0 and read as much as they hold.
    const text = Buffer.from(await readInputFile('/proc/self/status', 1024 * 1024)).toString()
    expect(text).toMatch(/^Name:/)
    expect(text).toMatch(/\nPid:\s+\d+/)
  })

  test('a file that reports a small size but reads longer is stopped at the cap', async () => {
    // /proc files report size 0 and read as much as they hold: the cap is counted while reading.
    const refusal = await readInputFile('/proc/self/maps', 16).catch((error: InputFileError) => error)
    expect((refusal as InputFileError).refusal).toEqual({ kind: 'too_large', bytes: 17, maxBytes: 16 })
  })
})
