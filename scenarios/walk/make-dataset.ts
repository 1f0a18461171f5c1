// Regenerates restaurant.json and audio/*.wav, the bundled WALK dataset, from the CRAWL dataset beside it.
// Seven CRAWL scenarios (one of each kind: booking, in-utterance correction, availability, cancellation,
// clarification, information, refusal) each get a clean baseline and three conditioned variants, so every
// preset is covered and each condition can be compared with the same scenario's clean recording
// (source_scenario_id). Rows equal their CRAWL source except the id and the recording; seeds run 41, 42, ...
// The recordings are Debian's espeak-ng (apt-get install -y espeak-ng), voice en-us at 160 words per minute,
// recorded by the same code as `live-evals walk generate-audio`. The committed WAVs are what the suite uses;
// nothing runs this at test time. Run: npx node scenarios/walk/make-dataset.ts (the same bytes every time).
import { execFileSync } from 'node:child_process'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { generateAudio } from '../../src/phases/walk/generate-audio.ts'
import { espeakEngine } from '../../src/phases/walk/speech/espeak.ts'

const here = import.meta.dirname
const SOURCES = [
  'crawl_001_booking_complete_request',
  'crawl_003_booking_corrected_date',
  'crawl_009_availability_open_slot',
  'crawl_013_cancel_authorized_r100',
  'crawl_016_clarify_missing_name',
  'crawl_020_hours',
  'crawl_022_refuse_unauthorized_cancel',
]
// realistic first: it is the preset closest to a real call, so it gets the most rows.
const CONDITIONED = ['realistic', 'noisy', 'telephony', 'background_speech', 'echo', 'packet_loss'] as const
const FIRST_SEED = 41

const crawl = JSON.parse(await readFile(join(here, '../crawl/restaurant.json'), 'utf8')) as {
  scenarios: ({ id: string; input: Record<string, unknown> } & Record<string, unknown>)[]
}
const rows: unknown[] = []
for (const [index, sourceId] of SOURCES.entries()) {
  const source = crawl.scenarios.find((scenario) => scenario.id === sourceId)
  if (source === undefined) throw new Error(`the CRAWL dataset has no ${sourceId}`)
  const base = sourceId.replace(/^crawl_/, 'walk_')
  const conditions = ['clean', ...[0, 1, 3].map((step) => CONDITIONED[(index + step) % CONDITIONED.length])]
  for (const condition of conditions) {
    const id = condition === 'clean' ? base : `${base}_${condition}`
    const recording = {
      id: 'caller_recording',
      path: `audio/${id}.wav`,
      condition,
      metadata: {
        language: 'en',
        generation: { source_scenario_id: sourceId, seed: FIRST_SEED + rows.length },
      },
    }
    rows.push({
      ...structuredClone(source),
      id,
      input: { ...structuredClone(source.input), recordings: [recording] },
    })
  }
}
const dataset = join(here, 'restaurant.json')
await writeFile(dataset, `${JSON.stringify({ schema_version: '1.0', scenarios: rows }, null, 2)}\n`)
const report = await generateAudio({
  dataset,
  engine: await espeakEngine(),
  force: true,
  log: (line) => console.log(line),
})
// The repository's formatter decides the layout of committed JSON (`npm run lint` checks it).
execFileSync(join(here, '../../node_modules/.bin/biome'), ['format', '--write', dataset], {
  stdio: 'inherit',
})
console.log(`${report.outputDataset}: ${report.rows} rows, ${report.written.length} recordings`)
