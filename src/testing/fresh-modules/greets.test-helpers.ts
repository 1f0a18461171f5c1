// Imports greeting.test-helpers.ts, so a mock of it reaches this module only if this module is evaluated after the mock.
import { greeting } from './greeting.test-helpers.ts'

export function greet(): string {
  return `${greeting()} greeting`
}
