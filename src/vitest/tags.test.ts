import { expect, test } from 'vitest'
import { architectureTag, declaredTags, phaseTag, scenarioTypeTag } from './tags.ts'

test('tag names are filterable: no spaces or filter operators survive', () => {
  expect(phaseTag('crawl')).toBe('crawl')
  expect(architectureTag('client')).toBe('assistant:client')
  expect(scenarioTypeTag('booking')).toBe('type:booking')
  expect(scenarioTypeTag('late night (patio) & bar')).toBe('type:late_night_patio_bar')
})

test('a project declares every tag a scenario can carry without reading its dataset', () => {
  const names = declaredTags('crawl').map((tag) => tag.name)
  expect(names).toEqual([
    'crawl',
    'assistant:responses',
    'assistant:client',
    'type:booking',
    'type:availability',
    'type:cancellation',
    'type:clarification',
    'type:information',
    'type:refusal',
    'type:single_turn',
    'type:multi_turn',
  ])
  expect(new Set(names).size).toBe(names.length)
})
