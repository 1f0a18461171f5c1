import { describe, expect, test } from 'vitest'
import { resultsDocument, row } from '../gate/gate.test-helpers.ts'
import { junitXmlOf, xmlText } from './junit-xml.ts'

describe('junitXmlOf', () => {
  test('one testcase per row with its metrics as properties; failure and error by status', () => {
    const xml = junitXmlOf(
      resultsDocument([
        row({ id: 'ok', latencyMs: 640 }),
        row({ id: 'wrong', status: 'failed', toolAccuracy: 0 }),
        row({ id: 'down', status: 'infrastructure_error' }),
      ]),
    )
    expect(xml).toContain('<testsuites name="live-evals" tests="3" failures="1" errors="1" skipped="0">')
    expect(xml).toContain('<testcase classname="crawl.client.ok" name="ok">')
    expect(xml).toContain('<property name="metric.response_latency_ms" value="640"/>')
    expect(xml).toContain('<property name="metric.tool_calls" value="1/1"/>')
    expect(xml).toContain('<property name="metric.tool_accuracy" value="0"/>')
    expect(xml).toContain('type="scenario_failed"')
    expect(xml).toContain('<error message="connection: refused" type="infrastructure_error"/>')
    // Unknown is written as null, never 0: the infrastructure row measured nothing.
    const down = xml.slice(xml.indexOf('classname="crawl.client.down"'))
    expect(down).toContain('<property name="metric.response_latency_ms" value="null"/>')
    expect(down).toContain('<property name="task_completed" value="null"/>')
    // Without trials the names stay the titles, and no trial properties on the suite.
    expect(xml).not.toContain('[trial')
    expect(xml).not.toContain('trials.k')
  })

  test('a trials run names each trial and carries pass^1 and pass^k on the suite', () => {
    const rows = [1, 2, 3].map((trial) => row({ id: 'a', trial, status: trial === 3 ? 'failed' : 'passed' }))
    const xml = junitXmlOf(resultsDocument(rows))
    expect(xml).toContain('name="a [trial 3]"')
    expect(xml).toContain('<property name="trials.k" value="3"/>')
    // c = 2 of n = 3: pass^3 = 0; pass^1 = 2/3
    expect(xml).toContain('<property name="trials.pass_3" value="0"/>')
    expect(xml).toContain(`<property name="trials.pass_1" value="${2 / 3}"/>`)
  })

  test('condition robustness names its unknown sources apart from the robust ones', () => {
    const recorded = (id: string, condition: string, status: 'passed' | 'infrastructure_error') => ({
      ...row({ id, status }),
      recording: {
        id: 'r',
        path: `${id}.wav`,
        condition,
        metadata: { generation: { source_scenario_id: 's' } },
      },
    })
    const xml = junitXmlOf(
      resultsDocument([
        recorded('s_clean', 'clean', 'passed'),
        recorded('s_noisy', 'noisy', 'infrastructure_error'),
      ]),
    )
    expect(xml).toContain(
      '<property name="condition_robustness.robust" value="0/0 of 1 source scenarios (unknown: 1)"/>',
    )
    expect(xml).toContain('<property name="condition_robustness.unknown" value="1"/>')
  })

  test('model output cannot break the XML: markup is escaped and control characters dropped', () => {
    expect(xmlText('<b>"a" & \'b\'</b>\u0000\u001b')).toBe(
      '&lt;b&gt;&quot;a&quot; &amp; &apos;b&apos;&lt;/b&gt;',
    )
    const xml = junitXmlOf(resultsDocument([row({ id: 'x', title: 'Say "</testcase><x>" \u0007now' })]))
    expect(xml).toContain('name="Say &quot;&lt;/testcase&gt;&lt;x&gt;&quot; now"')
  })
})
