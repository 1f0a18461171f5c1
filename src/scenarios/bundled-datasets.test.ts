// Our bundled Juniper Table datasets: they must load, cover the situations the reference datasets cover,
// and be internally consistent, so that a correct assistant can actually pass every row. The strongest
// check replays each row's golden tool calls on its initial state with the real restaurant executor and
// grades the resulting state with the real final-state rules.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'
import { restaurantFacts } from '../assistants/responses/tools/resources.ts'
import { RestaurantTools } from '../assistants/responses/tools/restaurant-tools.ts'
import { containsExpected, verifyFinalState, verifyRunFinalState } from '../grading/final-state.ts'
import { contextMode, conversationContext } from './derived.ts'
import { type LoadedScenario, loadDataset } from './load.ts'
import { runGateProblems } from './run-gate.ts'

const CRAWL_FILE = fileURLToPath(new URL('../../scenarios/crawl/restaurant.json', import.meta.url))
const RUN_FILE = fileURLToPath(new URL('../../scenarios/run/restaurant.json', import.meta.url))
// The assistant's default voice; a caller persona with the same voice makes a live RUN refuse to start.
const ASSISTANT_VOICE = 'marin'
const NUMBER_WORDS = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
]

let crawl: LoadedScenario[]
let run: LoadedScenario[]
beforeAll(async () => {
  crawl = (await loadDataset(CRAWL_FILE)).scenarios
  run = (await loadDataset(RUN_FILE)).scenarios
})

type Row = LoadedScenario
type Args = Record<string, unknown>
const required = (row: Row) => row.expected.tools.required
const firstTool = (row: Row) => required(row)[0]?.name ?? null
const withFirstTool = (rows: Row[], name: string) => rows.filter((row) => firstTool(row) === name)
const steps = (row: Row) => row.expected.procedure?.steps ?? []
const stepsOf = (row: Row, kind: string) => steps(row).filter((step) => step.kind === kind)
const authorizedIds = (row: Row) => row.application.initial_state.authorized_reservation_ids as unknown
const initialReservations = (row: Row) => (row.application.initial_state.reservations ?? []) as Args[]
/** What the simulated caller says: the opening request, then each agenda item's hint. */
const callerUtterances = (row: Row) => [
  row.input.text,
  ...(row.simulation_parameters?.agenda ?? []).map((item) => item.response_hint),
]

/** Runs the golden tool calls in order on a private executor with the real business facts. */
function replay(row: Row) {
  const tools = new RestaurantTools({ initialState: row.application.initial_state })
  const outputs = required(row).map((call, index) =>
    tools.execute(call.name, call.arguments, `golden_${index}`),
  )
  return { outputs, final: tools.snapshot(), executions: tools.executions }
}

/** Spoken forms a caller would use for a value the procedure's correction step names. */
function spokenForms(field: string, value: unknown): string[] {
  if (field === 'date' && typeof value === 'string') {
    const [, month, day] = value.split('-').map(Number)
    return [`${MONTHS[(month ?? 0) - 1]} ${day}`]
  }
  if (field === 'party_size' && typeof value === 'number') return [NUMBER_WORDS[value] ?? '', String(value)]
  return [String(value)]
}
const mentions = (text: string, forms: string[]) =>
  forms.some((form) => form !== '' && new RegExp(`\\b${form.replace(/[.-]/g, '\\$&')}\\b`, 'i').test(text))

