// Scenario tests skipped with a reason (ctx.skip(note); scenarioSuite skips a fault scenario whose profile the run
// turned off): the run's closing lines say how many and why, so a skip is never silent.

/** One line for the skipped scenario tests that carry a note, or null when none does. */
export function skippedScenariosLine(notes: readonly string[]): string | null {
  if (notes.length === 0) return null
  const [first] = notes
  const more = notes.length - 1
  return `${notes.length} skipped: ${first}${more === 0 ? '' : ` (and ${more} more, each with its reason in the test's skip note)`}`
}
