// The young generation of V8's heap for every Node process of this repository's test run: the workers (through
// NODE_OPTIONS, set by vitest.config.ts) and the processes tests start (child Vitest runs, the packed package's
// commands), whose environments are cleaned of the parent's NODE_OPTIONS and get this option alone.
// V8 sizes its semi-spaces by the heap limit, so on a machine with gigabytes of memory a process's young generation
// grows to tens of megabytes: each process faults in fresh pages for it, and on two cores the parallel scavenger's
// helper threads compete with the other processes. Capped at 2 MB, a child Vitest run of the fixture project took
// 2.86 CPU s against 3.18 (user and system, five alternating runs; 1, 2 and 4 MB within 0.1 s of each other) and
// the unit run 524 CPU s and 317 s wall against 618 CPU s and 366 s (medians of two alternating runs,
// `npx node bench/test-cpu.ts --before <checkout>`). Six such pairs on two days: after/before 0.81, 0.90, 1.08,
// 0.89, 1.05 and 0.92 of the CPU (the last three one `--rounds 3` run from an idle start: medians 617 against 670 CPU
// s, 356 against 384 s wall), so a saving of about a tenth inside a noise of about as much. The evaluation suites
// alone, long-lived workers, did not change.
// Only a heap size: no test's behaviour depends on it. A size in the developer's NODE_OPTIONS wins in the workers,
// and a command-line size wins over this one: a real-time project's workers keep their 4 MB (real-time-heap.ts).

/** The Node option every process of the test run gets. */
export const TEST_HEAP_OPTION = '--max-semi-space-size=2'

const SEMI_SPACE_SIZE = /(^|\s)--(max|min)-semi-space-size(=|\s|$)/

/** `nodeOptions` with the test run's heap option added, unless it sizes the semi-space itself. */
export function withTestHeap(nodeOptions: string | undefined): string {
  const given = nodeOptions?.trim() ?? ''
  if (SEMI_SPACE_SIZE.test(given)) return given
  return given === '' ? TEST_HEAP_OPTION : `${given} ${TEST_HEAP_OPTION}`
}
