import { expect, test } from 'vitest'
import { architectureTag, phaseTag, scenarioTypeTag } from './tags.ts'

test('tag names are filterable: no spaces or filter operators survive', () => {
  expect(phaseTag('crawl')).toBe('crawl')
  expect(architectureTag('client')).toBe('assistant:client')
  expect(scenarioTypeTag('booking')).toBe('type:booking')
  expect(scenarioTypeTag('late night (patio) & bar')).toBe('type:late_night_patio_bar')
})
