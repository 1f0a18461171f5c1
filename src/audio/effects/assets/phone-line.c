// The phone line (../telephony.ts) in WebAssembly: 24 kHz down to 8 kHz, the band-pass and gain, the G.711
// μ-law codec, and back up to 24 kHz. Built by make-wasm.sh; the committed .wasm is what runs. One instance is
// one line: its memory holds every filter's state, so a stream cut into any chunks gives the same samples.
//
// TypeScript designs everything and writes it here: the rate filters' taps (phone-line.ts, reversed, so each
// output is the taps times the newest inputs read in order), the band-pass sections (biquad.ts) and the codec's
// table (telephony.ts, from the codec library). No libc: the module's memory is this file's static arrays.
//
// Determinism: wasm arithmetic is IEEE (single precision for the rate filters, double for the band-pass, as the
// TypeScript cascade it replaced) with no fused multiply-add, and every sum is taken in a fixed order, so the same
// input gives the same bytes everywhere.

#include <stdint.h>
#include <wasm_simd128.h>

#define TAPS 96                 // the down filter at 24 kHz; the up filter's three phases take 32 each
#define PHASE_TAPS (TAPS / 3)
#define BLOCK 3072              // input samples per call (the caller cuts longer chunks)
#define NARROW_MAX (BLOCK / 3 + 1)

static float down_taps[TAPS];
static float up_taps[3][PHASE_TAPS];
// The same taps, each repeated in four lanes, for the up filter's four outputs at once.
static v128_t up_taps_splat[3][PHASE_TAPS];
// Down: the input kept as three interleaved streams, planar[r][t] = input 3t + r (t counted from this buffer's
// start), so four consecutive 8 kHz outputs read four consecutive samples of each stream, one per lane. Output m
// (taken at input 3m) is the taps times inputs 3m - 95 .. 3m: stream 0 at t = m - 31 .. m, streams 1 and 2 at
// t = m - 32 .. m - 1. Kept: the 32 samples of each stream before the next output's; slack for a last group of
// four whose lanes run past the input (computed, never stored).
#define PLANAR_KEPT PHASE_TAPS
static float planar[3][PLANAR_KEPT + NARROW_MAX + 8];
// The taps by stream, in the order each lane reads its window, repeated in four lanes.
static v128_t down_taps_splat[3][PHASE_TAPS];
// Where the next input goes and which output comes next, counted from the buffers' start (input units, outputs).
static int32_t next_input = 3 * PLANAR_KEPT;
static int32_t next_output = PLANAR_KEPT;
// Up: the newest PHASE_TAPS - 1 inputs of the previous call, this call's, and slack for the lanes of a last
// group of four that fall past the end (computed, never stored).
static float up_history[PHASE_TAPS - 1 + NARROW_MAX + 3];

// The band-pass: four sections of b0, b1, b2, a1, a2 (normalized), run in transposed direct form II, then the
// gain before the codec.
#define SECTIONS 4
static double band[SECTIONS][5];
static double band_memory[SECTIONS][2];
static double band_gain;
// What each PCM16 value (index: value + 32768) comes back as through the codec.
static int16_t codec[65536];

static int16_t input_block[BLOCK];
static int16_t narrow_block[NARROW_MAX];
static int16_t wide_block[3 * NARROW_MAX];

__attribute__((export_name("down_taps"))) float *down_taps_pointer(void) { return down_taps; }
__attribute__((export_name("up_taps"))) float *up_taps_pointer(void) { return &up_taps[0][0]; }
__attribute__((export_name("input_block"))) int16_t *input_pointer(void) { return input_block; }
__attribute__((export_name("narrow_block"))) int16_t *narrow_pointer(void) { return narrow_block; }
__attribute__((export_name("wide_block"))) int16_t *wide_pointer(void) { return wide_block; }
__attribute__((export_name("block_samples"))) int32_t block_samples(void) { return BLOCK; }
__attribute__((export_name("narrow_max"))) int32_t narrow_max(void) { return NARROW_MAX; }
__attribute__((export_name("taps"))) int32_t taps(void) { return TAPS; }
__attribute__((export_name("band"))) double *band_pointer(void) { return &band[0][0]; }
__attribute__((export_name("codec"))) int16_t *codec_pointer(void) { return codec; }
__attribute__((export_name("set_gain"))) void set_gain(double gain) { band_gain = gain; }

