// The default body asserts the same matchers, in the same order and softness, for a run and for a re-grade.
import { expect, test } from 'vitest'
import { assertDefaultBody } from './default-body.ts'

function asserted(judged: boolean): string[] {
  const seen: string[] = []
  assertDefaultBody(judged, (matcher, soft) => seen.push(`${matcher}${soft ? ' (soft)' : ''}`))
  return seen
}

test('without a judge: tool calls and delegation softly, then the task', () => {
  expect(asserted(false)).toEqual([
    'toMatchToolCalls (soft)',
    'toFollowDelegationPolicy (soft)',
    'toCompleteTask',
  ])
})

test('with a judge: the rubric too, before the task', () => {
  expect(asserted(true)).toEqual([
    'toMatchToolCalls (soft)',
    'toFollowDelegationPolicy (soft)',
    'toSatisfyRubric (soft)',
    'toCompleteTask',
  ])
})

test('a conversation (RUN): the tool contract is diagnostic, so no toMatchToolCalls', () => {
  const seen: string[] = []
  assertDefaultBody(true, (matcher, soft) => seen.push(`${matcher}${soft ? ' (soft)' : ''}`), 'multi_turn')
  expect(seen).toEqual(['toFollowDelegationPolicy (soft)', 'toSatisfyRubric (soft)', 'toCompleteTask'])
})

test('a run in which nothing was observed: the task alone, so its failure is shown once', () => {
  const seen: string[] = []
  assertDefaultBody(
    true,
    (matcher, soft) => seen.push(`${matcher}${soft ? ' (soft)' : ''}`),
    'single_turn',
    false,
  )
  expect(seen).toEqual(['toCompleteTask'])
})
