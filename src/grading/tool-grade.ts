// Single-turn tool-call grade over the calls the assistant *requested*: the expected list is ordered, so the right
// tools in the wrong order, a missing call, an extra call or a wrong argument all give grade 0.

import type { RequestedToolCall } from '../observability/observation.ts'
import { expectedArgumentsMatch } from './matching.ts'
import type { ExpectedToolCall } from './scenario-facts.ts'

export interface ToolCallGrade {
  /** 1 iff as many calls as expected, with the expected names in the expected order. */
  tool_call_correctness: 0 | 1
  /** 1 iff the names are correct and each call's arguments contain its expected arguments. */
  tool_call_arg_correctness: 0 | 1
  /** 1 iff both of the above are 1 (argument correctness already requires correct names). */
  grade: 0 | 1
}

function asBit(value: boolean): 0 | 1 {
  return value ? 1 : 0
}

export function computeToolCallGrade(
  calls: readonly Pick<RequestedToolCall, 'name' | 'arguments'>[],
  expected: readonly Pick<ExpectedToolCall, 'name' | 'arguments'>[],
): ToolCallGrade {
  const namesInOrder =
    calls.length === expected.length &&
    expected.every((expectation, index) => calls[index]?.name === expectation.name)
  const argumentsMatch =
    namesInOrder &&
    expected.every((expectation, index) =>
      expectedArgumentsMatch(expectation.arguments, calls[index]?.arguments),
    )
  return {
    tool_call_correctness: asBit(namesInOrder),
    tool_call_arg_correctness: asBit(argumentsMatch),
    grade: asBit(argumentsMatch),
  }
}
