// The transcript of a recorded call, as `live-evals import-call --transcript` reads it: plain text, one utterance
// per line, each starting with who spoke (`caller:`, or `agent:` / `assistant:` for the side that answered).
// Blank lines and lines starting with `#` are skipped. A line without a speaker is refused with its number, never
// guessed: the caller's lines become what the WALK scenario's caller says, the agent's what the recording's agent
// said (a replayed caller's departure point is found against them).

export interface CallTranscript {
  caller: string[]
  agent: string[]
}

const SPEAKER = /^\s*(caller|agent|assistant)\s*:\s*(.*)$/i

export class CallTranscriptError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'CallTranscriptError'
  }
}

export function parseCallTranscript(text: string, file: string): CallTranscript {
  const transcript: CallTranscript = { caller: [], agent: [] }
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/)
  lines.forEach((line, index) => {
    if (line.trim() === '' || line.trimStart().startsWith('#')) return
    const match = SPEAKER.exec(line)
    if (match === null) {
      throw new CallTranscriptError(
        `${file} line ${index + 1}: start it with who spoke ("caller:" or "agent:"), e.g. "caller: I'd like a table"`,
      )
    }
    const said = (match[2] as string).trim()
    if (said === '') return
    if ((match[1] as string).toLowerCase() === 'caller') transcript.caller.push(said)
    else transcript.agent.push(said)
  })
  if (transcript.caller.length === 0) {
    throw new CallTranscriptError(`${file}: no "caller:" line; the transcript must say what the caller said`)
  }
  return transcript
}
