// Activation functions (one functor each on the shared MapKernel) and Prelu,
// whose slope tensor broadcasts onto the input.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "core/vector_math.h"
#include "cpu/kernels/broadcast.h"
#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/elementwise_map.h"
#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/vector_activation.h"
#include "cpu/kernels/vector_exp.h"

namespace qnn::cpu {
namespace {

struct Relu { float operator()(float x) const { return x > 0.f ? x : 0.f; } };
struct Relu1 { float operator()(float x) const { return std::min(std::max(x, -1.f), 1.f); } };
struct Relu6 { float operator()(float x) const { return std::min(std::max(x, 0.f), 6.f); } };
struct ReluMinMax {
  explicit ReluMinMax(const MapParams& p) : lo(p.minValue), hi(p.maxValue) {}
  float operator()(float x) const { return std::min(std::max(x, lo), hi); }
  // Integers clamp to the integers inside [lo, hi], computed in double so that
  // bounds beyond the int32 range saturate instead of overflowing.
  int32_t operator()(int32_t x) const {
    const double v = std::min(std::max(static_cast<double>(x), std::ceil(double(lo))), std::floor(double(hi)));
    return static_cast<int32_t>(v);
  }
  float lo, hi;
};
// Gelu and Sigmoid loop over whole ranges with vector_math.h's exp / erf,
// compiled per ISA (libm's scalar erf cost ~8 ns an element: a transformer's
// FFN spent more time in Gelu than in its matrix products).
using RangeFn = void (*)(const float*, float*, size_t);
QNN_CPU_ALWAYS_INLINE void geluBody(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = 0.5f * x[i] * (1.f + sdk::erfApprox(x[i] * float(M_SQRT1_2)));
}
QNN_CPU_ALWAYS_INLINE void sigmoidBody(const float* x, float* y, size_t n) {
  for (size_t i = 0; i < n; ++i) y[i] = 1.f / (1.f + sdk::expApprox(-x[i]));
}
#if defined(__x86_64__)
// Explicit vectors: 0.5 x (1 + erf(x / sqrt 2)), vector_exp.h's erf512 lane by lane (the compiled
// body above ran one latency-bound chain per 16 elements). The last few elements go through the
// same vector code under a mask, so an element's value does not depend on where it sits in the
// tensor.
QNN_CPU_TARGET_AVX512 inline __m512 geluOf(__m512 a, __m512 erfOfScaled) {
  return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), a), _mm512_add_ps(_mm512_set1_ps(1.f), erfOfScaled));
}
// Each lane as erf512 gives it, the costly erfc form only for the lanes that take it: erf512 runs it
// for all sixteen lanes of a vector with one beyond |x / sqrt 2| = 2, and in a transformer's FFN
// ~6 % of the values are out there, so ~60 % of the vectors paid for it. Here every vector takes
// the rational form; the far lanes' inputs and places are packed together per block, run through
// the erfc form sixteen at a time and written back over their lanes. The same values, lane by lane
// (y may be x: the far inputs are copied before their lanes are written).
QNN_CPU_TARGET_AVX512 void geluAvx512(const float* x, float* y, size_t n) {
  constexpr size_t kBlock = 512;
  alignas(64) float farIn[kBlock];
  alignas(64) int32_t farAt[kBlock];
  const __m512 invSqrt2 = _mm512_set1_ps(float(M_SQRT1_2)), two = _mm512_set1_ps(2.f);
  const __m512i lanes = _mm512_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  for (size_t b0 = 0; b0 < n; b0 += kBlock) {
    const size_t len = std::min(kBlock, n - b0);
    size_t far = 0;
    for (size_t i = 0; i < len; i += 16) {
      const __mmask16 m = len - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (len - i)) - 1);
      const __m512 a = _mm512_maskz_loadu_ps(m, x + b0 + i);
      const __m512 s = _mm512_mul_ps(a, invSqrt2);
      // As erf512: beyond 2 or NaN (unordered) takes the erfc form.
      const __mmask16 f = m & _mm512_cmp_ps_mask(_mm512_abs_ps(s), two, _CMP_NLE_UQ);
      if (f) {
        _mm512_mask_compressstoreu_ps(farIn + far, f, a);
        _mm512_mask_compressstoreu_epi32(farAt + far, f, _mm512_add_epi32(lanes, _mm512_set1_epi32(int32_t(i))));
        far += size_t(__builtin_popcount(f));
      }
      _mm512_mask_storeu_ps(y + b0 + i, m, geluOf(a, vexp::erfNear512(s)));
    }
    for (size_t k = 0; k < far; k += 16) {
      const __mmask16 m = far - k >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (far - k)) - 1);
      const __m512 a = _mm512_maskz_load_ps(m, farIn + k);
      const __m512 g = geluOf(a, vexp::erfFar512(_mm512_mul_ps(a, invSqrt2)));
      _mm512_mask_i32scatter_ps(y + b0, m, _mm512_maskz_load_epi32(m, farAt + k), g, 4);
    }
  }
}
#else
void geluAvx512(const float* x, float* y, size_t n) { geluBody(x, y, n); }
#endif
QNN_CPU_TARGET_AVX2 void geluAvx2(const float* x, float* y, size_t n) { geluBody(x, y, n); }
void geluPortable(const float* x, float* y, size_t n) { geluBody(x, y, n); }
QNN_CPU_TARGET_AVX512 void sigmoidAvx512(const float* x, float* y, size_t n) { sigmoidBody(x, y, n); }
QNN_CPU_TARGET_AVX2 void sigmoidAvx2(const float* x, float* y, size_t n) { sigmoidBody(x, y, n); }
void sigmoidPortable(const float* x, float* y, size_t n) { sigmoidBody(x, y, n); }
void sigmoidRange(const float* x, float* y, size_t n) {
  static const RangeFn fn = pickForIsa<RangeFn>(sigmoidAvx512, sigmoidAvx2, sigmoidPortable);
  fn(x, y, n);
}
template <void (*Range)(const float*, float*, size_t)>
void runRange(const TensorView& in, const TensorView& out, const MapParams&) {
  const float* src = in.as<const float>();
  float* dst = out.as<float>();
  parallelFor(in.numElements(), kElementwiseGrain, [&](size_t b, size_t e) { Range(src + b, dst + b, e - b); });
}
template <void (*Range)(const float*, float*, size_t)>
MapRunner pickRange(DType dtype) {
  return dtype == DType::kFloat32 ? &runRange<Range> : nullptr;
}
struct Tanh { float operator()(float x) const { return std::tanh(x); } };
struct HardSwish { float operator()(float x) const { return x * std::min(std::max(x + 3.f, 0.f), 6.f) / 6.f; } };
struct Elu {
  explicit Elu(const MapParams& p) : alpha(p.alpha) {}
  float operator()(float x) const { return x > 0.f ? x : alpha * std::expm1(x); }
  float alpha;
};
// Op set 2.13 (API 2.39): Erf element-wise (libm's erf, correctly rounded to a
// few ulps) and ThresholdedRelu (x where x > alpha, else 0; alpha default 1).
struct Erf { float operator()(float x) const { return std::erf(x); } };
struct ThresholdedRelu {
  explicit ThresholdedRelu(const MapParams& p) : alpha(p.alpha) {}
  float operator()(float x) const { return x > alpha ? x : 0.f; }
  float alpha;
};

