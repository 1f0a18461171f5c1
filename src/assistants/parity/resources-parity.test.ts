import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, resolve, sep } from 'node:path'
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

/**
 * The relative import specifiers in `source` (the text of `file`) that resolve inside `dir`. Package
 * paths such as 'openai/resources/responses/...' only share a word with a copy and are not counted.
 */
function importsInto(file: string, source: string, dir: string): string[] {
  return [...source.matchAll(/\b(?:from|import)\s*\(?\s*'([^']+)'/g)]
    .map((match) => match[1] ?? '')
    .filter((specifier) => specifier.startsWith('.'))
    .filter((specifier) => resolve(dirname(file), specifier).startsWith(dir + sep))
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
      const reaching = importsInto(file, readFileSync(file, 'utf8'), join(assistantsDir, other))
      expect(reaching, `${file} imports the ${other} copy`).toEqual([])
    }
  })

  test('the import check finds static, side-effect, re-export and dynamic imports, not package paths', () => {
    const file = join(assistantsDir, 'client', 'offline', 'example.ts')
    const source = [
      "import { a } from '../../responses/tools/resources.ts'",
      "import '../../responses/offline/extract.ts'",
      "export { b } from '../../responses/tools/arguments.ts'",
      "const c = await import('../../responses/tools/restaurant-tools.ts')",
      "import type { D } from 'openai/resources/responses/responses'",
      "import { e } from '../tools/resources.ts'",
    ].join('\n')
    expect(importsInto(file, source, join(assistantsDir, 'responses'))).toEqual([
      '../../responses/tools/resources.ts',
      '../../responses/offline/extract.ts',
      '../../responses/tools/arguments.ts',
      '../../responses/tools/restaurant-tools.ts',
    ])
  })
})
