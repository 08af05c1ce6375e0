// Conformance cases of RotaryEmbedding, Stft and CombinedNms (the 2.32 ops whose
// definitions sdk/opdefs/opdefs_post_2_7.json establishes): a quarter turn by
// hand, then rotations against a std::complex reference; the DFT of an impulse,
// then windowed and complex frames against a direct double-precision DFT; hand-
// worked CombinedNms scenes (IoU of two 0.5-squares offset by 0.05: 0.2025 / 0.2975).
#include <cmath>
#include <complex>
#include <cstring>
#include <random>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {
namespace {

using Dims = std::vector<uint32_t>;
using Params = std::vector<std::pair<std::string, ParamValue>>;
using Cd = std::complex<double>;

CaseTensor i32s(Dims dims, std::vector<int32_t> v) { return makeTensor(DType::kInt32, dims, v); }

// ---- RotaryEmbedding ----
// cos/sin caches of angle position * 10000^(-2k / dim).
void ropeTables(uint32_t positions, uint32_t half, std::vector<float>* c, std::vector<float>* s) {
  for (uint32_t p = 0; p < positions; ++p)
    for (uint32_t k = 0; k < half; ++k) {
      const double a = p * std::pow(10000.0, -double(k) / half);
      c->push_back(float(std::cos(a))), s->push_back(float(std::sin(a)));
    }
}

// Reference: each rotated pair as the complex number x1 + i x2 times e^(i angle).
std::vector<float> ropeRef(const std::vector<float>& x, Dims d, uint32_t rot, bool interleaved,
                           const std::vector<float>& c, const std::vector<float>& s,
                           const std::function<size_t(uint32_t, uint32_t)>& row) {
  std::vector<float> y = x;
  const uint32_t half = rot / 2;
  for (uint32_t b = 0; b < d[0]; ++b)
    for (uint32_t n = 0; n < d[1]; ++n)
      for (uint32_t t = 0; t < d[2]; ++t) {
        const size_t base = ((size_t(b) * d[1] + n) * d[2] + t) * d[3];
        for (uint32_t k = 0; k < half; ++k) {
          const size_t i1 = base + (interleaved ? 2 * k : k), i2 = base + (interleaved ? 2 * k + 1 : k + half);
          const size_t r = row(b, t) * half + k;
          const Cd z = Cd(x[i1], x[i2]) * Cd(c[r], s[r]);
          y[i1] = float(z.real()), y[i2] = float(z.imag());
        }
      }
  return y;
}

void ropeCases(std::vector<OpCase>& c) {
  // Halves pair features (0, 2) and (1, 3): (1, 0) turned a quarter is (0, 1); (0, 2) turned a half is (0, -2).
  c.push_back(makeCase("RotaryEmbedding_quarter_and_half_turn", "RotaryEmbedding",
                       {f32Tensor({1, 1, 1, 4}, {1, 0, 0, 2}), f32Tensor({1, 1, 2}, {0, -1}), f32Tensor({1, 1, 2}, {1, 0})},
                       {f32Tensor({1, 1, 1, 4}, {0, 0, 1, -2})}, {}, 1e-6, 1e-6));
  CaseRng rng(2401);
  {  // halves, position ids, full head
    const Dims d{2, 2, 3, 4};
    auto x = rng.floats(48);
    std::vector<float> cc, ss;
    ropeTables(6, 2, &cc, &ss);
    const std::vector<int32_t> ids{5, 0, 2, 1, 1, 4};
    auto y = ropeRef(x, d, 4, false, cc, ss, [&](uint32_t b, uint32_t t) { return size_t(ids[b * 3 + t]); });
    c.push_back(makeCase("RotaryEmbedding_position_ids_halves", "RotaryEmbedding",
                         {f32Tensor(d, x), f32Tensor({6, 2}, cc), f32Tensor({6, 2}, ss), i32s({2, 3}, ids)},
                         {f32Tensor(d, y)}, {}, 1e-5, 1e-5));
  }
  {  // interleaved, rotary_dim 4 of 6, caches per batch and token
    const Dims d{2, 1, 2, 6};
    auto x = rng.floats(24);
    std::vector<float> cc, ss;
    ropeTables(4, 2, &cc, &ss);  // rows b * 2 + t
    auto y = ropeRef(x, d, 4, true, cc, ss, [](uint32_t b, uint32_t t) { return size_t(b * 2 + t); });
    c.push_back(makeCase("RotaryEmbedding_interleaved_partial_dim", "RotaryEmbedding",
                         {f32Tensor(d, x), f32Tensor({2, 2, 2}, cc), f32Tensor({2, 2, 2}, ss)}, {f32Tensor(d, y)},
                         {{"interleaved", sdk::scalarBool(true)}, {"rotary_embedding_dim", sdk::scalarU32(4)}}, 1e-5, 1e-5));
  }
  {  // caches [seq, r/2] shared by the batch
    const Dims d{2, 2, 3, 2};
    auto x = rng.floats(24);
    std::vector<float> cc, ss;
    ropeTables(3, 1, &cc, &ss);
    auto y = ropeRef(x, d, 2, false, cc, ss, [](uint32_t, uint32_t t) { return size_t(t); });
    c.push_back(makeCase("RotaryEmbedding_caches_shared_by_batch", "RotaryEmbedding",
                         {f32Tensor(d, x), f32Tensor({3, 1}, cc), f32Tensor({3, 1}, ss)}, {f32Tensor(d, y)}, {}, 1e-5,
                         1e-5));
  }
}

// ---- Stft ----
std::vector<float> stftRef(const std::vector<float>& x, uint32_t batch, uint32_t len, uint32_t comps,
                           const std::vector<float>& window, uint32_t frame, uint32_t step, bool onesided) {
  const uint32_t frames = (len - frame) / step + 1, bins = onesided ? frame / 2 + 1 : frame;
  std::vector<float> out;
  for (uint32_t b = 0; b < batch; ++b)
    for (uint32_t t = 0; t < frames; ++t)
      for (uint32_t k = 0; k < bins; ++k) {
        Cd acc = 0;
        for (uint32_t n = 0; n < frame; ++n) {
          const size_t i = (size_t(b) * len + t * step + n) * comps;
          const Cd v(x[i], comps == 2 ? x[i + 1] : 0.0);
          acc += (window.empty() ? 1.0 : double(window[n])) * v * std::polar(1.0, -2 * M_PI * k * n / frame);
        }
        out.push_back(float(acc.real())), out.push_back(float(acc.imag()));
      }
  return out;
}

void stftCases(std::vector<OpCase>& c) {
  // The DFT of an impulse is flat: (1, 0) in every bin.
  c.push_back(makeCase("Stft_impulse_is_flat", "Stft", {f32Tensor({1, 4, 1}, {1, 0, 0, 0})},
                       {f32Tensor({1, 1, 3, 2}, {1, 0, 1, 0, 1, 0})},
                       {{"frame_step", sdk::scalarU32(4)}, {"frame_length", sdk::scalarU32(4)}}, 1e-6, 1e-6));
  CaseRng rng(2402);
  {  // Hann window, onesided, overlapping frames
    auto x = rng.floats(2 * 20);
    std::vector<float> hann(8);
    for (int n = 0; n < 8; ++n) hann[n] = float(0.5 - 0.5 * std::cos(2 * M_PI * n / 8));
    const auto want = stftRef(x, 2, 20, 1, hann, 8, 3, true);
    c.push_back(makeCase("Stft_hann_onesided_overlapping", "Stft", {f32Tensor({2, 20, 1}, x), f32Tensor({8}, hann)},
                         {f32Tensor({2, 5, 5, 2}, want)}, {{"frame_step", sdk::scalarU32(3)}}, 1e-5, 1e-4));
  }
  {  // complex input, two-sided, no window
    auto x = rng.floats(16 * 2);
    const auto want = stftRef(x, 1, 16, 2, {}, 5, 4, false);
    c.push_back(makeCase("Stft_complex_two_sided", "Stft", {f32Tensor({1, 16, 2}, x)}, {f32Tensor({1, 3, 5, 2}, want)},
                         {{"frame_step", sdk::scalarU32(4)}, {"frame_length", sdk::scalarU32(5)},
                          {"onesided", sdk::scalarBool(false)}},
                         1e-5, 1e-4));
  }
}

// ---- CombinedNms ----
void combinedNmsCases(std::vector<OpCase>& c) {
  // A (0, 0, .5, .5), B offset by .05 (IoU 0.68 with A), C (.6, .6, 1.2, 1.2) reaching past the image.
  const auto boxes = f32Tensor({1, 3, 1, 4}, {0, 0, .5f, .5f, .05f, .05f, .55f, .55f, .6f, .6f, 1.2f, 1.2f});
  const auto scores = f32Tensor({1, 3, 2}, {.9f, .1f, .8f, .6f, .7f, .2f});
  auto params = [](uint32_t perClass, uint32_t total, bool pad) {
    return Params{{"max_boxes_per_class", sdk::scalarU32(perClass)}, {"max_total_boxes", sdk::scalarU32(total)},
                  {"iou_threshold", sdk::scalarF32(0.5f)}, {"score_threshold", sdk::scalarF32(0.15f)},
                  {"pad_per_class", sdk::scalarBool(pad)}};
  };
  // class 0: A, C (B suppressed); class 1: B, C (A's 0.1 below 0.15); C clipped to [0, 1].
  c.push_back(makeCase("CombinedNms_two_classes_clipped", "CombinedNms", {boxes, scores},
                       {f32Tensor({1, 5, 4}, {0, 0, .5f, .5f, .6f, .6f, 1, 1, .05f, .05f, .55f, .55f, .6f, .6f, 1, 1, 0, 0, 0, 0}),
                        f32Tensor({1, 5}, {.9f, .7f, .6f, .2f, 0}), f32Tensor({1, 5}, {0, 0, 1, 1, 0}), i32s({1}, {4})},
                       params(2, 5, false), 1e-6, 1e-6));
  // pad_per_class: rows = min(5, 1 * 2); one box per class.
  c.push_back(makeCase("CombinedNms_pad_per_class_rows", "CombinedNms", {boxes, scores},
                       {f32Tensor({1, 2, 4}, {0, 0, .5f, .5f, .05f, .05f, .55f, .55f}), f32Tensor({1, 2}, {.9f, .6f}),
                        i32s({1, 2}, {0, 1}), i32s({1}, {2})},
                       params(1, 5, true), 1e-6, 1e-6));
  // Boxes per class (q = 2), no clipping, default score threshold (-inf): class 0's two boxes coincide.
  c.push_back(makeCase("CombinedNms_boxes_per_class_unclipped", "CombinedNms",
                       {f32Tensor({1, 2, 2, 4}, {0, 0, 1, 1, 0, 0, 2, 2, 0, 0, 1, 1, 3, 3, 4, 4}),
                        f32Tensor({1, 2, 2}, {.8f, .1f, .7f, .3f})},
                       {f32Tensor({1, 3, 4}, {0, 0, 1, 1, 3, 3, 4, 4, 0, 0, 2, 2}), f32Tensor({1, 3}, {.8f, .3f, .1f}),
                        f32Tensor({1, 3}, {0, 1, 1}), i32s({1}, {3})},
                       {{"max_boxes_per_class", sdk::scalarU32(2)}, {"max_total_boxes", sdk::scalarU32(3)},
                        {"clip_boxes", sdk::scalarBool(false)}},
                       1e-6, 1e-6));
}

// ---- RandomUniformLike: low == high is exact whatever the generator; a seeded node follows the
// documented generator (std::mt19937 seeded with the seed's bits, top 24 bits of each draw).
void randomUniformCases(std::vector<OpCase>& c) {
  const auto shape = f32Tensor({2, 3}, std::vector<float>(6, 0.f));
  c.push_back(makeCase("RandomUniformLike_empty_range_is_low", "RandomUniformLike", {shape},
                       {f32Tensor({2, 3}, std::vector<float>(6, 2.5f))},
                       {{"low", sdk::scalarF32(2.5f)}, {"high", sdk::scalarF32(2.5f)}}));
  const float seed = 7.f;
  uint32_t bits;
  std::memcpy(&bits, &seed, sizeof(bits));
  std::mt19937 gen(bits);
  std::vector<float> want;
  for (int i = 0; i < 6; ++i) want.push_back(-1.f + 4.f * (float(gen() >> 8) * (1.f / 16777216.f)));
  c.push_back(makeCase("RandomUniformLike_seeded_documented_generator", "RandomUniformLike",
                       {shape, f32Tensor({1}, {seed}, true)}, {f32Tensor({2, 3}, want)},
                       {{"low", sdk::scalarF32(-1.f)}, {"high", sdk::scalarF32(3.f)}}));
}

std::vector<OpCase> llmSignalCases() {
  std::vector<OpCase> c;
  ropeCases(c);
  stftCases(c);
  combinedNmsCases(c);
  randomUniformCases(c);
  return c;
}

}  // namespace
}  // namespace qnn::conformance

static const bool kReg = qnn::conformance::registerCaseSource("llm_signal", qnn::conformance::llmSignalCases);
