// A path or argument as it appears in a command we print for the user to paste (`live-evals report <run folder>`,
// `live-evals walk generate-audio <dataset>`): single-quoted only when the shell would otherwise split or expand it.

/** `text` as one shell word. */
export function shellWord(text: string): string {
  return /^[\w./@%+=:,-]+$/.test(text) ? text : `'${text.replaceAll("'", "'\\''")}'`
}
