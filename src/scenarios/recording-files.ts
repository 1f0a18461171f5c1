// `validate` checks each recording path the way the WALK reader will read it (src/inputs/read-input-file.ts):
// a device, a FIFO, a folder or an oversized file is a problem now, not a worker that hangs or exhausts memory
// later. A recording that does not exist yet is not: `walk generate-audio` makes them after the dataset is written.
import {
  checkInputFile,
  describeInputFileRefusal,
  INPUT_FILE_CAPS,
  InputFileError,
} from '../inputs/read-input-file.ts'
import type { LoadedDataset } from './load.ts'
import { quotePath } from './quote.ts'
import type { DatasetViolation } from './violations.ts'

export async function recordingFileViolations(dataset: LoadedDataset): Promise<DatasetViolation[]> {
  const violations: DatasetViolation[] = []
  for (const [scenarioIndex, scenario] of dataset.scenarios.entries()) {
    for (const [index, recording] of scenario.input.recordings.entries()) {
      try {
        await checkInputFile(recording.resolvedPath, INPUT_FILE_CAPS.recording)
      } catch (error) {
        if (!(error instanceof InputFileError)) throw error
        if (error.refusal.kind === 'unreadable' && error.refusal.code === 'ENOENT') continue
        violations.push({
          file: dataset.file,
          scenarioId: scenario.id,
          path: `scenarios[${scenarioIndex}].input.recordings[${index}].path`,
          message: `the recording ${quotePath(recording.resolvedPath)} ${describeInputFileRefusal(error.refusal)}`,
        })
      }
    }
  }
  return violations
}
