// What the offline voice model treats as a backchannel: a short acknowledgement a listener gives while the other
// side talks ("mm-hmm", "right", "okay"). It neither yields the floor to one nor answers it, as a conversational
// voice model should not; anything longer is speech it yields to and takes its turn on.
const BACKCHANNELS = new Set([
  'mm-hmm',
  'mhm',
  'mm',
  'uh-huh',
  'right',
  'okay',
  'ok',
  'got it',
  'yeah',
  'i see',
  'sure',
])

export function isBackchannel(text: string): boolean {
  const words = text
    .toLowerCase()
    .replace(/[.,!?…]/g, ' ')
    .trim()
    .replace(/\s+/g, ' ')
  return BACKCHANNELS.has(words)
}
