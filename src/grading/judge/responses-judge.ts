// The default judge backend: one structured Responses call per dimension and repetition, through the shared
// structured-call module (store:false, effort, retries, limiter) and the judge cache.

import { callStructured } from '../../models/structured-call.ts'
import { cachedUsageEvent } from '../../models/usage.ts'
import type { SemanticDimension } from '../semantic-applicability.ts'
import { contentHash, type JudgeCacheKey } from './cache.ts'
import { createJudge, type Judge } from './create-judge.ts'
import { JUDGE_DECISION_SCHEMA_NAME, JudgeDecisionSchema } from './decision-schema.ts'
import type { JudgeBackendSettings } from './judge-settings.ts'
import { dimensionHeader, judgeSystemPrompt, judgeUserContent } from './prompt.ts'
import { RUBRIC_VERSION } from './rubric.ts'

export function responsesJudge(dimension: SemanticDimension, settings: JudgeBackendSettings): Judge {
  const system = judgeSystemPrompt(settings.interaction, 'responses')
  const promptHash = contentHash({ system, header: dimensionHeader(dimension) })
  const identity = {
    source: 'evaluation_judge' as const,
    purpose: `evaluation_judge/${dimension}`,
    model: settings.model,
  }
  return createJudge({
    name: `responses:${dimension}`,
    dimension,
    async assess({ evidence, repetition, signal }) {
      const key: JudgeCacheKey = {
        backend: 'responses',
        model: settings.model,
        reasoning_effort: settings.reasoningEffort ?? null,
        rubric_version: RUBRIC_VERSION,
        dimension,
        prompt_hash: promptHash,
        evidence_hash: contentHash(evidence),
        repetition,
      }
      const hit = await settings.cache?.get(key)
      if (hit) return { verdict: hit.verdict, usage: cachedUsageEvent(identity), detail: hit.detail }
      const result = await callStructured({
        ...settings.call,
        ...identity,
        signal: signal ?? settings.call.signal,
        schema: JudgeDecisionSchema,
        schemaName: JUDGE_DECISION_SCHEMA_NAME,
        reasoningEffort: settings.reasoningEffort,
        input: [
          { role: 'system', content: system },
          { role: 'user', content: judgeUserContent(dimension, evidence) },
        ],
      })
      const detail = {
        response_id: result.response_id,
        judge_model: settings.model,
        rubric_version: RUBRIC_VERSION,
        latency_ms: result.usage.latency_ms,
      }
      await settings.cache?.put({ key, verdict: result.value, detail })
      return { verdict: result.value, usage: result.usage, detail }
    },
  })
}