describe('the bundled CRAWL dataset (scenarios/crawl/restaurant.json)', () => {
  it('loads with at least 21 single-turn rows whose ids are unique and name the phase', () => {
    expect(crawl.length).toBeGreaterThanOrEqual(21)
    expect(crawl.every((row) => row.interaction === 'single_turn')).toBe(true)
    expect(new Set(crawl.map((row) => row.id.toLowerCase())).size).toBe(crawl.length)
    for (const row of crawl) expect(row.id).toMatch(/^crawl_\d{3}_[a-z0-9_]+$/)
  })

  it('gives every row a type, an answer, criteria, a two-turn golden path and an expected state', () => {
    for (const row of crawl) {
      expect(row.type, row.id).not.toBeNull()
      expect(row.expected.criteria.length, row.id).toBeGreaterThan(0)
      expect(row.expected.golden_path.turns, row.id).toBe(2)
      expect(Object.keys(row.expected.state).length, row.id).toBeGreaterThan(0)
    }
  })

  it('requires delegation for tool rows and forbids it, with an unchanged state, for tool-free rows', () => {
    for (const row of crawl) {
      if (required(row).length > 0) {
        expect([row.id, row.expected.delegation, row.expected.golden_path.delegations]).toEqual([
          row.id,
          'required',
          1,
        ])
      } else {
        expect([row.id, row.expected.delegation, row.expected.golden_path.delegations]).toEqual([
          row.id,
          'forbidden',
          0,
        ])
        expect(row.expected.state, row.id).toEqual({ unchanged: true })
      }
    }
    expect(crawl.filter((row) => row.expected.delegation === 'forbidden').length).toBeGreaterThanOrEqual(6)
  })

  it('covers 8 bookings, 4 availability checks and 3 cancellations, each with one required tool', () => {
    expect(withFirstTool(crawl, 'create_reservation')).toHaveLength(8)
    expect(withFirstTool(crawl, 'check_availability')).toHaveLength(4)
    expect(withFirstTool(crawl, 'cancel_reservation')).toHaveLength(3)
    expect(crawl.every((row) => required(row).length <= 1)).toBe(true)
  })

  it('reaches its expected state when the golden tool calls run on the initial state', () => {
    for (const row of crawl) {
      const { final } = replay(row)
      expect(verifyFinalState(row.expected.state, row.application.initial_state, final), row.id).toBe(true)
    }
  })

  it('books R-001 from an empty reservation list with exactly the booked details', () => {
    for (const row of withFirstTool(crawl, 'create_reservation')) {
      expect(initialReservations(row), row.id).toEqual([])
      const booked = (row.expected.state.reservations as Args[])[0]
      expect(booked, row.id).toEqual({
        reservation_id: 'R-001',
        ...required(row)[0]?.arguments,
        cancelled: false,
      })
    }
  })

  it('books the later value when the caller corrects the date or the party size mid-sentence', () => {
    const corrections = crawl.filter((row) => row.tags.includes('correction'))
    const dates = corrections.filter((row) => (row.input.text.match(/August \d+/g) ?? []).length >= 2)
    const parties = corrections.filter(
      (row) => (row.input.text.match(/\b(?:for|actually) \w+/g) ?? []).length >= 2,
    )
    expect([dates.length, parties.length]).toEqual([1, 1])
    for (const row of dates) {
      const spoken = row.input.text.match(/August \d+/g) ?? []
      expect(spokenForms('date', required(row)[0]?.arguments.date)).toEqual([spoken.at(-1)])
      expect(spoken[0]).not.toBe(spoken.at(-1))
    }
    for (const row of parties) {
      const spoken = [...row.input.text.matchAll(/\b(?:for|actually) (\w+)/g)].map((match) => match[1])
      expect(NUMBER_WORDS[required(row)[0]?.arguments.party_size as number]).toBe(spoken.at(-1))
      expect(spoken[0]).not.toBe(spoken.at(-1))
    }
  })

  it('uses prior context in four tool rows: three by summary and one by a four-message history', () => {
    const modes = crawl.map((row) => contextMode(row))
    expect(modes.filter((mode) => mode === 'summary')).toHaveLength(3)
    const withHistory = crawl.filter((row) => contextMode(row) === 'history')
    expect(withHistory).toHaveLength(1)
    expect(withHistory[0]?.input.context?.history).toHaveLength(4)
    for (const row of crawl.filter((row) => contextMode(row) !== 'none')) {
      expect(required(row).length, row.id).toBe(1)
      expect(conversationContext(row), row.id).not.toBe('')
    }
  })

  it('asks about the private unavailable slot and gets "not available" from the application', () => {
    const overrides = restaurantFacts().availability_overrides as Args[]
    const privateSlot = overrides.find((override) => override.available === false)
    const checks = withFirstTool(crawl, 'check_availability')
    const asked = checks.filter((row) => {
      const { date, time, party_size } = required(row)[0]?.arguments ?? {}
      return (
        date === privateSlot?.date && time === privateSlot?.time && party_size === privateSlot?.party_size
      )
    })
    expect(asked).toHaveLength(1)
    for (const row of checks) {
      expect(replay(row).outputs[0]?.available, row.id).toBe(!asked.includes(row))
    }
  })

  it('cancels R-100, R-101 and R-102, each an existing, active reservation the caller is authorized for', () => {
    const cancellations = withFirstTool(crawl, 'cancel_reservation')
    const ids = cancellations.map((row) => required(row)[0]?.arguments.reservation_id)
    expect(ids.sort()).toEqual(['R-100', 'R-101', 'R-102'])
    for (const row of cancellations) {
      const id = required(row)[0]?.arguments.reservation_id
      expect(authorizedIds(row), row.id).toContain(id)
      expect(initialReservations(row).find((held) => held.reservation_id === id)?.cancelled, row.id).toBe(
        false,
      )
    }
  })

  it('asks for a missing name, a missing time and both, and which reservation to cancel, without tools', () => {
    const clarifications = crawl.filter((row) => row.type === 'clarification')
    const tagged = (tags: string[]) =>
      clarifications.filter(
        (row) => tags.every((tag) => row.tags.includes(tag)) && row.tags.length === tags.length + 1,
      )
    expect(tagged(['missing_name'])).toHaveLength(1)
    expect(tagged(['missing_time'])).toHaveLength(1)
    expect(tagged(['missing_name', 'missing_time'])).toHaveLength(1)
    for (const row of clarifications) expect([row.id, required(row)]).toEqual([row.id, []])
    // Asking which reservation only makes sense if more than one could be meant.
    const which = clarifications.filter((row) => row.tags.includes('cancellation'))
    for (const row of which) expect((authorizedIds(row) as string[]).length, row.id).toBeGreaterThan(1)
  })

  it('answers hours and parking directly, with answers grounded in the business facts', () => {
    const information = crawl.filter((row) => row.type === 'information')
    expect(information.map((row) => row.tags.at(-1)).sort()).toEqual(['hours', 'parking'])
    const hours = information.find((row) => row.tags.includes('hours'))
    expect(hours?.expected.answer).toContain('11:00 a.m. to 10:00 p.m.')
    for (const row of information) expect(row.expected.delegation, row.id).toBe('forbidden')
  })

  it('refuses R-200 with no authorized ids, a prohibited cancel, and an executor that would deny it', () => {
    const refusals = crawl.filter((row) => row.type === 'refusal')
    expect(refusals).toHaveLength(1)
    const refusal = refusals[0] as Row
    expect(refusal.input.text).toContain('R-200')
    expect(authorizedIds(refusal)).toEqual([])
    expect(refusal.expected.tools.prohibited).toEqual([
      { name: 'cancel_reservation', arguments: {}, status: 'completed' },
    ])
    const tools = new RestaurantTools({ initialState: refusal.application.initial_state })
    expect(() => tools.execute('cancel_reservation', { reservation_id: 'R-200' })).toThrow(
      'Not authorized to cancel reservation R-200',
    )
  })
})

