// The one cause walk the harness asks its questions of (an offline rule that threw, a refused account).
import { describe, expect, it } from 'vitest'
import { causesOf, firstCauseOf } from './causes.ts'

describe('causesOf', () => {
  it('gives the error, then each error it wraps, outermost first, and stops at a cause that is not an Error', () => {
    const inner = new TypeError('inner', { cause: 'a string reason' })
    const middle = new Error('middle', { cause: inner })
    const outer = new Error('outer', { cause: middle })
    expect([...causesOf(outer)]).toEqual([outer, middle, inner])
    expect([...causesOf('not an error')]).toEqual([])
    expect([...causesOf(undefined)]).toEqual([])
  })

  it('ends on a chain that loops, and looks no deeper than eight errors', () => {
    const looping = new Error('looping')
    looping.cause = looping
    expect([...causesOf(looping)]).toHaveLength(8)
    let deep: Error = new Error('0')
    for (let index = 1; index < 12; index++) deep = new Error(String(index), { cause: deep })
    expect([...causesOf(deep)].map((error) => error.message)).toEqual([
      '11',
      '10',
      '9',
      '8',
      '7',
      '6',
      '5',
      '4',
    ])
  })
})

describe('firstCauseOf', () => {
  class Wanted extends Error {}
  it('finds the first error of a class along the chain, itself included, or null', () => {
    const inner = new Wanted('inner')
    const outer = new Error('outer', { cause: new Error('middle', { cause: inner }) })
    expect(firstCauseOf(outer, Wanted)).toBe(inner)
    expect(firstCauseOf(inner, Wanted)).toBe(inner)
    expect(firstCauseOf(new Error('alone'), Wanted)).toBeNull()
    expect(firstCauseOf('not an error', Wanted)).toBeNull()
  })
})
