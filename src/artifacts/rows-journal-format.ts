import { z } from 'zod'
import { RunMetadataSchema } from '../reporting/result-schema.ts'
import { artifactPathProblem } from './destinations.ts'

// The rows journal's lines. The journal is a JSON-lines file in the run folder, append-only, each line flushed
// to disk before the next step of the run:
//
//   line 1      {"journal": "live-evals rows", "version": 1, "run": {...}, "dataset_order": [...], "results_file": "results.json"}
//               (with "trials": k after "dataset_order" in a trials run)
//   then        {"key": {"scenario_id": "...", "trial": 1}, "row": {...one results.json row...}}   per finished row
//   and         {"planned": {"scenario_ids": ["..."]}}   scenarios a spec file registered that line 1 does not list
//   at the end  {"end": {"reason": "passed" | "failed" | "interrupted", "at": "<ISO time>"}}       when the run ends
//               {"end": {"reason": "killed", ...}} when `live-evals results` rebuilt a run that never ended
//
// Decision: the first line holds everything `live-evals results <run-dir>` needs to rebuild results.json
// without the configuration, the dataset or the process that ran: the run metadata (results.json's `run`
// block, already redacted), the dataset order the rows are reported in, and the results file's name (a shard
// writes its own). A journal without an end line belongs to a run that was killed (SIGKILL, power cut) or is
// still running.
// Decision: spec files that name their own scenarios (inline, or their own dataset) are known only when Vitest
// collects them, after line 1 was written; each collected file appends the ids it adds as a `planned` line, so
// a killed run's "N of M planned scenarios" counts them (M is what was collected by then) and its rows keep
// their collection order.

export const JOURNAL_KIND = 'live-evals rows'
export const JOURNAL_VERSION = 1

export const JournalHeaderSchema = z.strictObject({
  journal: z.literal(JOURNAL_KIND),
  version: z.literal(JOURNAL_VERSION),
  run: RunMetadataSchema,
  dataset_order: z.array(z.string()),
  /**
   * The trials each scenario runs (execution.trials), written only when more than one: the rows are then trials,
   * and a stopped run's `completion` counts the trials it planned. Absent: one each (or a journal written before
   * the field, whose trials are unknown; its marker then has no planned trials).
   */
  trials: z.number().int().min(2).optional(),
  // Written where the journal says, so it is checked like every artifact path (no "..", no absolute path).
  results_file: z.string().superRefine((file, ctx) => {
    const problem = artifactPathProblem(file)
    if (problem !== null) ctx.addIssue({ code: 'custom', message: problem })
  }),
})
export type JournalHeader = z.infer<typeof JournalHeaderSchema>

export const JournalRowKeySchema = z.strictObject({
  scenario_id: z.string().min(1),
  trial: z.number().int().min(1),
})
export type JournalRowKey = z.infer<typeof JournalRowKeySchema>

/** The row itself is validated when the document is built (an invalid one becomes a result_validation row). */
export const JournalRowLineSchema = z.strictObject({
  key: JournalRowKeySchema,
  row: z.record(z.string(), z.unknown()),
})

// `killed` is written by `live-evals results` when it rebuilds a run that never ended (rows-journal-ending.ts);
// unlike the others it may be followed by more lines, from a run that was in fact still running.
export const JournalEndReasonSchema = z.enum(['passed', 'failed', 'interrupted', 'killed'])
export type JournalEndReason = z.infer<typeof JournalEndReasonSchema>

export const JournalEndLineSchema = z.strictObject({
  end: z.strictObject({ reason: JournalEndReasonSchema, at: z.iso.datetime() }),
})
export type JournalEnd = z.infer<typeof JournalEndLineSchema>['end']

export const JournalPlannedLineSchema = z.strictObject({
  planned: z.strictObject({ scenario_ids: z.array(z.string().min(1)).min(1) }),
})
