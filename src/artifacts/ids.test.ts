import { describe, expect, it } from 'vitest'
import { artifactIdProblem, isArtifactSafeId } from './ids.ts'

describe('artifact-safe ids', () => {
  it.each(['restaurant_001', 'a', 'A.b-c_9', 'x'.repeat(100), 'console', 'COM10'])('accepts %s', (id) => {
    expect(artifactIdProblem(id)).toBeNull()
  })

  it.each([
    ['', '1-100 characters'],
    ['x'.repeat(101), '1-100 characters'],
    ['_leading', 'start with a letter or digit'],
    ['.hidden', 'start with a letter or digit'],
    ['has space', 'only ASCII'],
    ['café', 'only ASCII'],
    ['a/b', 'only ASCII'],
    ['trailing.', 'must not end with "."'],
    ['CON', 'Windows device name'],
    ['nul.txt', 'Windows device name'],
    ['lpt9', 'Windows device name'],
  ])('rejects %j', (id, reason) => {
    expect(artifactIdProblem(id)).toContain(reason)
    expect(isArtifactSafeId(id)).toBe(false)
  })
})
