// The steps of one `npm test` run, from the banner npm prints as it starts each script ("> live-evals@0.1.0
// test:unit"): each step lasts from its banner to the next one, the last to the end of the run. `npm test`
// runs typecheck, lint, the unit project and the evaluation suites in turn, so the banners split its wall
// time.

/** One script's banner as npm prints it: `> <package>@<version> <script>`. */
const BANNER = /^> \S+@\S+ (\S+)$/

export interface StepClock {
  /** Call with each line of the run's output as it arrives, and the seconds since the run started. */
  line(text: string, atSeconds: number): void
  /** Seconds per script, in the order they started; the last one ends at `endSeconds`. */
  steps(endSeconds: number): Array<{ script: string; seconds: number }>
}

export function stepClock(): StepClock {
  const starts: Array<{ script: string; at: number }> = []
  return {
    line(text, atSeconds) {
      const script = BANNER.exec(text.trim())?.[1]
      if (script !== undefined) starts.push({ script, at: atSeconds })
    },
    steps(endSeconds) {
      return starts.map(({ script, at }, index) => ({
        script,
        seconds: (starts[index + 1]?.at ?? endSeconds) - at,
      }))
    },
  }
}
