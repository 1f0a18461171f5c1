// Both restaurant voice prompts carry gpt-live-1.1's policy sections (the live prompting guide's template keeps the
// headings "Backchannel policy", "Interruption policy" and "Delegation policy" and customises the text under
// them), each copy in its own file and with the same policies, so the two architectures are prompted alike.
import { describe, expect, test } from 'vitest'
import { clientVoicePrompt } from '../client/prompts/prompts.ts'
import { responsesVoicePrompt } from '../responses/prompts/prompts.ts'

const prompts = [
  ['responses', responsesVoicePrompt()],
  ['client', clientVoicePrompt()],
] as const

const HEADINGS = ['Backchannel policy:', 'Interruption policy:', 'Delegation policy:'] as const

/** The text of each policy section, from its heading to the next blank line (Delegation: to its closing lines). */
function sections(prompt: string): Record<string, string> {
  return Object.fromEntries(
    HEADINGS.map((heading) => {
      const start = prompt.indexOf(heading)
      const end =
        heading === 'Delegation policy:' ? prompt.indexOf('\n\nWhile ', start) : prompt.indexOf('\n\n', start)
      return [heading, start === -1 ? '' : prompt.slice(start, end === -1 ? undefined : end)]
    }),
  )
}

describe.each(prompts)('the %s voice prompt', (_label, prompt) => {
  test('has the three policy headings at the start of a line, in the template order', () => {
    const positions = HEADINGS.map((heading) => prompt.indexOf(`\n\n${heading}`))
    expect(positions.every((position) => position > 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
  })
  test('says when not to answer a backchannel, to stop when interrupted, and when to delegate and not', () => {
    const text = sections(prompt)
    expect(text['Backchannel policy:']).toMatch(/do not answer it/)
    expect(text['Interruption policy:']).toMatch(/Stop speaking as soon as the guest interrupts/)
    expect(text['Delegation policy:']).toMatch(/Backend tools:\n- /)
    expect(text['Delegation policy:']).toMatch(/Delegate to the backend when:\n- /)
    expect(text['Delegation policy:']).toMatch(
      /Do not delegate to the backend when:\n- .*opening hours or parking/,
    )
  })
})

test('the two copies state the same backchannel and interruption policies', () => {
  const [responses, client] = prompts.map(([, prompt]) => sections(prompt))
  expect(client?.['Backchannel policy:']).toBe(responses?.['Backchannel policy:'])
  expect(client?.['Interruption policy:']).toBe(responses?.['Interruption policy:'])
})
