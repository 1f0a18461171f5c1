// The start every command shares: help, a parsed command line, or a usage error naming the command.
import { describe, expect, test } from 'vitest'
import { captureIO } from './capture-io.ts'
import { EXIT_USAGE, startCommand } from './command-start.ts'

const command = {
  name: 'demo',
  usage: 'Usage: live-evals demo <file>\n',
  parse: (argv: readonly string[]) => (argv.length === 1 ? { file: argv[0] as string } : 'name one file'),
}

describe('the start of a command', () => {
  test('--help and -h print the usage and end with exit 0', () => {
    for (const flag of ['--help', '-h']) {
      const io = captureIO()
      expect(startCommand(['x', flag], io, command)).toBe(0)
      expect(io.stdout()).toBe(command.usage)
    }
  })

  test('a command line the parser refuses is a usage error naming the command, the reason and the usage', () => {
    const io = captureIO()
    expect(startCommand([], io, command)).toBe(EXIT_USAGE)
    expect(io.stderr()).toBe(`live-evals demo: name one file\n\n${command.usage}`)
  })

  test('otherwise the parsed arguments', () => {
    expect(startCommand(['a.json'], captureIO(), command)).toEqual({ file: 'a.json' })
  })
})