Status readReluMinMaxParams(const OpParams& params, MapParams* p) {
  if (!params.has("min_value") || !params.has("max_value"))
    return sdk::invalidParam("ReluMinMax: min_value and max_value are mandatory");
  p->minValue = params.f32("min_value", 0.f);
  p->maxValue = params.f32("max_value", 0.f);
  if (!(p->minValue <= p->maxValue))
    return sdk::invalidParam("ReluMinMax: min_value " + std::to_string(p->minValue) + " exceeds max_value " +
                             std::to_string(p->maxValue));
  return Status::ok();
}

// Elu's and ThresholdedRelu's alpha (both default 1).
Status readEluParams(const OpParams& params, MapParams* p) {
  p->alpha = params.f32("alpha", 1.f);
  return Status::ok();
}

constexpr DType kF32 = DType::kFloat32;

const MapOpSpec kActivations[] = {
    {"Relu", pickMapRunner<Relu, kF32>},
    {"Relu1", pickMapRunner<Relu1, kF32>},
    {"Relu6", pickMapRunner<Relu6, kF32>},
    {"ReluMinMax", pickMapRunner<ReluMinMax, kF32, DType::kInt32>, DType::kUndefined, readReluMinMaxParams},
    {"Gelu", pickRange<geluRange>},
    {"Sigmoid", pickRange<sigmoidRange>},
    {"Tanh", pickMapRunner<Tanh, kF32>},
    {"HardSwish", pickMapRunner<HardSwish, kF32>},
    {"Elu", pickMapRunner<Elu, kF32>, DType::kUndefined, readEluParams},
    {"Erf", pickMapRunner<Erf, kF32>},
    {"ThresholdedRelu", pickMapRunner<ThresholdedRelu, kF32>, DType::kUndefined, readEluParams},
};

