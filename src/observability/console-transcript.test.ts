import { expect, test } from 'vitest'
import { rememberSecretValues } from '../config/outbound-redaction.ts'
import { consoleTranscript } from './console-transcript.ts'
import type { ToolExecution } from './observation.ts'
import { SessionTimeline } from './timeline.ts'

test('the verbose transcript Vitest prints holds no configured credential, even in a tool output', () => {
  rememberSecretValues(['gw-TRANSCRIPTCANARY-7f7f'])
  const execution = {
    name: 'check_availability',
    arguments: {},
    status: 'error',
    output: { error: 'backend refused: Authorization: Bearer gw-TRANSCRIPTCANARY-7f7f' },
  } as unknown as ToolExecution
  const text = consoleTranscript(
    'fixture',
    new SessionTimeline({ mode: 'virtual' }),
    [execution],
    'completed',
  )
  expect(text).toContain('tool check_availability')
  expect(text).toContain('[redacted]')
  expect(text).not.toContain('TRANSCRIPTCANARY')
})
