import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { copies } from './copies.ts'

const [responses, client] = copies
const assistantsDir = fileURLToPath(new URL('..', import.meta.url))

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name))
}

describe('the two restaurant copies', () => {
  test('have identical tool definitions', () => {
    expect(client.restaurantToolDefinitions()).toEqual(responses.restaurantToolDefinitions())
  })

  test('have identical business facts, public and private', () => {
    expect(client.restaurantFacts()).toEqual(responses.restaurantFacts())
    expect(client.publicBusinessFacts()).toEqual(responses.publicBusinessFacts())
    expect(responses.publicBusinessFacts()).not.toHaveProperty('availability_overrides')
  })

  test('are independent files', () => {
    expect(client.definitionsFile).not.toBe(responses.definitionsFile)
    expect(client.factsFile).not.toBe(responses.factsFile)
    expect(readFileSync(client.factsFile, 'utf8')).toBe(readFileSync(responses.factsFile, 'utf8'))
  })

  test.each([
    ['client', 'responses'],
    ['responses', 'client'],
  ])('the %s copy never imports the %s copy', (self, other) => {
    for (const file of sourceFiles(join(assistantsDir, self))) {
      const imports = [...readFileSync(file, 'utf8').matchAll(/from\s+'([^']+)'/g)].map((match) => match[1])
      for (const specifier of imports) {
        expect(specifier, `${file} imports ${specifier}`).not.toMatch(new RegExp(`(^|/)${other}/`))
      }
    }
  })
})
