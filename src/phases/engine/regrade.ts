// Re-grading a finished run from its artifacts (`live-evals grade`): no session is opened, nothing is spoken. For
// each row of the run's results.json, the saved observation (the details JSON) and the validated scenario (its
// snapshot, scenario-snapshot.ts) go through today's graders, and the judge when one is given; a new run folder
// gets a new results.json, new details and the snapshots, so it can itself be re-graded.
//
//   recomputed: the deterministic grade, the judge's grades (with a judge), the assessment, the row's status and
//               task metrics, observability, the details' graded fields, the verdict of the test body
//   copied:     audio and voice metrics (measured on the session when the run recorded it), consumption (what the
//               assistant spent then), provenance, the WALK recording; a row with no details (it failed before
//               anything was observed) is copied whole
//   referenced: audio, transcripts and event logs stay in the original run; the new rows point at them by a path
//               relative to the new run folder
import { readFile } from 'node:fs/promises'
import { join, relative, resolve } from 'node:path'
import { reserveRunDirectory, writeJsonArtifact } from '../../artifacts/index.ts'
import { RESULTS_FILE } from '../../artifacts/results-file-name.ts'
import type { SemanticJudgeOptions } from '../../grading/judge/index.ts'
import type { SingleTurnGrade } from '../../grading/single-turn.ts'
import type { InteractionMetrics } from '../../metrics/interaction.ts'
import { withPacing } from '../../reporting/extensions/pacing-row.ts'
import { EXTENSION_KEY } from '../../reporting/extensions/registry.ts'
import { infrastructureErrorRow } from '../../reporting/result-item.ts'
import {
  type ResultArtifacts,
  type ResultItem,
  type ResultsDocument,
  ResultsDocumentSchema,
} from '../../reporting/result-schema.ts'
import { buildResultsDocument } from '../../reporting/results-document.ts'
import { withAssistant } from '../../reporting/row-assistant.ts'
import type { LoadedScenario } from '../../scenarios/index.ts'
import { placeholderExpectationProblem } from '../../scenarios/placeholder-expectation.ts'
import { artifactLayout } from './artifacts.ts'
import { assessObservation } from './assess.ts'
import { detailsVerdict, type ScenarioDetails, ScenarioDetailsSchema } from './details.ts'
import { buildGradedRow, gradedDetailsFields } from './graded-row.ts'
import type { SemanticAssessment } from './judge-stage.ts'
import { readScenarioSnapshot, writeScenarioSnapshot } from './scenario-snapshot.ts'

/** One re-graded scenario, as the test body's verdict sees it. */
export interface RegradedScenario {
  scenario: LoadedScenario
  details: ScenarioDetails
  grade: SingleTurnGrade
  semantic: SemanticAssessment
  /** The row the graders give, before any test-body assertion. */
  row: ResultItem
  /** The row of the original run (its verdict included). */
  original: ResultItem
}

export interface RegradeOptions {
  /** The finished run's folder (it holds results.json). */
  runDirectory: string
  /** Where the new run folder is reserved; default: beside the original. */
  resultsDir?: string
  /** The judge to run; null: deterministic graders only (semantic dimensions not_assessed). */
  judge: SemanticJudgeOptions | null
  /** The test body's verdict over the graded row (the CLI re-applies the default body's matchers). */
  verdict?: (regraded: RegradedScenario) => ResultItem
  now?: Date
}

export interface RegradeOutcome {
  directory: string
  document: ResultsDocument
  /** Rows graded again from their artifacts. */
  regraded: number
  /** Rows copied as they were (nothing observed to grade). */
  copied: number
}

export class RegradeInputError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'RegradeInputError'
  }
}