// The first `count` samples of input_block (count <= BLOCK) through the down filter; the 8 kHz outputs go to
// narrow_block and their number is returned: one for each input 3m, so ceil(count / 3) from a fresh line.
static int32_t down(int32_t count) {
  int32_t stream = next_input % 3, t = next_input / 3;
  for (int i = 0; i < count; i++) {
    planar[stream][t] = (float)input_block[i];
    if (++stream == 3) stream = 0, t++;
  }
  next_input += count;
  const int32_t last = (next_input - 1) / 3;  // the newest output whose input 3m has arrived
  int32_t produced = 0;
  for (int32_t m = next_output; m <= last; m += 4) {
    const float *s0 = planar[0] + m - (PHASE_TAPS - 1), *s1 = planar[1] + m - PHASE_TAPS,
                *s2 = planar[2] + m - PHASE_TAPS;
    // Six independent sums (each stream's even and odd taps), added in a fixed order at the end.
    v128_t a0 = wasm_f32x4_splat(0.0f), a1 = a0, a2 = a0, b0 = a0, b1 = a0, b2 = a0;
    for (int k = 0; k < PHASE_TAPS; k += 2) {
      a0 = wasm_f32x4_add(a0, wasm_f32x4_mul(down_taps_splat[0][k], wasm_v128_load(s0 + k)));
      a1 = wasm_f32x4_add(a1, wasm_f32x4_mul(down_taps_splat[1][k], wasm_v128_load(s2 + k)));
      a2 = wasm_f32x4_add(a2, wasm_f32x4_mul(down_taps_splat[2][k], wasm_v128_load(s1 + k)));
      b0 = wasm_f32x4_add(b0, wasm_f32x4_mul(down_taps_splat[0][k + 1], wasm_v128_load(s0 + k + 1)));
      b1 = wasm_f32x4_add(b1, wasm_f32x4_mul(down_taps_splat[1][k + 1], wasm_v128_load(s2 + k + 1)));
      b2 = wasm_f32x4_add(b2, wasm_f32x4_mul(down_taps_splat[2][k + 1], wasm_v128_load(s1 + k + 1)));
    }
    const v128_t sum =
        wasm_f32x4_add(wasm_f32x4_add(wasm_f32x4_add(a0, b0), wasm_f32x4_add(a1, b1)), wasm_f32x4_add(a2, b2));
    v128_t rounded = wasm_f32x4_floor(wasm_f32x4_add(sum, wasm_f32x4_splat(0.5f)));
    rounded = wasm_f32x4_pmin(wasm_f32x4_splat(32767.0f), wasm_f32x4_pmax(wasm_f32x4_splat(-32768.0f), rounded));
    const v128_t whole = wasm_i32x4_trunc_sat_f32x4(rounded);
    const int32_t lanes = last - m + 1 < 4 ? last - m + 1 : 4;
    narrow_block[produced++] = (int16_t)wasm_i32x4_extract_lane(whole, 0);
    if (lanes > 1) narrow_block[produced++] = (int16_t)wasm_i32x4_extract_lane(whole, 1);
    if (lanes > 2) narrow_block[produced++] = (int16_t)wasm_i32x4_extract_lane(whole, 2);
    if (lanes > 3) narrow_block[produced++] = (int16_t)wasm_i32x4_extract_lane(whole, 3);
  }
  // Keep the 32 samples of each stream before the next output's (PLANAR_KEPT), moved to the buffers' start.
  const int32_t shift = last + 1 - PLANAR_KEPT;
  const int32_t kept = (next_input + 2) / 3 - shift;
  for (int r = 0; r < 3; r++) {
    for (int k = 0; k < kept; k++) planar[r][k] = planar[r][shift + k];
  }
  next_input -= 3 * shift;
  next_output = PLANAR_KEPT;
  return produced;
}

// The first `count` samples of narrow_block (count <= NARROW_MAX) through the up filter: three 24 kHz outputs per
// input, in wide_block. Four inputs at a time, one per lane: each lane sums its own window in a fixed order, so
// an output's value never depends on which group of four it fell in (nor on the chunking).
static void up(int32_t count) {
  float *fresh = up_history + (PHASE_TAPS - 1);
  for (int i = 0; i < count; i++) fresh[i] = (float)narrow_block[i];
  for (int i = 0; i < count; i += 4) {
    const float *window = fresh + i - (PHASE_TAPS - 1);
    // Each phase's sum in two halves (even and odd taps), added at the end: six independent chains.
    v128_t even[3], odd[3];
    for (int phase = 0; phase < 3; phase++) even[phase] = odd[phase] = wasm_f32x4_splat(0.0f);
    for (int k = 0; k < PHASE_TAPS; k += 2) {
      const v128_t now = wasm_v128_load(window + k);
      const v128_t next = wasm_v128_load(window + k + 1);
      for (int phase = 0; phase < 3; phase++) {
        even[phase] = wasm_f32x4_add(even[phase], wasm_f32x4_mul(up_taps_splat[phase][k], now));
        odd[phase] = wasm_f32x4_add(odd[phase], wasm_f32x4_mul(up_taps_splat[phase][k + 1], next));
      }
    }
    for (int phase = 0; phase < 3; phase++) {
      // Round half up and saturate to PCM16 (as roundHalfUp and saturatePcm16 do in TypeScript), four at once.
      const v128_t sum = wasm_f32x4_add(even[phase], odd[phase]);
      v128_t rounded = wasm_f32x4_floor(wasm_f32x4_add(sum, wasm_f32x4_splat(0.5f)));
      rounded = wasm_f32x4_pmin(wasm_f32x4_splat(32767.0f), wasm_f32x4_pmax(wasm_f32x4_splat(-32768.0f), rounded));
      const v128_t whole = wasm_i32x4_trunc_sat_f32x4(rounded);
      int16_t *out = wide_block + 3 * i + phase;
      out[0] = (int16_t)wasm_i32x4_extract_lane(whole, 0);
      if (i + 1 < count) out[3] = (int16_t)wasm_i32x4_extract_lane(whole, 1);
      if (i + 2 < count) out[6] = (int16_t)wasm_i32x4_extract_lane(whole, 2);
      if (i + 3 < count) out[9] = (int16_t)wasm_i32x4_extract_lane(whole, 3);
    }
  }
  for (int k = 0; k < PHASE_TAPS - 1; k++) up_history[k] = up_history[count + k];
}

