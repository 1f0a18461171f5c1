// What a scenario test attaches for `vitest --ui`: its three WAVs, and its timeline image with the report's
// anchor in the annotation text; a scenario whose audio was never written attaches nothing.
import { readFile } from 'node:fs/promises'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import {
  bundledCrawlScenario,
  executeScenario,
  freshRunDirectory,
  offlineCrawlSettings,
  offlineEnv,
} from '../phases/single-turn/test-support.ts'
import { writeScenarioTimelineImage } from '../report/write-report.ts'
import { infrastructureErrorRow } from '../reporting/result-item.ts'
import { type OfflineLiveServer, startOfflineLiveServer } from '../testing/live-server/index.ts'
import { attachScenarioAudio, attachScenarioTimeline, TIMELINE_ANNOTATION_TYPE } from './attachments.ts'

let server: OfflineLiveServer
beforeAll(async () => {
  server = await startOfflineLiveServer()
})
afterAll(async () => {
  await server.close()
})

type Annotation = {
  message: string
  type: string
  attachment: { contentType?: string; path?: string; body?: string | Uint8Array }
}

function recorder() {
  const annotations: Annotation[] = []
  const annotate = (async (message: string, type: string, attachment: Annotation['attachment']) => {
    annotations.push({ message, type, attachment })
  }) as unknown as Parameters<typeof attachScenarioAudio>[0]
  return { annotations, annotate }
}

describe('scenario attachments', () => {
  test('the WAVs by path, then the timeline SVG inline (no path for the UI to mistype) with the report link', async () => {
    const runDirectory = await freshRunDirectory()
    const settings = await offlineCrawlSettings()
    const scenario = await bundledCrawlScenario('crawl_001_booking_complete_request')
    const execution = await executeScenario(scenario, offlineEnv(settings, server, runDirectory, 'responses'))
    const { annotations, annotate } = recorder()
    await attachScenarioAudio(annotate, execution.artifacts)
    await attachScenarioTimeline(annotate, runDirectory, execution.row)
    expect(annotations.map((annotation) => annotation.attachment.contentType)).toEqual([
      'audio/wav',
      'audio/wav',
      'audio/wav',
      'image/svg+xml',
    ])
    const timeline = annotations[3] as Annotation
    expect(timeline.type).toBe(TIMELINE_ANNOTATION_TYPE)
    expect(timeline.message).toContain(`report.html#scenario-${scenario.id}`)
    // Vitest UI builds `…&contentType=image/svg+xml` unencoded for a path, and its server then answers with
    // `image/svg xml`: the timeline must not go by path. Inline, it is the written file's bytes.
    expect(timeline.attachment.path).toBeUndefined()
    expect(timeline.attachment.body).toBeInstanceOf(Uint8Array)
    const svg = Buffer.from(timeline.attachment.body as Uint8Array).toString('utf8')
    expect(svg).toMatch(/^<\?xml[\s\S]*<svg [^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/)
    const written = await writeScenarioTimelineImage(runDirectory, execution.row)
    expect(svg).toBe(await readFile(written as string, 'utf8'))
  })

  test('a scenario without audio attaches no timeline and does not throw', async () => {
    const { annotations, annotate } = recorder()
    const row = infrastructureErrorRow({ scenario_id: 'gone', stage: 'connection', message: 'refused' })
    await attachScenarioTimeline(annotate, await freshRunDirectory(), row)
    expect(annotations).toEqual([])
  })
})
