// `live-evals prune <results-dir> --keep N`: a results folder keeps every run, so a machine that runs the evaluations
// every day grows without end. Prune removes all but the newest N finished runs of each phase and architecture.
// Only folders with a results.json are runs to it: a run still going, or a killed one waiting for `live-evals
// results`, is never removed, nor dot folders (Vitest's attachment copies prune themselves) or links. Nor is the
// run `gate --latest` judges (runToJudge) when newer interrupted or filtered runs fill --keep: pruning it would
// leave the gate nothing to take, or an older run to pass on.
import { rm } from 'node:fs/promises'
import { resolve } from 'node:path'
import { type CommandIO, startCommand } from './command-start.ts'
import { byGroup, finishedRuns, runToJudge } from './run-selection.ts'

const USAGE = `Usage: live-evals prune <results-dir> --keep <N> [--dry-run]

Removes every finished run folder in <results-dir> (for example results/crawl) except the newest N of each phase
and architecture, and the run of each that live-evals gate --latest judges when newer interrupted or filtered
runs fill those N. Folders without results.json (a run still going, a killed run to rebuild with live-evals
results) and dot folders are kept. --dry-run prints what would go and removes nothing.
`

interface PruneCommand {
  folder: string
  keep: number
  dryRun: boolean
}

function parse(argv: readonly string[]): PruneCommand | string {
  const folders: string[] = []
  let keep: number | null = null
  let dryRun = false
  for (let index = 0; index < argv.length; index++) {
    const argument = argv[index] as string
    if (argument === '--dry-run') dryRun = true
    else if (argument === '--keep') {
      const text = argv[++index]
      if (text === undefined || !/^\d+$/.test(text) || Number(text) < 1) {
        return `--keep needs a whole number of runs, 1 or more (got ${text ?? 'nothing'})`
      }
      keep = Number(text)
    } else if (argument.startsWith('-')) return `unknown option ${argument}`
    else folders.push(argument)
  }
  if (folders.length !== 1) return 'name exactly one results folder'
  if (keep === null) return 'say how many runs to keep with --keep <N>'
  return { folder: resolve(folders[0] as string), keep, dryRun }
}

export async function run(argv: readonly string[], io: CommandIO): Promise<number> {
  const command = startCommand(argv, io, { name: 'prune', usage: USAGE, parse })
  if (typeof command === 'number') return command
  let groups: ReturnType<typeof byGroup>
  try {
    groups = byGroup(await finishedRuns(command.folder))
  } catch (error) {
    io.err(`live-evals prune: cannot read ${command.folder}: ${(error as Error).message}\n`)
    return 1
  }
  let removed = 0
  let kept = 0
  for (const [group, runs] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    // A run whose results.json no longer reads is not one the gate could take: nothing extra is kept for it.
    const whole = await runToJudge(runs, false).catch(() => null)
    const old = runs.slice(0, Math.max(0, runs.length - command.keep)).filter((run) => run !== whole)
    if (whole !== null && !runs.slice(-command.keep).includes(whole)) {
      io.out(`kept ${group}: ${whole.directory} (the run gate --latest judges; the newer ones are partial)\n`)
    }
    kept += runs.length - old.length
    for (const { directory } of old) {
      if (!command.dryRun) await rm(directory, { recursive: true, force: true })
      io.out(`${command.dryRun ? 'would remove' : 'removed'} ${group}: ${directory}\n`)
      removed += 1
    }
  }
  io.out(`${command.dryRun ? 'would remove' : 'removed'} ${removed} run folder(s); kept ${kept}.\n`)
  return 0
}