// Spreads the taps phone-line.ts wrote into the lane-repeated tables; called once after writing them.
__attribute__((export_name("taps_written"))) void taps_written(void) {
  // down_taps is reversed (phone-line.ts): tap n of the filter is down_taps[TAPS - 1 - n]. Lane window
  // position k of stream 0 meets filter tap 3(31 - k), of stream 2 tap 3(31 - k) + 1, of stream 1 tap 3(31 - k) + 2.
  for (int k = 0; k < PHASE_TAPS; k++) {
    down_taps_splat[0][k] = wasm_f32x4_splat(down_taps[3 * k + 2]);
    down_taps_splat[1][k] = wasm_f32x4_splat(down_taps[3 * k + 1]);
    down_taps_splat[2][k] = wasm_f32x4_splat(down_taps[3 * k]);
  }
  for (int phase = 0; phase < 3; phase++) {
    for (int k = 0; k < PHASE_TAPS; k++) up_taps_splat[phase][k] = wasm_f32x4_splat(up_taps[phase][k]);
  }
}

// The one double below 0.5, where floor(x + 0.5) would round up (see roundHalfUp in ../../pcm.ts).
#define LARGEST_BELOW_HALF 0.49999999999999994

// One band-pass section on its two memories, transposed direct form II (the terms in biquad.ts' order).
#define SECTION(c, z0, z1, x, y)                \
  do {                                          \
    y = c[0] * x + z0;                          \
    z0 = c[1] * x - c[3] * y + z1;              \
    z1 = c[2] * x - c[4] * y;                   \
  } while (0)

// narrow_block's first `count` samples through the band-pass, the gain and the codec, in place. The sections'
// coefficients and memories are held in locals for the loop (in memory, each sample would wait on the stores of
// the one before).
static void band_and_codec(int32_t count) {
  const double *c0 = band[0], *c1 = band[1], *c2 = band[2], *c3 = band[3];
  double a0 = band_memory[0][0], a1 = band_memory[0][1], b0 = band_memory[1][0], b1 = band_memory[1][1];
  double d0 = band_memory[2][0], d1 = band_memory[2][1], e0 = band_memory[3][0], e1 = band_memory[3][1];
  const double gain = band_gain;
  for (int32_t i = 0; i < count; i++) {
    const double x = (double)narrow_block[i];
    double y0, y1, y2, y3;
    SECTION(c0, a0, a1, x, y0);
    SECTION(c1, b0, b1, y0, y1);
    SECTION(c2, d0, d1, y1, y2);
    SECTION(c3, e0, e1, y2, y3);
    const double scaled = y3 * gain;
    double rounded = scaled == LARGEST_BELOW_HALF ? 0.0 : __builtin_floor(scaled + 0.5);
    rounded = rounded > 32767.0 ? 32767.0 : rounded < -32768.0 ? -32768.0 : rounded;
    narrow_block[i] = codec[(int32_t)rounded + 32768];
  }
  band_memory[0][0] = a0, band_memory[0][1] = a1, band_memory[1][0] = b0, band_memory[1][1] = b1;
  band_memory[2][0] = d0, band_memory[2][1] = d1, band_memory[3][0] = e0, band_memory[3][1] = e1;
}

// The first `count` samples of input_block (count <= BLOCK) through the whole line. Returns how many 8 kHz
// samples that made (ceil(count / 3) from a fresh line); three times as many 24 kHz samples are in wide_block.
__attribute__((export_name("line"))) int32_t line(int32_t count) {
  const int32_t narrow = down(count);
  band_and_codec(narrow);
  up(narrow);
  return narrow;
}
