import type { CommandIO } from './io.ts'

/** A CommandIO that keeps what a command printed, for tests. */
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
