import { describe, expect, it } from 'vitest'
import { projectRelativePath } from './project-path.ts'

describe('projectRelativePath', () => {
  it('names a file inside the project from its root, one outside with ../, the root itself as .', () => {
    expect(projectRelativePath('/home/team/app', '/home/team/app/scenarios/walk/restaurant.json')).toBe(
      'scenarios/walk/restaurant.json',
    )
    expect(projectRelativePath('/home/team/app', '/home/team/shared/cache')).toBe('../shared/cache')
    expect(projectRelativePath('/home/team/app/', '/home/team/app')).toBe('.')
    expect(projectRelativePath('/home/team/app', 'data/set.json')).toBe('data/set.json')
  })
})
