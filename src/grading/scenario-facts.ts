// The scenario facts grading reads. The expectation types come from the scenario contract once it lands
// (src/scenarios/schema.ts: ExpectedOutcome, ExpectedToolCall); until then this mirrors the field names of the
// toolkit's contract (§1.3) for exactly the fields graders read, and nothing else.

export interface ExpectedToolCall {
  name: string
  arguments: Record<string, unknown>
  status: 'any' | 'completed'
}

export interface ExpectedOutcome {
  answer: string
  criteria: string[]
  tools: { required: ExpectedToolCall[]; prohibited: ExpectedToolCall[] }
  golden_path: { turns: number; delegations: number | null; steps: string[] }
  diagnostic_terms: string[]
  delegation: 'required' | 'forbidden' | 'optional'
  state: Record<string, unknown>
  procedure?: {
    id: string
    steps: { id: string; kind: string; required: boolean; critical: boolean }[]
  } | null
}

/** What graders know about the scenario besides the observation: its type, interaction and expectations. */
export interface ScenarioFacts {
  scenario_id: string
  scenario_type: string
  interaction: 'single_turn' | 'multi_turn'
  /** The caller's request text (CRAWL speaks it, WALK uses it as reference): decides context_fidelity. */
  input_text: string
  has_conversation_context: boolean
  expected: ExpectedOutcome
}
