// What `live-evals explain` hands the project's own Vitest run for one failed scenario: the re-run plan. The
// command writes it into the explain folder and names it in LIVE_EVALS_EXPLAIN_PLAN; the project's live-evals
// plugin reads it when Vitest starts (src/vitest/plugin/startup.ts), and the run then re-runs that scenario, as
// the run ran it, under each arm (unchanged, then one intervention each) k times, through the spec file that
// evaluated it: its assistant, its tools, its test body. Each arm's rows go to their own run folder,
// `<directory>/<arm>/results.json`, which the command reads back (project-reruns.ts).
//
// The plan crosses a process boundary as a file, so it is a zod schema; the scenario in it is a one-scenario
// dataset document (the run folder's snapshot), validated by the scenario contract when it is read.
import { z } from 'zod'
import { FaultsRecordSchema } from '../faults/events.ts'
import { INPUT_FILE_CAPS, InputFileError, readInputTextSync } from '../inputs/read-input-file.ts'
import { type LoadedScenario, parseDataset } from '../scenarios/index.ts'
import { ASSISTANT_ARCHITECTURES } from '../vitest/settings.ts'
import { RerunSchema } from './schema.ts'

/** The variable naming the plan file for the project's Vitest run (set by `live-evals explain`, not by hand). */
export const EXPLAIN_PLAN_VARIABLE = 'LIVE_EVALS_EXPLAIN_PLAN'

/** The one change an arm makes to the re-run (interventions.ts decides which apply; arm-env.ts carries them out). */
export const ArmChangeSchema = z.discriminatedUnion('kind', [
  /** WALK: the clean recording of the same request (from scenario `from`) instead of the one under a preset. */
  z.strictObject({
    kind: z.literal('recording'),
    from: z.string().min(1),
    /** Its recordings as a dataset writes them (paths absolute); checked by the scenario contract in the child. */
    recordings: z.array(z.record(z.string(), z.unknown())).min(1),
  }),
  z.strictObject({ kind: z.literal('caller_condition'), condition: z.literal('clean') }),
  z.strictObject({ kind: z.literal('text_caller') }),
  z.strictObject({ kind: z.literal('remove_barge_in'), id: z.string().min(1) }),
  z.strictObject({ kind: z.literal('delegation'), policy: z.enum(['suppress', 'force']) }),
  z.strictObject({ kind: z.literal('faults'), off: z.enum(['results', 'all']) }),
])
export type ArmChange = z.infer<typeof ArmChangeSchema>

export const RerunPlanSchema = z.strictObject({
  /** The phase of the run: only that phase's project re-runs it. */
  phase: z.enum(['crawl', 'walk', 'run']),
  scenario_id: z.string().min(1),
  /** The assistant the run evaluated (its row's `assistant`); null when the run did not record it. */
  assistant: z.string().min(1).nullable(),
  architecture: z.enum(ASSISTANT_ARCHITECTURES),
  /** Absolute: each arm's run folder is `<directory>/<arm>`. */
  directory: z.string().min(1),
  /** The scenario as the run ran it: its snapshot, a one-scenario dataset document. */
  scenario: z.record(z.string(), z.unknown()),
  /** The fault profile the failed row ran under, as its record names it; null when it ran clean. */
  faults: FaultsRecordSchema.pick({ profile: true, seed: true, source: true }).nullable(),
  /** One draw per trial (k = its length); every arm uses the same draw for the same trial. */
  draws: z.array(RerunSchema.shape.draws).min(1),
  /** `control` (no change) first, then one arm per intervention; the arm names folders. */
  arms: z
    .array(
      z.strictObject({
        arm: z.string().regex(/^[A-Za-z0-9_.-]+$/, 'must be a folder name'),
        change: ArmChangeSchema.nullable(),
      }),
    )
    .min(1),
  /** What the run recorded about how it ran (mode, models, clock, ...), as settings overrides. */
  settings: z.record(z.string(), z.record(z.string(), z.unknown())),
})
export type RerunPlan = z.infer<typeof RerunPlanSchema>

const isScenario = (value: unknown): value is LoadedScenario =>
  typeof value === 'object' && value !== null && typeof (value as { id?: unknown }).id === 'string'

/** The plan as the project's run carries it (in its run plan): each arm's scenario parsed by the contract. */
export const LoadedRerunPlanSchema = RerunPlanSchema.omit({ scenario: true, arms: true }).extend({
  arms: z
    .array(
      z.strictObject({
        arm: z.string().min(1),
        change: ArmChangeSchema.nullable(),
        scenario: z.custom<LoadedScenario>(isScenario, { error: 'must be a loaded scenario' }),
      }),
    )
    .min(1),
})
export type LoadedRerunPlan = z.infer<typeof LoadedRerunPlanSchema>

export class RerunPlanError extends Error {
  constructor(file: string, problem: string) {
    super(
      `${EXPLAIN_PLAN_VARIABLE} ${file}: ${problem} (it is written by live-evals explain; run that instead)`,
    )
    this.name = 'RerunPlanError'
  }
}

/** The scenario an arm runs: the run's, or with a clean recording in place of the one under a preset. */
function armScenario(plan: RerunPlan, change: ArmChange | null, file: string): LoadedScenario {
  const document = structuredClone(plan.scenario) as { scenarios?: { input?: Record<string, unknown> }[] }
  const scenario = document.scenarios?.[0]
  if (change?.kind === 'recording' && scenario?.input !== undefined) {
    scenario.input.recordings = change.recordings
  }
  const parsed = parseDataset(JSON.stringify(document), file).scenarios
  if (parsed.length !== 1 || parsed[0]?.id !== plan.scenario_id) {
    throw new RerunPlanError(file, `its scenario must be exactly ${plan.scenario_id}`)
  }
  return parsed[0]
}

/** Reads and checks a plan file; every problem is a RerunPlanError naming the file and the field. */
export function readRerunPlan(file: string): LoadedRerunPlan {
  let value: unknown
  try {
    value = JSON.parse(readInputTextSync(file, INPUT_FILE_CAPS.dataset))
  } catch (error) {
    throw new RerunPlanError(file, error instanceof InputFileError ? error.message : 'is not JSON')
  }
  const parsed = RerunPlanSchema.safeParse(value)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new RerunPlanError(file, `${issue?.path.map(String).join('.') || '(root)'}: ${issue?.message}`)
  }
  const plan = parsed.data
  if (plan.arms[0]?.change !== null) throw new RerunPlanError(file, 'arms[0] must be the unchanged control')
  const { scenario: _document, arms, ...rest } = plan
  try {
    return {
      ...rest,
      arms: arms.map((arm) => ({ ...arm, scenario: armScenario(plan, arm.change, file) })),
    }
  } catch (error) {
    if (error instanceof RerunPlanError) throw error
    throw new RerunPlanError(file, (error as Error).message)
  }
}
