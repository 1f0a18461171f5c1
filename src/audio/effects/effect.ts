// The seat every acoustic effect fills. An effect is a small stateful object that transforms audio in place
// and carries whatever it needs from one call to the next (filter memories, a delay line, a random stream, a
// resampler's history). Because nothing depends on where one call ends and the next begins, the same effect
// turns a whole WAV and the same WAV cut into 20 ms live frames (or any other chunk sizes) into the same bytes.

export interface AudioEffect {
  /**
   * Transform `samples` (mono PCM16, 24 kHz) in place. `position` is the stream index of samples[0]: effects
   * that follow the clock (packet-loss frames, periodic events, the background bed) place themselves by it.
   * Called once per chunk, in stream order.
   */
  process(samples: Int16Array, position: number): void
  /** Release resources held outside the JS heap (wasm memory); called once, after the last chunk. */
  close?(): void
}
