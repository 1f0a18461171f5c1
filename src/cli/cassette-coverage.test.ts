// Which recordings a re-grade left without a row, and why: no run of their architecture, no row of their
// scenario, or not their trial; a recording with its row is not named.
import { describe, expect, test } from 'vitest'
import { testCassetteHeader } from '../cassettes/cassette-header.test-helpers.ts'
import { resultsDocument, row } from '../gate/gate.test-helpers.ts'
import { recordingsWithoutRow } from './cassette-coverage.ts'

const header = (scenario: string, architecture: 'responses' | 'client', trial: number | null) =>
  testCassetteHeader({
    id: `${scenario}__${architecture}${trial === null ? '' : `__t${trial}`}`,
    scenario_id: scenario,
    architecture,
    trial,
  })

describe('recordings a re-grade left without a row', () => {
  test('each is named with its reason; one with its row is not', () => {
    const cassettes = {
      phase: 'crawl' as const,
      directory: '/tapes/crawl',
      headers: [
        header('crawl_001', 'responses', 1),
        header('crawl_001', 'responses', 2),
        header('crawl_002', 'responses', 1),
        header('crawl_001', 'client', 1),
      ],
    }
    const responses = resultsDocument([row({ id: 'crawl_001', trial: 1 })], { architecture: 'responses' })
    expect(recordingsWithoutRow(cassettes, [responses])).toEqual([
      {
        cassette: '/tapes/crawl/crawl_001__responses__t2',
        reason: 'no trial 2 of scenario crawl_001 in the responses run (it ran trial(s) 1)',
      },
      {
        cassette: '/tapes/crawl/crawl_002__responses__t1',
        reason: expect.stringMatching(
          /^no row of scenario crawl_002 in the responses run \(the project's dataset/,
        ),
      },
      {
        cassette: '/tapes/crawl/crawl_001__client__t1',
        reason: 'no client run wrote results (see the Vitest output above)',
      },
    ])
  })
})
