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
// Explicit vectors, two at a time (the compiled body above ran one
// latency-bound chain per 16 elements): 0.5 x (1 + erf(x / sqrt 2)). The last
// few elements go through the same vector code under a mask, so an element's
// value does not depend on where it sits in the tensor.
QNN_CPU_TARGET_AVX512 inline __m512 gelu512(__m512 a) {
  const __m512 e = vexp::erf512(_mm512_mul_ps(a, _mm512_set1_ps(float(M_SQRT1_2))));
  return _mm512_mul_ps(_mm512_mul_ps(_mm512_set1_ps(0.5f), a), _mm512_add_ps(_mm512_set1_ps(1.f), e));
}
QNN_CPU_TARGET_AVX512 void geluAvx512(const float* x, float* y, size_t n) {
  size_t i = 0;
  for (; i + 32 <= n; i += 32) {
    const __m512 a = gelu512(_mm512_loadu_ps(x + i)), b = gelu512(_mm512_loadu_ps(x + i + 16));
    _mm512_storeu_ps(y + i, a);
    _mm512_storeu_ps(y + i + 16, b);
  }
  for (; i < n; i += 16) {
    const __mmask16 m = n - i >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (n - i)) - 1);
    _mm512_mask_storeu_ps(y + i, m, gelu512(_mm512_maskz_loadu_ps(m, x + i)));
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
