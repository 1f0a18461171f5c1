// Run extension `tool_evidence`: where the run's tool executions and application state came from. A client run
// against a separately deployed application (the remote connector) takes them from that service, so its results
// compare deployments, not only architectures; an in-process run has no block (the reference's meaning).

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

export const toolEvidenceExtension = defineExtensionFeature({
  name: 'tool_evidence',
  scope: 'run',
  version: '1.0',
  summary:
    'remote_service when tool executions and state came from a separately deployed client assistant (not an architecture-only comparison)',
  schema: z.strictObject({
    source: z.literal('remote_service'),
    architecture_only_comparison: z.literal(false),
  }),
})