describe('the bundled RUN dataset (scenarios/run/restaurant.json)', () => {
  it('loads with at least 11 multi-turn rows, each passing the RUN gate and carrying a procedure', () => {
    expect(run.length).toBeGreaterThanOrEqual(11)
    expect(new Set(run.map((row) => row.id.toLowerCase())).size).toBe(run.length)
    for (const row of run) {
      expect([row.id, row.interaction, runGateProblems(row)]).toEqual([row.id, 'multi_turn', []])
      expect(row.expected.procedure, row.id).not.toBeNull()
      expect(row.id).toMatch(/^run_\d{3}_[a-z0-9_]+$/)
    }
  })

  it('counts one handoff per required tool call and follows the delegation policy', () => {
    for (const row of run) {
      expect(row.expected.golden_path.delegations, row.id).toBe(required(row).length)
      const policy = required(row).length > 0 ? 'required' : 'forbidden'
      expect(row.expected.delegation, row.id).toBe(policy)
    }
  })

  it('sets golden turns to the scripted call: the opening and each hint, with a reply between them', () => {
    for (const row of run) {
      const utterances = callerUtterances(row)
      expect(
        utterances.every((text) => text.trim() !== ''),
        row.id,
      ).toBe(true)
      // A backchannel is no turn and asks for no reply (phases/run/total-turns.ts).
      const backchannels = (row.simulation_parameters?.agenda ?? []).filter(
        (item) => item.action === 'backchannel',
      )
      expect(row.expected.golden_path.turns, row.id).toBe((utterances.length - backchannels.length) * 2 - 1)
    }
  })

  it('has a scenario family per gpt-live-1.1 policy: a backchannel, a barge-in, a request to delegate and one not to', () => {
    const family = (policy: string) => run.filter((row) => row.tags.includes(`policy:${policy}`))
    const actions = (row: Row) => (row.simulation_parameters?.agenda ?? []).map((item) => item.action)
    expect(family('backchannel').some((row) => actions(row).includes('backchannel'))).toBe(true)
    expect(family('interruption').some((row) => actions(row).includes('interrupt'))).toBe(true)
    const delegation = family('delegation').map((row) => row.expected.delegation)
    expect(delegation).toEqual(expect.arrayContaining(['required', 'forbidden']))
  })

  it('gives every caller a voice other than the assistant’s', () => {
    for (const row of run) expect(row.simulation_parameters?.persona.voice, row.id).not.toBe(ASSISTANT_VOICE)
  })

  it('reaches its expected state, and every procedure step that names tools or state, with the golden calls', () => {
    for (const row of run) {
      const { final, executions } = replay(row)
      expect(verifyRunFinalState(row.expected.state, row.application.initial_state, final), row.id).toBe(true)
      for (const step of stepsOf(row, 'tool')) {
        const done = executions.some(
          (run) => run.name === step.tool && containsExpected(step.arguments, run.arguments),
        )
        expect(done, `${row.id}/${step.id}`).toBe(true)
      }
      for (const step of stepsOf(row, 'state')) {
        expect(
          verifyRunFinalState(step.arguments, row.application.initial_state, final),
          `${row.id}/${step.id}`,
        ).toBe(true)
      }
    }
  })

  it('keeps authorization steps true to the initial authorized ids', () => {
    for (const row of run) {
      for (const step of stepsOf(row, 'authorization')) {
        const authorized = (authorizedIds(row) as string[]).includes(step.arguments.reservation_id as string)
        expect(authorized, `${row.id}/${step.id}`).toBe(step.arguments.authorized ?? true)
      }
    }
  })

  it('has the caller say each corrected value after the superseded one, and mutates only with the corrected value', () => {
    const corrected = run.filter((row) => stepsOf(row, 'correction').length > 0)
    const fields = corrected.flatMap((row) => stepsOf(row, 'correction').map((step) => step.arguments.field))
    expect(new Set(fields)).toEqual(new Set(['date', 'party_size', 'reservation_id']))
    expect(corrected.some((row) => stepsOf(row, 'correction').length >= 2)).toBe(true)
    for (const row of corrected) {
      const utterances = callerUtterances(row)
      for (const step of stepsOf(row, 'correction')) {
        const { field, value, superseded_value: superseded } = step.arguments as Args & { field: string }
        const firstSuperseded = utterances.findIndex((text) => mentions(text, spokenForms(field, superseded)))
        const lastCorrected = utterances.findLastIndex((text) => mentions(text, spokenForms(field, value)))
        expect(firstSuperseded, `${row.id}/${step.id}`).toBeGreaterThanOrEqual(0)
        expect(lastCorrected, `${row.id}/${step.id}`).toBeGreaterThan(firstSuperseded)
        const mutations = required(row).filter((call) => call.name !== 'check_availability')
        expect(mutations.length, row.id).toBeGreaterThan(0)
        for (const call of mutations) expect(call.arguments[field], `${row.id}/${step.id}`).toEqual(value)
      }
    }
  })

  it('withholds from the opening whatever a clarification step expects the assistant to ask for', () => {
    const clarified = run.flatMap((row) => stepsOf(row, 'clarification').map((step) => ({ row, step })))
    expect(new Set(clarified.map(({ step }) => step.arguments.field))).toEqual(
      new Set(['guest_name', 'time', 'reservation_id']),
    )
    for (const { row, step } of clarified) {
      const field = step.arguments.field as string
      const value = required(row).find((call) => field in call.arguments)?.arguments[field]
      expect(value, `${row.id}/${step.id}`).toBeDefined()
      expect(row.input.text, `${row.id}/${step.id}`).not.toContain(String(value))
      expect(row.input.text, `${row.id}/${step.id}`).not.toContain(
        String(row.simulation_parameters?.known_facts[field]),
      )
    }
  })

  it('covers the unavailable slot followed by an alternative, once with the caller interrupting', () => {
    const sequences = run.filter(
      (row) =>
        required(row)
          .map((call) => call.name)
          .join() === 'check_availability,check_availability,create_reservation',
    )
    expect(sequences).toHaveLength(2)
    for (const row of sequences) {
      const { outputs } = replay(row)
      expect(
        outputs.map((output) => output.available ?? null),
        row.id,
      ).toEqual([false, true, null])
      expect(required(row)[2]?.arguments.time, row.id).toBe(required(row)[1]?.arguments.time)
    }
    const interrupting = sequences.filter((row) =>
      row.simulation_parameters?.agenda.some((item) => item.action === 'interrupt'),
    )
    expect(interrupting).toHaveLength(1)
  })

  it('covers a complete booking, an authorized cancellation, a refusal and a corrected authorization', () => {
    const plainBookings = run.filter(
      (row) =>
        firstTool(row) === 'create_reservation' &&
        steps(row).every((step) => step.kind !== 'clarification' && step.kind !== 'correction'),
    )
    expect(plainBookings.length).toBeGreaterThanOrEqual(1)
    // Forbidden delegation is a refusal here, or a question answered from the facts (the delegation policy family).
    const refusals = run.filter(
      (row) => row.expected.delegation === 'forbidden' && stepsOf(row, 'refusal').length > 0,
    )
    expect(refusals).toHaveLength(1)
    const refusal = refusals[0] as Row
    expect(refusal.expected.tools.prohibited.map((call) => call.name)).toEqual(['cancel_reservation'])
    expect(refusal.expected.state).toEqual({ unchanged: true })
    expect(stepsOf(refusal, 'refusal').length).toBeGreaterThan(0)
    const cancellations = run.filter((row) => firstTool(row) === 'cancel_reservation')
    expect(cancellations).toHaveLength(2)
    const correctedAuthorization = cancellations.filter((row) => {
      const flags = stepsOf(row, 'authorization').map((step) => step.arguments.authorized ?? true)
      return flags.join() === 'false,true'
    })
    expect(correctedAuthorization).toHaveLength(1)
  })

  it('states bookings in the executor’s normalized form, because RUN compares scalars exactly', () => {
    for (const row of run.filter(
      (row) => firstTool(row) !== 'cancel_reservation' && row.expected.delegation === 'required',
    )) {
      // An availability check alone leaves the state unchanged: no booking to state.
      for (const entry of (row.expected.state.reservations ?? []) as Args[]) {
        expect(entry.date, row.id).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        expect(entry.time, row.id).toMatch(/^\d{2}:\d{2}$/)
        expect(Number.isInteger(entry.party_size), row.id).toBe(true)
        expect(entry.reservation_id, row.id).toBe('R-001')
      }
    }
  })
})

describe('both bundled datasets', () => {
  it('never use diagnostic_terms', async () => {
    for (const file of [CRAWL_FILE, RUN_FILE]) {
      const text = await readFile(file, 'utf8')
      expect(text, file).not.toContain('diagnostic_terms')
    }
    expect([...crawl, ...run].every((row) => row.expected.diagnostic_terms.length === 0)).toBe(true)
  })
})
