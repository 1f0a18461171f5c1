// A failing scenario's stack shows the user's frames, never those inside the installed live-evals package.
import { describe, expect, test } from 'vitest'
import { withoutPackageFrames } from './root-options.ts'

const frame = (file: string) => ({ file, line: 1, column: 1, method: 'm' })
const error = { message: 'failed' }

describe('withoutPackageFrames', () => {
  test("drops frames of node_modules/live-evals and keeps the user's and other packages'", () => {
    const filter = withoutPackageFrames(undefined)
    expect(filter(error, frame('/home/me/app/node_modules/live-evals/dist/src/vitest/suite.js'))).toBe(false)
    expect(filter(error, frame('C:\\app\\node_modules\\live-evals\\dist\\src\\vitest\\fixtures.js'))).toBe(
      false,
    )
    expect(filter(error, frame('/home/me/app/specs/orders.spec.ts'))).toBeUndefined()
    expect(filter(error, frame('/home/me/app/node_modules/live-evals-extra/index.js'))).toBeUndefined()
  })

  test("still asks the user's own onStackTrace about the frames it keeps", () => {
    const asked: string[] = []
    const filter = withoutPackageFrames((_error, kept) => {
      asked.push(kept.file)
      return !kept.file.includes('helpers')
    })
    expect(filter(error, frame('/app/node_modules/live-evals/dist/a.js'))).toBe(false)
    expect(filter(error, frame('/app/specs/helpers.ts'))).toBe(false)
    expect(filter(error, frame('/app/specs/a.spec.ts'))).toBe(true)
    expect(asked).toEqual(['/app/specs/helpers.ts', '/app/specs/a.spec.ts'])
  })
})
