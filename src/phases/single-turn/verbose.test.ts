// execution.verbose prints a readable account of each conversation: transcript lines with times, delegations,
// tool calls with arguments and outcome, and how the conversation ended.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { type OfflineLiveServer, startOfflineLiveServer } from '../../testing/live-server/index.ts'
import {
  bundledCrawlScenario,
  executeScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from './test-support.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

describe('execution.verbose', () => {
  it('prints the conversation of a booking: who said what, the delegation and the tool call', async () => {
    const base = await offlineCrawlSettings()
    const settings = { ...base, execution: { ...base.execution, verbose: true } }
    const scenario = await bundledCrawlScenario('crawl_001_booking_complete_request')
    const printed: string[] = []
    const spy = vi
      .spyOn(console, 'log')
      .mockImplementation((text: unknown) => void printed.push(String(text)))
    try {
      await executeScenario(scenario, offlineEnv(settings, server, await freshRunDirectory(), 'responses'))
    } finally {
      spy.mockRestore()
    }
    const text = printed.join('\n')
    expect(text).toContain('── crawl_001_booking_complete_request (responses assistant)')
    expect(text).toMatch(/\[00:0\d\.\d{3}\] CALLER {4}\S/)
    expect(text).toMatch(/\[\d\d:\d\d\.\d{3}\] ASSISTANT \S/)
    expect(text).toMatch(/delegation \S+ opened/)
    expect(text).toMatch(/tool create_reservation \{.*"party_size"/)
    expect(text).toContain('ended: response_completed')
  })

  it('hands the account to the print option when given (the scenario test’s own console), not to console.log', async () => {
    const base = await offlineCrawlSettings()
    const settings = { ...base, execution: { ...base.execution, verbose: true } }
    const scenario = await bundledCrawlScenario('crawl_001_booking_complete_request')
    const printed: string[] = []
    const log = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      await executeScenario(scenario, offlineEnv(settings, server, await freshRunDirectory(), 'responses'), {
        print: (text) => printed.push(text),
      })
      expect(log).not.toHaveBeenCalled()
    } finally {
      log.mockRestore()
    }
    expect(printed).toHaveLength(1)
    expect(printed[0]).toContain('── crawl_001_booking_complete_request (responses assistant)')
  })

  it('prints nothing when off', async () => {
    const settings = await offlineCrawlSettings()
    const spy = vi.spyOn(console, 'log').mockImplementation(() => {})
    try {
      const scenario = await bundledCrawlScenario('crawl_001_booking_complete_request')
      await executeScenario(scenario, offlineEnv(settings, server, await freshRunDirectory(), 'responses'))
      expect(spy).not.toHaveBeenCalled()
    } finally {
      spy.mockRestore()
    }
  })
})
