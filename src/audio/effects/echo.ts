// Echo as a feedback delay line: y[n] = x[n] + decay · y[n - D]. Each repeat is `decay` times the previous
// one, like a caller's voice coming back from a speakerphone or a hard room. The delay line holds the last D
// output samples, so it carries across chunks and the result does not depend on how the stream is cut.
// A delay of 0 ms is one reflection arriving with the voice (no recursion, which would be undefined).

import type { AudioEffect } from './effect.ts'
import { saturatePcm16 } from './pcm16-clamp.ts'

export class Echo implements AudioEffect {
  readonly #decay: number
  readonly #line: Int16Array
  #cursor = 0

  constructor(delaySamples: number, decay: number) {
    this.#decay = decay
    this.#line = new Int16Array(delaySamples)
  }

  process(samples: Int16Array): void {
    const decay = this.#decay
    const line = this.#line
    if (line.length === 0) {
      for (let i = 0; i < samples.length; i++)
        samples[i] = saturatePcm16((samples[i] as number) * (1 + decay))
      return
    }
    let cursor = this.#cursor
    for (let i = 0; i < samples.length; i++) {
      const output = saturatePcm16((samples[i] as number) + decay * (line[cursor] as number))
      samples[i] = output
      line[cursor] = output
      cursor = cursor + 1 === line.length ? 0 : cursor + 1
    }
    this.#cursor = cursor
  }
}
