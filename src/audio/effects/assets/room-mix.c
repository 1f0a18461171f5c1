// The room mix's per-sample loop (room-mix.ts: background speech, white noise, echo), in WebAssembly: the same
// steps on the same doubles as the TypeScript effects, so the bytes are theirs (room-mix.test.ts compares them),
// in about a fifth of the time the JavaScript loop took. Built by make-wasm.sh; the committed .wasm runs.
//
// Exactness: JavaScript numbers are IEEE doubles and so are these; wasm has no fused multiply-add (and the build
// turns contraction off), so every sum and product rounds as it does in JavaScript, term for term and in the
// same order. Math.imul and >>> are 32-bit unsigned arithmetic here.
//
// No libc and no allocator: room-mix.ts lays out the bed, the echo line and the chunk in this module's memory
// (from heap_base up) and passes their places.

#include <stdint.h>
#include <wasm_simd128.h>

extern unsigned char __heap_base;

__attribute__((export_name("heap_base"))) uint32_t heap_base(void) { return (uint32_t)(uintptr_t)&__heap_base; }

// The one double below 0.5, where floor(x + 0.5) would round up (see roundHalfUp in ../../pcm.ts).
#define LARGEST_BELOW_HALF 0.49999999999999994
#define WEYL_INCREMENT 0x9e3779b9u
#define TWO_TO_32 4294967296.0

static double saturate_pcm16(double value) {
  double rounded = value == LARGEST_BELOW_HALF ? 0.0 : __builtin_floor(value + 0.5);
  return rounded > 32767.0 ? 32767.0 : rounded < -32768.0 ? -32768.0 : rounded;
}

// The loop's state between chunks, read and written by room-mix.ts.
static struct {
  uint32_t noise_state;
  uint32_t line_cursor;
} state;

__attribute__((export_name("state"))) uint32_t state_pointer(void) { return (uint32_t)(uintptr_t)&state; }

// Two samples at once (f64x2): the same steps on each lane, so each sample's bytes are the scalar path's. Only
// where neither cursor wraps inside the pair and the echo is at least two samples late (so the second sample
// never hears the first one's echo).
static inline v128_t saturate_pcm16_x2(v128_t value) {
  const v128_t floored = wasm_f64x2_floor(wasm_f64x2_add(value, wasm_f64x2_splat(0.5)));
  const v128_t exception = wasm_f64x2_eq(value, wasm_f64x2_splat(LARGEST_BELOW_HALF));
  const v128_t rounded = wasm_v128_bitselect(wasm_f64x2_splat(0.0), floored, exception);
  return wasm_f64x2_pmin(wasm_f64x2_splat(32767.0), wasm_f64x2_pmax(wasm_f64x2_splat(-32768.0), rounded));
}

static inline v128_t pair_of(const int16_t *at) {
  return wasm_f64x2_make((double)at[0], (double)at[1]);
}

__attribute__((export_name("mix"))) void mix(int16_t *samples, uint32_t count, const int16_t *bed,
                                             uint32_t bed_length, uint32_t bed_cursor, double gain,
                                             double amplitude, double decay, int16_t *line,
                                             uint32_t line_length) {
  const double span = (2 * amplitude) / TWO_TO_32;
  uint32_t noise = state.noise_state;
  uint32_t cursor = state.line_cursor;
  uint32_t i = 0;
  while (i < count) {
    if (line_length >= 2 && i + 1 < count && bed_cursor + 1 < bed_length && cursor + 1 < line_length) {
      v128_t value = saturate_pcm16_x2(
          wasm_f64x2_add(pair_of(samples + i), wasm_f64x2_mul(pair_of(bed + bed_cursor), wasm_f64x2_splat(gain))));
      const uint32_t first = noise + WEYL_INCREMENT, second = first + WEYL_INCREMENT;
      v128_t z = wasm_u32x4_make(first, second, 0, 0);
      z = wasm_i32x4_mul(wasm_v128_xor(z, wasm_u32x4_shr(z, 16)), wasm_i32x4_splat(0x21f0aaad));
      z = wasm_i32x4_mul(wasm_v128_xor(z, wasm_u32x4_shr(z, 15)), wasm_i32x4_splat(0x735a2d97));
      const v128_t draw = wasm_f64x2_convert_low_u32x4(wasm_v128_xor(z, wasm_u32x4_shr(z, 15)));
      value = saturate_pcm16_x2(wasm_f64x2_sub(wasm_f64x2_add(value, wasm_f64x2_mul(draw, wasm_f64x2_splat(span))),
                                               wasm_f64x2_splat(amplitude)));
      value = saturate_pcm16_x2(wasm_f64x2_add(value, wasm_f64x2_mul(wasm_f64x2_splat(decay), pair_of(line + cursor))));
      const int16_t out0 = (int16_t)wasm_f64x2_extract_lane(value, 0);
      const int16_t out1 = (int16_t)wasm_f64x2_extract_lane(value, 1);
      samples[i] = out0, samples[i + 1] = out1;
      line[cursor] = out0, line[cursor + 1] = out1;
      noise = second;
      bed_cursor += 2;
      cursor += 2;
      if (bed_cursor == bed_length) bed_cursor = 0;
      if (cursor == line_length) cursor = 0;
      i += 2;
      continue;
    }
    double value = saturate_pcm16((double)samples[i] + (double)bed[bed_cursor] * gain);
    bed_cursor = bed_cursor + 1 == bed_length ? 0 : bed_cursor + 1;
    noise += WEYL_INCREMENT;
    uint32_t z = noise;
    z = (z ^ (z >> 16)) * 0x21f0aaadu;
    z = (z ^ (z >> 15)) * 0x735a2d97u;
    const uint32_t draw = z ^ (z >> 15);
    value = saturate_pcm16(value + (double)draw * span - amplitude);
    value = saturate_pcm16(value + decay * (double)line[cursor]);
    samples[i] = (int16_t)value;
    line[cursor] = (int16_t)value;
    cursor = cursor + 1 == line_length ? 0 : cursor + 1;
    i += 1;
  }
  state.noise_state = noise;
  state.line_cursor = cursor;
}
