// Type shims for the two emscripten wasm packages, which ship no .d.ts. Only the members we call are declared;
// both export a factory that resolves to the instantiated module with its heap views.

declare module '@echogarden/speex-resampler-wasm' {
  export interface SpeexResamplerModule {
    _malloc(bytes: number): number
    _free(pointer: number): void
    readonly HEAP16: Int16Array
    readonly HEAPU32: Uint32Array
    _speex_resampler_init(
      channels: number,
      inRate: number,
      outRate: number,
      quality: number,
      errorPointer: number,
    ): number
    _speex_resampler_process_int(
      state: number,
      channel: number,
      inPointer: number,
      inLengthPointer: number,
      outPointer: number,
      outLengthPointer: number,
    ): number
    _speex_resampler_skip_zeros(state: number): number
    _speex_resampler_get_input_latency(state: number): number
    _speex_resampler_get_output_latency(state: number): number
    _speex_resampler_destroy(state: number): void
  }
  const createSpeexResampler: () => Promise<SpeexResamplerModule>
  export default createSpeexResampler
}

// The same module built with wasm SIMD (Node 24 has it): three to four times faster here.
declare module '@echogarden/speex-resampler-wasm/simd' {
  export type { SpeexResamplerModule } from '@echogarden/speex-resampler-wasm'
  export { default } from '@echogarden/speex-resampler-wasm'
}

declare module '@echogarden/fvad-wasm' {
  export interface FvadModule {
    _malloc(bytes: number): number
    _free(pointer: number): void
    readonly HEAP16: Int16Array
    _fvad_new(): number
    _fvad_free(instance: number): void
    _fvad_set_mode(instance: number, mode: number): number
    _fvad_set_sample_rate(instance: number, sampleRateHz: number): number
    _fvad_process(instance: number, framePointer: number, length: number): number
  }
  const createFvad: () => Promise<FvadModule>
  export default createFvad
}
