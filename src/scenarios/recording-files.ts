// `validate` checks each recording path the way the WALK reader will read it (src/inputs/read-input-file.ts):
// a device, a FIFO, a folder or an oversized file is a problem now, not a worker that hangs or exhausts memory
// later. A recording that does not exist yet is not: `walk generate-audio` makes them after the dataset is written,
// so it is only counted, for `validate` to say which command makes it.
// One that exists is decoded as the run decodes it (mono 16-bit PCM at 24000 Hz), so a text file named .wav or a
// stereo 8 kHz call is found by `validate` in CI, not by the run that would have used it.
import { decodeMonoWav, WAV_CONVERT_HINT, WavFormatError } from '../audio/wav.ts'
import {
  describeInputFileRefusal,
  INPUT_FILE_CAPS,
  InputFileError,
  readInputFile,
} from '../inputs/read-input-file.ts'
import type { LoadedDataset } from './load.ts'
import { quotePath } from './quote.ts'
import type { DatasetViolation } from './violations.ts'

export interface RecordingFileCheck {
  violations: DatasetViolation[]
  /** Resolved paths of the recordings that do not exist yet, in dataset order. */
  missing: string[]
}

export async function recordingFileViolations(dataset: LoadedDataset): Promise<DatasetViolation[]> {
  return (await checkRecordingFiles(dataset)).violations
}

export async function checkRecordingFiles(dataset: LoadedDataset): Promise<RecordingFileCheck> {
  const violations: DatasetViolation[] = []
  const missing: string[] = []
  for (const [scenarioIndex, scenario] of dataset.scenarios.entries()) {
    for (const [index, recording] of scenario.input.recordings.entries()) {
      const violation = (problem: string) =>
        violations.push({
          file: dataset.file,
          scenarioId: scenario.id,
          path: `scenarios[${scenarioIndex}].input.recordings[${index}].path`,
          message: `the recording ${quotePath(recording.resolvedPath)} ${problem}`,
        })
      let bytes: Uint8Array
      try {
        bytes = await readInputFile(recording.resolvedPath, INPUT_FILE_CAPS.recording)
      } catch (error) {
        if (!(error instanceof InputFileError)) throw error
        if (error.refusal.kind === 'unreadable' && error.refusal.code === 'ENOENT') {
          missing.push(recording.resolvedPath)
          continue
        }
        violation(describeInputFileRefusal(error.refusal))
        continue
      }
      try {
        decodeMonoWav(bytes, recording.resolvedPath)
      } catch (error) {
        if (!(error instanceof WavFormatError)) throw error
        violation(`${error.problems.join('; ')}. ${WAV_CONVERT_HINT}`)
      }
    }
  }
  return { violations, missing }
}
