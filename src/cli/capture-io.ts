// Test support: a CommandIO that keeps what a command printed.
import type { CommandIO } from './command-start.ts'

export function captureIO(): CommandIO & { stdout: () => string; stderr: () => string } {
  let stdout = ''
  let stderr = ''
  return {
    out: (text) => {
      stdout += text
    },
    err: (text) => {
      stderr += text
    },
    stdout: () => stdout,
    stderr: () => stderr,
  }
}
