// Quoting what a dataset's author wrote inside a violation message. Author text can be anything up to the
// file size limit (a 48 MB key, an id of a million characters), so a message shows a short prefix and says
// how long the rest is: enough to find it in the file, never the whole thing echoed back.

/** Characters of author text a message shows before cutting it short. */
const QUOTED_PREFIX_CHARACTERS = 40
/** Items of an author's list a message names before summarizing the rest. */
const QUOTED_LIST_ITEMS = 5

/** `text` as a JSON string literal, cut to a short prefix when it is long. */
export function quoteText(text: string): string {
  if (text.length <= QUOTED_PREFIX_CHARACTERS) return JSON.stringify(text)
  const prefix = JSON.stringify(text.slice(0, QUOTED_PREFIX_CHARACTERS))
  return `${prefix.slice(0, -1)}..." (${text.length} characters)`
}

/** Characters of a file path a message shows whole: a path is bounded by the system, unlike author text. */
const QUOTED_PATH_CHARACTERS = 1024
/** Characters kept from the end of a longer path: its file name, where the prefix would keep only folders. */
const QUOTED_PATH_TAIL_CHARACTERS = 80

/**
 * A file path as a JSON string literal, whole up to 1024 characters. A recording under a deep folder was cut to
 * its first 40 characters like author text, which dropped its file name, the part a reader needs.
 */
export function quotePath(path: string): string {
  if (path.length <= QUOTED_PATH_CHARACTERS) return JSON.stringify(path)
  const tail = JSON.stringify(path.slice(-QUOTED_PATH_TAIL_CHARACTERS))
  return `"...${tail.slice(1)} (${path.length} characters)`
}

/** `"a", "b", "c"`, or the first few and how many more. */
export function quoteTexts(texts: readonly string[]): string {
  const shown = texts.slice(0, QUOTED_LIST_ITEMS).map(quoteText).join(', ')
  const more = texts.length - QUOTED_LIST_ITEMS
  return more > 0 ? `${shown} and ${more} more` : shown
}
