// redactJson is redactSecrets, then redactOutbound, done in one copy (redaction.ts): the two must give the same
// data for every input, secrets by name, by value and by shape, deep nesting and odd objects included.
import { describe, expect, test } from 'vitest'
import { redactOutbound, rememberSecretValues } from '../config/outbound-redaction.ts'
import { redactSecrets } from '../config/redact.ts'
import { type CassetteRedaction, redactJson } from './redaction.ts'

const REMEMBERED = 'remembered-credential-42'
const RUN_KEY = 'run-credential-value-7'
const redaction: CassetteRedaction = { extraNames: ['session_ref'], secretValues: [RUN_KEY, 'short'] }

const twoSteps = (value: unknown) => redactOutbound(redactSecrets(value, redaction))

function nested(levels: number): unknown {
  let value: unknown = { leaf: `deep ${RUN_KEY}` }
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? { next: value } : [value]
  return value
}

const INPUTS: Record<string, unknown> = {
  'a string with every kind of secret': `key ${RUN_KEY}, ${REMEMBERED}, sk-abcdefghijklmnopqrstu, Bearer abcdefgh123`,
  'an audio frame as recorded': { type: 'session.input_audio.append' },
  'fields named like secrets, set and not': {
    api_key: 'a-named-secret-value',
    clientToken: null,
    password: undefined,
    Session_Ref: 'extra-named-value-1',
    max_output_tokens: 5,
    echo: 'copied: a-named-secret-value and extra-named-value-1',
  },
  'a secret field holding an object': { authorization: { scheme: 'Bearer', value: 'nested-secret-value' } },
  'keys that carry secrets': { [`k ${RUN_KEY}`]: 1, 'sk-abcdefghijklmnopqrstuvwx': 'v' },
  'an array with holes': Object.assign(new Array(3), { 1: [RUN_KEY, 2, true, null, undefined] }),
  'a __proto__ field from JSON': JSON.parse(`{"__proto__": {"x": "${RUN_KEY}"}, "y": 2}`),
  'a typed array and a date': { bytes: new Uint8Array([1, 2]), at: new Date(0) },
  'nesting at the depth limit': nested(63),
  'nesting past the depth limit': nested(70),
}

describe('redactJson equals redactOutbound after redactSecrets', () => {
  rememberSecretValues([REMEMBERED])
  test.each(Object.entries(INPUTS))('%s', (_name, value) => {
    const expected = twoSteps(value)
    const actual = redactJson(value, redaction)
    expect(actual).toStrictEqual(expected)
    expect(JSON.stringify(actual)).toBe(JSON.stringify(expected))
  })

  test('the inputs reach every rule (each one but the audio frame changes)', () => {
    const unchanged = Object.entries(INPUTS)
      .filter(([, value]) => JSON.stringify(redactJson(value, redaction)) === JSON.stringify(value))
      .map(([name]) => name)
    expect(unchanged).toEqual(['an audio frame as recorded'])
  })
})
