// The input fault matrix (issue 23, point 2): every kind of file a user names, each read through its real entry
// point, given a path that is a device or a FIFO. Shared by the test (each must be refused, naming what the path
// is) and bench/input-file-refusals.ts (how long each refusal takes). A case resolves to the refusal's text and
// rejects when the path was accepted.
import { execFileSync } from 'node:child_process'
import { writeFile } from 'node:fs/promises'
import path from 'node:path'
import { loadBackgroundBed } from '../audio/effects/background-source.ts'
import { readMonoWavFile } from '../audio/wav.ts'
import { MonoWavReader } from '../audio/wav-stream.ts'
import { captureIO } from '../cli/capture-io.ts'
import { main } from '../cli/main.ts'
import { loadEnvironment } from '../config/env-file.ts'
import { loadPhaseConfig } from '../config/load.ts'
import type { RunSettings } from '../config/schema.ts'
import { readAssistantFirstPrompt } from '../phases/run/assistant-first-prompt.ts'
import { loadInterventions } from '../phases/run/interventions/load.ts'
import { datasetText, setPath, singleTurnRaw } from '../scenarios/fixtures/builders.ts'
import { loadDataset } from '../scenarios/load.ts'

export type InputFault = 'character device (/dev/zero)' | 'FIFO (mkfifo)'

/** A FIFO nobody writes to, in `folder`. */
export function makeFifo(folder: string, name = 'input.fifo'): string {
  const fifo = path.join(folder, name)
  execFileSync('mkfifo', [fifo])
  return fifo
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error))

async function refusalOf(read: () => unknown): Promise<string> {
  try {
    await read()
  } catch (error) {
    return messageOf(error)
  }
  throw new Error('the path was accepted')
}

async function commandRefusal(argv: string[]): Promise<string> {
  const io = captureIO()
  const code = await main(argv, io)
  if (code === 0) throw new Error(`live-evals ${argv[0]} accepted the path: ${io.stdout()}`)
  return io.stderr()
}

/** Each kind of input, read through the code that reads it in a run, with `file` as its path. */
export function inputFaultCases(scratch: () => string): Record<string, (file: string) => Promise<string>> {
  return {
    dataset: (file) => refusalOf(() => loadDataset(file)),
    'config (LIVE_EVALS_CONFIG)': (file) =>
      refusalOf(() => loadPhaseConfig('crawl', null, { env: { LIVE_EVALS_CONFIG: file }, cwd: scratch() })),
    'env file (LIVE_EVALS_ENV_FILE)': (file) =>
      refusalOf(() => loadEnvironment({ env: { LIVE_EVALS_ENV_FILE: file }, cwd: scratch() })),
    'WALK recording': (file) => refusalOf(() => readMonoWavFile(file)),
    'streamed recording': (file) => refusalOf(() => MonoWavReader.open(file)),
    'background bed': (file) => refusalOf(() => loadBackgroundBed(file, scratch())),
    interventions: (file) => refusalOf(() => loadInterventions(file, null)),
    'assistant-first prompt': (file) =>
      refusalOf(() =>
        readAssistantFirstPrompt({ simulation: { assistant_first_prompt_file: file } } as RunSettings),
      ),
    'live-evals audio': (file) => commandRefusal(['audio', 'clean', file, path.join(scratch(), 'out.wav')]),
    // --no-thresholds: a gate with nothing to check is refused before it reads the file.
    'live-evals gate (results file)': (file) => commandRefusal(['gate', file, '--no-thresholds']),
    'live-evals validate (recording path)': async (file) => {
      const dataset = path.join(scratch(), `recorded-${path.basename(file)}.json`)
      const recorded = setPath(singleTurnRaw('recorded'), 'input.recordings', [{ id: 'take', path: file }])
      await writeFile(dataset, datasetText([recorded]))
      return commandRefusal(['validate', dataset])
    },
  }
}
