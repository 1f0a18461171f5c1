// `walk generate-audio`: make the recordings a dataset asks for, and the dataset entries that describe them.
//
// Fill (no conditions given): every recording entry of the selected single-turn rows whose WAV is missing is
//   recorded from the row (its text, condition, seed) and written where the entry points; a WAV already there
//   is kept unless `force`. This is how a reference-toolkit WALK dataset, shipped without its WAVs, becomes
//   runnable unchanged: its entries keep their own metadata and ours is written beside it.
// Variation (conditions given): each selected single-turn row becomes one new row per condition, equal to it
//   except the id (`<id>_<condition>`) and the recording (`audio/<new id>.wav` beside the output dataset);
//   seeds count up from `seed`. With `varyConditions` each selected row gets one condition instead, cycling
//   through the conditions given (all seven when none is), as the reference's bundled variants do. Rows go
//   into a new dataset, or are added to an existing one with `append`
//   (an existing dataset is replaced only with `force`).
// Every WAV is written before the dataset that names it, each atomically; the dataset is validated against the
// contract before it is written, so a failure leaves the previous dataset as it was.

import { access, mkdir } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { writeFileAtomically } from '../../artifacts/atomic-file.ts'
import { CONDITIONS, parseCondition } from '../../audio/effects/index.ts'
import { encodeMonoWav, readMonoWavFile } from '../../audio/wav.ts'
import { type LoadedScenario, loadDataset, parseDataset } from '../../scenarios/index.ts'
import { withGeneration } from './provenance.ts'
import {
  appendTarget,
  type RawDataset,
  type RawRecording,
  type RawScenario,
  readRawDataset,
} from './raw-dataset.ts'
import { makeRecording } from './record.ts'
import { recordingRequest } from './recording-request.ts'
import type { SpeechEngine } from './speech/engine.ts'

export interface GenerateAudioOptions {
  dataset: string
  /** Where the dataset is written (default: over `dataset`). */
  outputDataset?: string
  engine: SpeechEngine
  /** Record again even where a WAV exists; with conditions, replace an existing output dataset or rows. */
  force?: boolean
  /** With conditions: add the new rows to the existing output dataset. */
  append?: boolean
  /** Variation: one new row per selected row and condition. Empty: fill the missing recordings. */
  conditions?: readonly string[]
  /** Variation with one condition per row, cycling through `conditions` (default: all seven). */
  varyConditions?: boolean
  /** Only these rows (ids); default every single-turn row (fill: every one with recordings). */
  scenarioIds?: readonly string[]
  /** The seed of recordings that name none (fill), or the first of the new rows (variation). Default 0. */
  seed?: number
  /** §5 overrides applied to every recording made. */
  overrides?: Record<string, number | string>
  /** One line per recording written or kept. */
  log?: (line: string) => void
}

export interface GenerateAudioReport {
  outputDataset: string
  written: string[]
  kept: string[]
  rows: number
}

async function exists(file: string): Promise<boolean> {
  return access(file).then(
    () => true,
    () => false,
  )
}

function selected(
  scenarios: readonly LoadedScenario[],
  ids: readonly string[] | undefined,
): LoadedScenario[] {
  const singleTurn = scenarios.filter((scenario) => scenario.interaction === 'single_turn')
  if (ids === undefined || ids.length === 0) return singleTurn
  const unknown = ids.filter((id) => !singleTurn.some((scenario) => scenario.id === id))
  if (unknown.length > 0) {
    throw new Error(
      `no single-turn scenario ${unknown.map((id) => `"${id}"`).join(', ')} in the dataset; ` +
        `it has: ${singleTurn.map((scenario) => scenario.id).join(', ') || '(none)'}`,
    )
  }
  return singleTurn.filter((scenario) => ids.includes(scenario.id))
}

export async function generateAudio(options: GenerateAudioOptions): Promise<GenerateAudioReport> {
  const input = resolve(options.dataset)
  const output = resolve(options.outputDataset ?? options.dataset)
  const loaded = await loadDataset(input)
  const raw = await readRawDataset(input)
  const report: GenerateAudioReport = { outputDataset: output, written: [], kept: [], rows: 0 }
  const given = options.conditions ?? []
  const conditions = options.varyConditions && given.length === 0 ? CONDITIONS : given
  const document =
    conditions.length === 0
      ? await fill(loaded.scenarios, raw, output, options, report)
      : await vary(loaded.scenarios, raw, output, conditions, options, report)
  report.rows = document.scenarios.length
  // Nothing recorded and nowhere else to write: the dataset stays byte for byte as its author formatted it.
  if (report.written.length === 0 && output === input) return report
  const text = `${JSON.stringify(document, null, 2)}\n`
  parseDataset(text, output) // the contract's whole check, before anything is replaced
  await writeFileAtomically(output, text)
  return report
}

