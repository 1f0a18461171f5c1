// Row extension `assistant` and run extension `assistants`: which assistant under test a row evaluated (the
// `name` of defineAssistant(), or the bundled restaurant example's when a spec file names none). One run can hold
// rows of several assistants (two spec files, each with its own), so the name is per row; the run lists the
// distinct names of its rows, in row order, recomputed from the rows on every build (results-document.ts).
// Absent on rows written before this feature (or by hand): the assistant is then unknown, never guessed.

import { z } from 'zod'
import { defineExtensionFeature } from './define.ts'

const assistantName = z.string().trim().min(1, 'an assistant name is not empty')

export const assistantExtension = defineExtensionFeature({
  name: 'assistant',
  scope: 'row',
  version: '1.0',
  summary:
    'name of the assistant under test this row evaluated (defineAssistant’s `name`, or the bundled example’s)',
  schema: assistantName,
})

export const assistantsExtension = defineExtensionFeature({
  name: 'assistants',
  scope: 'run',
  version: '1.0',
  summary: 'the distinct assistants under test of the run’s rows, in row order',
  schema: z.array(assistantName).min(1),
})
