// The explain folder's Markdown summary (explain.md): what a reviewer reads in a pull request or a CI summary.
import { CONTROL_LABEL, controlText, effectText, headlineOf, rateText, shiftText } from './format.ts'
import type { Arm, ExplainDocument, Explanation } from './schema.ts'

/** Table cells hold user text (scenario titles, barge-in ids): pipes and line breaks would break the table. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' ')

function armLine(arm: Arm, label: string, rate = rateText(arm)): string {
  return `| ${cell(label)} | ${rate} | ${shiftText(arm)} | ${effectText(arm.effect)} |`
}

function explanationSection(explanation: Explanation): string[] {
  const { classification } = explanation
  const lines = [
    `## ${cell(explanation.scenario_id)}${explanation.title === null ? '' : ` — ${cell(explanation.title)}`}`,
    '',
    `**${explanation.summary}**`,
    '',
    `Class: \`${classification.class}\` (from ${classification.basis.replace('_', ' ')}: ${classification.note}). ` +
      `In the run it failed trial(s) ${explanation.run_rows.failed_trials.join(', ')} of ${explanation.run_rows.total}` +
      (explanation.original_failed_checks.length === 0
        ? '.'
        : `, failing ${explanation.original_failed_checks.join(', ')}.`),
    '',
    '| arm | re-runs | shift against the unchanged re-run | effect |',
    '| --- | --- | --- | --- |',
    armLine(
      explanation.control,
      CONTROL_LABEL,
      controlText(
        explanation.control,
        explanation.interventions.map((arm) => arm.measure),
      ),
    ),
    ...explanation.interventions.map((arm) => armLine(arm, arm.label)),
  ]
  if (explanation.not_applicable.length > 0) {
    lines.push('', 'Not applicable:')
    for (const entry of explanation.not_applicable) lines.push(`- \`${entry.intervention}\`: ${entry.reason}`)
  }
  return [...lines, '']
}

export function explainMarkdown(document: ExplainDocument): string {
  const lines = [
    `# Why it failed: ${document.run.id}`,
    '',
    headlineOf(document),
    '',
    `Trials differ by: ${document.trial_variation.join('; ')}.`,
    '',
  ]
  if (document.completion.ending !== 'complete') lines.push(`**${document.completion.message}**`, '')
  for (const explanation of document.explanations) lines.push(...explanationSection(explanation))
  if (document.not_explained.length > 0) {
    lines.push('## Not explained', '')
    for (const entry of document.not_explained) {
      lines.push(`- ${cell(entry.scenario_id)} (${entry.reason}): ${entry.message}`)
    }
    lines.push('')
  }
  return lines.join('\n')
}
