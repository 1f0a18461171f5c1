import { describe, expect, test } from 'vitest'
import { DEFAULT_GATE_OPTIONS, evaluateGate } from './evaluate.ts'
import { gateFile, row } from './gate.test-helpers.ts'
import { gateMarkdown, markdownCell } from './markdown.ts'

describe('gateMarkdown', () => {
  test('table cells cannot break the table or carry markup', () => {
    expect(markdownCell('a|b <script>x</script>\nnext')).toBe('a\\|b &lt;script&gt;x&lt;/script&gt; next')
  })
  test('long baseline lists are cut with a count; an inconclusive gate says so', () => {
    const baseline = gateFile([row({ id: 'kept' })])
    const current = gateFile([
      row({ id: 'kept' }),
      ...Array.from({ length: 25 }, (_, i) => row({ id: `new${i}` })),
    ])
    const report = evaluateGate([current], [baseline], { ...DEFAULT_GATE_OPTIONS, maxP95LatencyMs: 1 })
    const markdown = gateMarkdown(report)
    expect(markdown).toContain('- New (25): `crawl/client new0`')
    expect(markdown).toContain('and 5 more')
    expect(markdown).toContain('❌ **Gate failed**')
    const unknown = evaluateGate([gateFile([row({ id: 'a', latencyMs: null })])], [], {
      ...DEFAULT_GATE_OPTIONS,
      maxP95LatencyMs: 1_000,
    })
    expect(gateMarkdown(unknown)).toContain('⚠️ **Gate inconclusive**')
    expect(gateMarkdown(unknown)).toContain('| all responses | 0 | – | – | – |')
  })
  test('a trials run lists its pass^1 and pass^k beside the run', () => {
    const rows = [1, 2, 3].map((trial) => row({ id: 'a', trial, status: trial === 2 ? 'failed' : 'passed' }))
    const markdown = gateMarkdown(evaluateGate([gateFile(rows)], [], DEFAULT_GATE_OPTIONS))
    expect(markdown).toContain('— 3 trials: pass^1 0.667, pass^3 0.000')
  })
})
