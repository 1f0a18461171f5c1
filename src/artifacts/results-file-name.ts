// The name of a finished run's results file inside its run folder (schema 2.0): what the canonical reporter,
// `live-evals grade` and `live-evals results` write and what the gate, the report and `live-evals explain` read.
// A shard writes its part under another name (src/vitest/plugin/run-directories.ts). Its own small module, so a
// module of any layer (and Vitest's main process) can name the file without importing more.
export const RESULTS_FILE = 'results.json'