async function readJson(file: string, what: string): Promise<unknown> {
  let text: string
  try {
    text = await readFile(file, 'utf8')
  } catch (error) {
    throw new RegradeInputError(
      `${file}: cannot read ${what} (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
    )
  }
  try {
    return JSON.parse(text)
  } catch (error) {
    throw new RegradeInputError(`${file}: ${what} is not JSON (${(error as Error).message})`)
  }
}

/** The finished run's results document; the error names the file and the first problem. */
export async function readFinishedRun(runDirectory: string): Promise<ResultsDocument> {
  const file = join(runDirectory, RESULTS_FILE)
  const parsed = ResultsDocumentSchema.safeParse(await readJson(file, 'the run results'))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new RegradeInputError(
      `${file}: not a results document (${issue?.path.map(String).join('.') || '(root)'}: ${issue?.message}); ` +
        'if the run was killed, rebuild it first with `live-evals results`',
    )
  }
  if (parsed.data.run.module === 'run') {
    throw new RegradeInputError(
      `${file}: re-grading covers CRAWL and WALK runs; this is a RUN (simulated call) run`,
    )
  }
  return parsed.data
}

/** Artifact paths of the original run, made relative to the new run folder. */
function rebased(artifacts: ResultArtifacts, from: string, to: string): ResultArtifacts {
  const moved = (path: string | null) => (path === null ? null : relative(to, resolve(from, path)))
  return {
    input_audio: moved(artifacts.input_audio),
    output_audio: moved(artifacts.output_audio),
    conversation_audio: moved(artifacts.conversation_audio),
    conversation_transcript: moved(artifacts.conversation_transcript),
    events: moved(artifacts.events),
    details: moved(artifacts.details),
  }
}

export async function regradeRun(options: RegradeOptions): Promise<RegradeOutcome> {
  const from = resolve(options.runDirectory)
  const original = await readFinishedRun(from)
  const reserved = await reserveRunDirectory(
    options.resultsDir ?? resolve(from, '..'),
    `${original.run.id}-graded`,
    options.now ?? new Date(),
  )
  const to = reserved.path
  let regraded = 0
  const rows: ResultItem[] = []
  for (const row of original.results) {
    if (row.artifacts.details === null) {
      rows.push({ ...row, artifacts: rebased(row.artifacts, from, to) })
      continue
    }
    // Which assistant was evaluated is a fact of the run, not a grade: a regraded row keeps it.
    const assistant = row.observability?.[EXTENSION_KEY]?.assistant ?? null
    try {
      rows.push(withAssistant(await regradeRow(row, from, to, options), assistant))
      regraded++
    } catch (error) {
      // One unreadable scenario is that row's problem; the others are still graded.
      if (!(error instanceof RegradeInputError)) throw error
      rows.push(
        withAssistant(
          infrastructureErrorRow({
            scenario_id: row.scenario_id,
            ...(row.title === undefined ? {} : { title: row.title }),
            stage: 'input_setup',
            message: `re-grading: ${error.message}`,
            artifacts: rebased(row.artifacts, from, to),
          }),
          assistant,
        ),
      )
    }
  }
  const document = buildResultsDocument(
    {
      ...original.run,
      id: reserved.name,
      configuration: {
        ...original.run.configuration,
        regraded_from: from,
        regraded_with_judge: options.judge !== null,
      },
    },
    rows,
    original.results.map((row) => row.scenario_id),
  )
  await writeJsonArtifact(to, RESULTS_FILE, document)
  return { directory: to, document, regraded, copied: rows.length - regraded }
}

async function regradeRow(
  row: ResultItem,
  from: string,
  to: string,
  options: RegradeOptions,
): Promise<ResultItem> {
  const detailsFile = resolve(from, row.artifacts.details as string)
  const parsed = ScenarioDetailsSchema.safeParse(await readJson(detailsFile, 'the scenario details'))
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new RegradeInputError(
      `${detailsFile}: the details do not match their schema (${issue?.path.map(String).join('.')}: ${issue?.message})`,
    )
  }
  const details = parsed.data
  let scenario: LoadedScenario
  try {
    scenario = await readScenarioSnapshot(from, row.scenario_id)
  } catch (error) {
    throw new RegradeInputError((error as Error).message)
  }
  // A run made before the placeholder was refused may hold an imported call graded against it: never a pass now.
  const unwritten = placeholderExpectationProblem(scenario)
  if (unwritten !== null) throw new RegradeInputError(unwritten)
  const observation = details.observation
  const judged = await assessObservation(
    scenario,
    observation,
    details.public_business_facts ?? null,
    options.judge,
  )
  // A trial's details are in its own folder (<id>__t<i>): the row says where.
  const detailsPath = row.artifacts.details ?? artifactLayout(row.scenario_id).details
  const built = buildGradedRow({
    scenario_id: row.scenario_id,
    title: row.title ?? scenario.title,
    facts: judged.facts,
    observation,
    grade: judged.grade,
    semantic: judged.semantic,
    audio: details.interaction_metrics as InteractionMetrics,
    voice: row.observability?.[EXTENSION_KEY]?.voice_metrics,
    consumption: row.metrics.consumption,
    artifacts: { ...rebased(row.artifacts, from, to), details: detailsPath },
    audio_source: details.audio_source,
    provenance: (row.observability?.provenance as Record<string, unknown> | undefined) ?? {},
    recording: row.recording,
  })
  // How late the harness sent the call's audio was measured while the call ran, not graded: the regraded row,
  // and the details written from it (as a run writes them), keep it.
  const graded = withPacing(built, row.observability?.[EXTENSION_KEY]?.pacing)
  const final =
    options.verdict?.({
      scenario,
      details,
      grade: judged.grade,
      semantic: judged.semantic,
      row: graded,
      original: row,
    }) ?? graded
  const { verdict: _earlier, ...observed } = details
  await writeJsonArtifact(to, detailsPath, {
    ...observed,
    ...gradedDetailsFields(judged.grade, judged.semantic, graded),
    ...(final === graded ? {} : { verdict: detailsVerdict(final) }),
  })
  await writeScenarioSnapshot(to, scenario)
  return final
}