// out = x >= 0 ? x : slope * x, with the slope broadcast onto in[0]'s shape
// (never the other way: the output has in[0]'s dims).
class PreluKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Prelu";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {kF32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (slope)", in[1], {kF32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], {kF32}));
    if (in[0].rank() == 0 || in[1].rank() == 0 || in[1].rank() > in[0].rank())
      return sdk::invalidTensor(std::string(op) + ": slope rank must be in 1..rank(in[0]), got in[0] " +
                                dimsToString(in[0].dims) + " and slope " + dimsToString(in[1].dims));
    std::vector<uint32_t> outDims;
    QNN_SDK_RETURN_IF_ERROR(makeBroadcastPlan(op, {in[0].dims, in[1].dims}, &outDims, &plan_));
    if (outDims != in[0].dims)
      return sdk::invalidTensor(std::string(op) + ": slope " + dimsToString(in[1].dims) +
                                " does not broadcast onto in[0] " + dimsToString(in[0].dims));
    return checkOutputDims(op, out[0], in[0].dims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const float* x = in[0].as<const float>();
    const float* slope = in[1].as<const float>();
    float* o = out[0].as<float>();
    const size_t slopeStep = plan_.rowStep(1);
    forEachBroadcastRow<2>(plan_, kElementwiseGrain, [&](size_t outOff, const size_t* off, size_t n) {
      const float* xs = x + off[0];
      const float* s = slope + off[1];
      float* dst = o + outOff;
      if (slopeStep) {
        for (size_t i = 0; i < n; ++i) dst[i] = xs[i] >= 0.f ? xs[i] : s[i] * xs[i];
      } else {
        const float sv = *s;
        for (size_t i = 0; i < n; ++i) dst[i] = xs[i] >= 0.f ? xs[i] : sv * xs[i];
      }
    });
    return Status::ok();
  }

 private:
  BroadcastPlan plan_;
};

}  // namespace

void geluRange(const float* x, float* y, size_t n) {
  static const RangeFn fn = pickForIsa<RangeFn>(geluAvx512, geluAvx2, geluPortable);
  fn(x, y, n);
}

std::unique_ptr<Kernel> makeActivation(const std::string& opType) { return makeMapKernel(kActivations, opType); }

std::unique_ptr<Kernel> makePrelu(const std::string& opType) {
  return opType == "Prelu" ? std::make_unique<PreluKernel>() : nullptr;
}

}  // namespace qnn::cpu
