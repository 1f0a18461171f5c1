// The datasets a rehearsal serves: validated like any run's (the same loader, so a broken file is refused with
// the file, the scenario and the JSON path), and what the server learns from them to hear a live run: the
// synthetic voice of every row's text (what its own text-to-speech answers for that text, so speech a live run
// cached earlier is recognised too) and every recording, with its transcript (else the row's text) and the
// speech intervals measured when it was generated.
import { syntheticSpeech } from '../../audio/synthetic-voice.ts'
import { readMonoWavFile } from '../../audio/wav.ts'
import { recordedSpeechIntervals } from '../../phases/engine/caller-sources.ts'
import {
  DatasetValidationError,
  type DatasetViolation,
  type LoadedScenario,
  loadDataset,
} from '../../scenarios/index.ts'
import type { SpeechCatalogue } from './speech-catalogue.ts'

/** Loads every dataset (every problem of every file collected), then teaches `catalogue` what they say. */
export async function loadRehearsalDatasets(
  files: readonly string[],
  catalogue: SpeechCatalogue,
): Promise<LoadedScenario[]> {
  const scenarios: LoadedScenario[] = []
  const violations: DatasetViolation[] = []
  for (const file of files) {
    try {
      const dataset = await loadDataset(file)
      violations.push(...(await learnDataset(file, dataset.scenarios, catalogue)))
      scenarios.push(...dataset.scenarios)
    } catch (error) {
      if (!(error instanceof DatasetValidationError)) throw error
      violations.push(...error.violations)
    }
  }
  if (violations.length > 0) throw new DatasetValidationError(violations)
  return scenarios
}

async function learnDataset(
  file: string,
  scenarios: readonly LoadedScenario[],
  catalogue: SpeechCatalogue,
): Promise<DatasetViolation[]> {
  const violations: DatasetViolation[] = []
  for (const [index, scenario] of scenarios.entries()) {
    const text = scenario.input.text
    if (text.trim() !== '')
      catalogue.add(syntheticSpeech(text), { text, speech: null }, { syntheticVoice: true })
    for (const [position, recording] of scenario.input.recordings.entries()) {
      try {
        const { samples } = await readMonoWavFile(recording.resolvedPath)
        const transcript = recording.metadata.transcript
        const said = typeof transcript === 'string' && transcript.trim() !== '' ? transcript : text
        const intervals = recordedSpeechIntervals(recording.metadata)
        const first = intervals?.[0]
        const last = intervals?.at(-1)
        catalogue.add(samples, {
          text: said,
          speech:
            first === undefined || last === undefined ? null : { startMs: first.startMs, endMs: last.endMs },
        })
      } catch (error) {
        violations.push({
          file,
          scenarioId: scenario.id,
          path: `scenarios[${index}].input.recordings[${position}].path`,
          message: error instanceof Error ? error.message : String(error),
        })
      }
    }
  }
  return violations
}
