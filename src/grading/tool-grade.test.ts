import { describe, expect, test } from 'vitest'
import { computeToolCallGrade } from './tool-grade.ts'

const create = { name: 'create_reservation', arguments: { guest_name: 'maya' } }
const check = { name: 'check_availability', arguments: { party_size: 2 } }
const createCall = { name: 'create_reservation', arguments: { guest_name: 'Maya', party_size: 2 } }
const checkCall = { name: 'check_availability', arguments: { party_size: 2, time: '19:00' } }

describe('computeToolCallGrade', () => {
  test('the expected calls in order with matching argument subsets grade 1', () => {
    expect(computeToolCallGrade([checkCall, createCall], [check, create])).toEqual({
      tool_call_correctness: 1,
      tool_call_arg_correctness: 1,
      grade: 1,
    })
  })
  test('reversed order fails names and arguments', () => {
    expect(computeToolCallGrade([createCall, checkCall], [check, create])).toEqual({
      tool_call_correctness: 0,
      tool_call_arg_correctness: 0,
      grade: 0,
    })
  })
  test('a missing call grades 0', () => {
    expect(computeToolCallGrade([checkCall], [check, create]).grade).toBe(0)
  })
  test('an extra call grades 0', () => {
    expect(computeToolCallGrade([checkCall, createCall], [create]).grade).toBe(0)
  })
  test('argument correctness needs correct names: an extra trailing call fails it although position 0 matches', () => {
    expect(computeToolCallGrade([createCall, checkCall], [create])).toEqual({
      tool_call_correctness: 0,
      tool_call_arg_correctness: 0,
      grade: 0,
    })
  })
  test('right names with a wrong argument: names correct, arguments not', () => {
    const wrong = { name: 'create_reservation', arguments: { guest_name: 'Amaya' } }
    expect(computeToolCallGrade([wrong], [create])).toEqual({
      tool_call_correctness: 1,
      tool_call_arg_correctness: 0,
      grade: 0,
    })
  })
  test('with no expected tools it is correct only when nothing was called', () => {
    expect(computeToolCallGrade([], []).grade).toBe(1)
    expect(computeToolCallGrade([checkCall], []).grade).toBe(0)
  })
})
