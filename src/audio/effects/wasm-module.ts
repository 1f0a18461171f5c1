// The effects' WebAssembly modules (assets/*.wasm, built from the C beside them by assets/make-wasm.sh): each
// compiled once per process, synchronously (they are a few kB), so an effect can be built in its constructor.
// Every effect instance instantiates its own, with its own memory: its state is that memory.
import { readFileSync } from 'node:fs'

/**
 * The part of the WebAssembly API used here. TypeScript declares WebAssembly only in its DOM library and
 * @types/node not at all, and this project compiles without the DOM library (tsconfig.json).
 */
interface WebAssemblyApi {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: unknown }
}

/** A module's memory, as its exports name it. */
export interface EffectMemory {
  readonly buffer: ArrayBuffer
  grow(pages: number): number
}

const webAssembly = (globalThis as unknown as { WebAssembly: WebAssemblyApi }).WebAssembly
const compiled = new Map<string, object>()

export type EffectModuleName = 'phone-line' | 'room-mix'

/** A fresh instance of the named module's exports (it imports nothing). */
export function instantiateEffectModule<Exports>(name: EffectModuleName): Exports {
  let module = compiled.get(name)
  if (module === undefined) {
    module = new webAssembly.Module(readFileSync(new URL(`./assets/${name}.wasm`, import.meta.url)))
    compiled.set(name, module)
  }
  return new webAssembly.Instance(module, {}).exports as Exports
}
