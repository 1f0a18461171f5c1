import { describe, expect, test } from 'vitest'
import { readToolDefinitions } from '../../assistants/runtime/tool-definitions.ts'
import { isMutatingTool as offlineIsMutating } from '../../phases/run/offline-checks.ts'
import { isMutatingTool } from './step-evidence.ts'

const COPIES = ['responses', 'client'].map(
  (copy) => new URL(`../../assistants/${copy}/tools/definitions.json`, import.meta.url),
)

describe('one definition of a mutating tool', () => {
  test('graders and the offline self-checks agree, beyond the restaurant names', () => {
    for (const name of [
      'create_reservation',
      'cancel_reservation',
      'check_availability',
      'send_sms',
      'get_menu',
    ]) {
      expect(isMutatingTool(name)).toBe(offlineIsMutating(name))
    }
    // A user's tool that changes things but is not a reservation tool is mutating for the graders too.
    expect(isMutatingTool('send_sms')).toBe(true)
    expect(isMutatingTool('get_menu')).toBe(false)
  })

  test('both restaurant copies declare mutates on every tool, and the declaration agrees with the graders', () => {
    for (const file of COPIES) {
      const definitions = readToolDefinitions(file)
      for (const definition of definitions) {
        expect(definition.mutates, `${definition.name} in ${file.pathname}`).toBeTypeOf('boolean')
        expect(isMutatingTool(definition.name)).toBe(definition.mutates)
      }
      expect(
        definitions.filter((definition) => definition.mutates).map((definition) => definition.name),
      ).toEqual(['create_reservation', 'cancel_reservation'])
    }
  })
})