async function writeRecording(
  options: GenerateAudioOptions,
  scenario: LoadedScenario,
  entry: RawRecording,
  condition: string,
  file: string,
  report: GenerateAudioReport,
): Promise<void> {
  const request = recordingRequest(
    scenario,
    { condition, metadata: entry.metadata ?? {} },
    { seed: options.seed ?? 0, overrides: options.overrides ?? {} },
  )
  const made = await makeRecording(options.engine, request)
  await mkdir(dirname(file), { recursive: true })
  await writeFileAtomically(file, encodeMonoWav(made.samples))
  entry.metadata = withGeneration(entry.metadata ?? {}, made.generation, made.callerSpeechIntervals)
  report.written.push(file)
  options.log?.(`${file}: ${scenario.id}, ${condition}, seed ${request.seed} (${options.engine.engine})`)
}

async function fill(
  scenarios: readonly LoadedScenario[],
  raw: RawDataset,
  output: string,
  options: GenerateAudioOptions,
  report: GenerateAudioReport,
): Promise<RawDataset> {
  const outputFolder = dirname(output)
  for (const scenario of selected(scenarios, options.scenarioIds)) {
    const rawScenario = raw.scenarios.find((candidate) => candidate.id === scenario.id)
    const entries = rawScenario?.input.recordings ?? []
    for (const [index, recording] of scenario.input.recordings.entries()) {
      const entry = entries[index] as RawRecording
      // The path stays as the dataset wrote it, so it resolves beside the dataset that is written.
      const file = resolve(outputFolder, recording.path)
      if (!options.force && (await exists(file))) {
        try {
          await readMonoWavFile(file)
        } catch (error) {
          throw new Error(
            `scenario ${scenario.id}, recording "${recording.id}": ${(error as Error).message} ` +
              'It is kept as it is; --force records it again.',
          )
        }
        report.kept.push(file)
        options.log?.(`${file}: kept (--force records it again)`)
        continue
      }
      await writeRecording(options, scenario, entry, recording.condition, file, report)
    }
  }
  return raw
}

async function vary(
  scenarios: readonly LoadedScenario[],
  raw: RawDataset,
  output: string,
  conditions: readonly string[],
  options: GenerateAudioOptions,
  report: GenerateAudioReport,
): Promise<RawDataset> {
  for (const condition of conditions) parseCondition(condition)
  const outputExists = await exists(output)
  if (outputExists && !options.append && !options.force) {
    throw new Error(
      `${output} exists; --append adds the new rows to it, --force replaces it with only the new rows`,
    )
  }
  const base: RawDataset =
    outputExists && options.append
      ? output === resolve(options.dataset)
        ? raw
        : await appendTarget(output)
      : { schema_version: '1.0', scenarios: [] }
  const plan = selected(scenarios, options.scenarioIds).flatMap((scenario, index) =>
    (options.varyConditions ? [conditions[index % conditions.length] as string] : conditions).map(
      (condition) => {
        const id = `${scenario.id}_${condition}`
        const path = join('audio', `${id}.wav`)
        return { scenario, condition, id, path, file: resolve(dirname(output), path) }
      },
    ),
  )
  // Everything that would stop the run is checked before the first recording is made.
  const replaced = new Set(plan.map((row) => row.id))
  const clashes = base.scenarios.filter((row) => replaced.has(row.id))
  if (clashes.length > 0 && !options.force) {
    throw new Error(
      `${output} already has ${clashes.map((row) => `"${row.id}"`).join(', ')}; --force replaces them`,
    )
  }
  for (const { file } of plan) {
    if (!options.force && (await exists(file))) throw new Error(`${file} exists; --force records it again`)
  }
  const added: RawScenario[] = []
  for (const [index, { scenario, condition, id, path, file }] of plan.entries()) {
    const source = raw.scenarios.find((candidate) => candidate.id === scenario.id) as RawScenario
    const sourceMetadata = scenario.input.recordings[0]?.metadata ?? {}
    const entry: RawRecording = {
      id: 'caller_recording',
      path,
      condition,
      // The new row varies the scenario its source varies, and keeps its transcript if it has one.
      metadata: {
        generation: {
          source_scenario_id: sourceScenarioOf(scenario.id, sourceMetadata),
          seed: (options.seed ?? 0) + index,
        },
        ...(typeof sourceMetadata.transcript === 'string' ? { transcript: sourceMetadata.transcript } : {}),
      },
    }
    await writeRecording(options, scenario, entry, condition, file, report)
    const { recordings: _dropped, ...sourceInput } = source.input
    added.push({
      ...structuredClone(source),
      id,
      input: { ...structuredClone(sourceInput), recordings: [entry] },
    })
  }
  return { ...base, scenarios: [...base.scenarios.filter((row) => !replaced.has(row.id)), ...added] }
}

function sourceScenarioOf(id: string, metadata: Record<string, unknown>): string {
  const generation = metadata.generation as Record<string, unknown> | undefined
  const ours = (metadata.live_evals as Record<string, unknown> | undefined)?.generation as
    | Record<string, unknown>
    | undefined
  const named = [ours?.source_scenario_id, generation?.source_scenario_id].find(
    (value): value is string => typeof value === 'string' && value !== '',
  )
  return named ?? id
}
