import { z } from 'zod'
import { jsonRecordOf, listOf, nonEmptyString } from './json-object.ts'
import { quoteText, quoteTexts } from './quote.ts'
import { EACH, whenParsed } from './when-parsed.ts'

// `simulation_parameters`: what the simulated caller of a RUN scenario knows and intends. Only the
// caller brief reads it; the assistant under test never sees it.

const tendency = () => z.number().min(0).max(1)

export const PersonaSchema = z.strictObject({
  id: nonEmptyString().default('default'),
  description: z.string().default('A polite, concise caller who stops once their request is resolved.'),
  voice: nonEmptyString().default('coral'),
  // The reference gives no default here; empty means "no extra speaking style".
  speech_instructions: z.string().default(''),
  verbosity: z.string().default('brief'),
  interrupt_tendency: tendency().default(0.15),
  backchannel_tendency: tendency().default(0.25),
  backchannels: listOf(z.string()).default(() => ['Mm-hmm.', 'Right.']),
})
export type Persona = z.infer<typeof PersonaSchema>

/** The caller used when a scenario names none. A fresh copy each call: callers may not share state. */
export function defaultPersona(): Persona {
  return PersonaSchema.parse({})
}

export const CallerActionSchema = z.enum(['answer', 'correct', 'backchannel', 'interrupt', 'finish', 'wait'])
export type CallerAction = z.infer<typeof CallerActionSchema>

/** Actions that only end or pause the call; they do not count as something the caller has to get done. */
export const NON_SUBSTANTIVE_ACTIONS: ReadonlySet<CallerAction> = new Set(['finish', 'wait'])

export const CallerAgendaItemSchema = z.strictObject({
  id: nonEmptyString(),
  commitment: nonEmptyString(),
  trigger_condition: nonEmptyString(),
  completion_condition: nonEmptyString(),
  completion_basis: z.enum(['expression', 'live_context']).default('expression'),
  wording_policy: z
    .enum(['adapt_to_live_context', 'source_exact_preferred'])
    .default('adapt_to_live_context'),
  action: CallerActionSchema,
  facts: listOf(z.string()).default(() => []),
  response_hint: z.string().default(''),
  after: listOf(z.string()).default(() => []),
  required: z.boolean().default(true),
})
export type CallerAgendaItem = z.infer<typeof CallerAgendaItemSchema>

export const KnownFactValueSchema = z.union([z.string(), z.number(), z.boolean()])

export const SimulationParametersSchema = z
  .strictObject({
    goal: z.string().default(''),
    known_facts: jsonRecordOf(KnownFactValueSchema).default(() => ({})),
    expectations: listOf(z.string()).default(() => []),
    // A missing or null persona is the default caller, so every parsed scenario has a concrete one.
    persona: PersonaSchema.nullish().transform((persona) => persona ?? defaultPersona()),
    agenda: listOf(CallerAgendaItemSchema).default(() => []),
  })
  .superRefine(
    (parameters, ctx) => {
      const earlier = new Set<string>()
      parameters.agenda.forEach((item, index) => {
        if (earlier.has(item.id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['agenda', index, 'id'],
            message: `duplicate caller agenda item ${quoteText(item.id)}`,
          })
        }
        const unknownFacts = item.facts.filter((fact) => !Object.hasOwn(parameters.known_facts, fact))
        if (unknownFacts.length > 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['agenda', index, 'facts'],
            message: `caller agenda item ${quoteText(item.id)} references unknown facts ${quoteTexts(unknownFacts)}; facts must be keys of known_facts`,
          })
        }
        const missingPrior = item.after.filter((reference) => !earlier.has(reference))
        if (missingPrior.length > 0) {
          ctx.addIssue({
            code: 'custom',
            path: ['agenda', index, 'after'],
            message: `caller agenda item ${quoteText(item.id)} references missing prior items ${quoteTexts(missingPrior)}; after may only name earlier items`,
          })
        }
        earlier.add(item.id)
      })
    },
    {
      when: whenParsed(
        ['agenda', EACH, 'id'],
        ['agenda', EACH, 'facts'],
        ['agenda', EACH, 'after'],
        ['known_facts'],
      ),
    },
  )
export type SimulationParameters = z.infer<typeof SimulationParametersSchema>
