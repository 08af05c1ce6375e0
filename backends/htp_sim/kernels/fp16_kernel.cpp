#include <cmath>
#include <cstring>

#include "fp16.h"

#include "core/weight_form_cache.h"

namespace qnn::htp {

void loadHalfValues(const TensorView& t, std::vector<float>* out, bool round) {
  const size_t n = t.numElements();
  out->resize(n);
  if (t.dtype == DType::kFloat16) {
    const auto* h = static_cast<const uint16_t*>(t.data);
    for (size_t i = 0; i < n; ++i) (*out)[i] = sdk::quant::halfBitsToFloat(h[i]);
  } else {
    const auto* f = static_cast<const float*>(t.data);
    for (size_t i = 0; i < n; ++i) (*out)[i] = round ? roundToHalf(f[i]) : f[i];
  }
}

namespace {
constexpr float kHalfMax = 65504.f;
// v rounded to half, a finite v that overflows half saturated to +-65504 when `saturate`.
float halfOf(float v, bool saturate) {
  const float h = roundToHalf(v);
  return saturate && std::isinf(h) && std::isfinite(v) ? std::copysign(kHalfMax, v) : h;
}
}  // namespace

void storeHalfValues(const TensorView& t, const float* values, size_t n, bool round, bool saturate) {
  if (t.dtype == DType::kFloat16) {
    auto* h = static_cast<uint16_t*>(t.data);
    for (size_t i = 0; i < n; ++i) h[i] = sdk::quant::floatToHalfBits(halfOf(values[i], saturate));
  } else {
    auto* f = static_cast<float*>(t.data);
    for (size_t i = 0; i < n; ++i) f[i] = round ? halfOf(values[i], saturate) : values[i];
  }
}

namespace {
sdk::WeightFormCache<float>& floatForms() {
  // Destroyed with the library; forms still held by kernels stay valid (the
  // cache holds them weakly).
  static sdk::WeightFormCache<float> cache;
  return cache;
}
}  // namespace

Status Fp16Kernel::prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  const char* op = op_.c_str();
  const size_t nf = std::min(floatInputCount(inputs.size()), inputs.size());
  for (size_t i = 0; i < nf; ++i)
    if (inputs[i].dtype != DType::kUndefined || inputs[i].data)
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, ("in[" + std::to_string(i) + "]").c_str(), inputs[i], kFloatTypes));
  for (size_t o = 0; o < outputs.size(); ++o)
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, ("out[" + std::to_string(o) + "]").c_str(), outputs[o], kFloatTypes));
  QNN_SDK_RETURN_IF_ERROR(shapePrepare(inputs, outputs));
  staticValues_.assign(nf, nullptr);
  dynamicValues_.assign(nf, {});
  isStatic_.assign(nf, false);
  for (size_t i = 0; i < nf; ++i)
    if (inputs[i].data) {
      isStatic_[i] = true;
      // Weights converted (and rounded to half) once, for every kernel using them.
      const TensorView& w = inputs[i];
      staticValues_[i] = floatForms().get(w.data, w.numElements() * sdk::dtypeSize(w.dtype),
                                          std::string(sdk::dtypeName(w.dtype)) + (roundToHalf_ ? ":half" : ":float"),
                                          [&] {
                                            std::vector<float> values;
                                            loadHalfValues(w, &values, roundToHalf_);
                                            return values;
                                          });
    }
  outValues_.assign(outputs.size(), {});
  for (size_t o = 0; o < outputs.size(); ++o) outValues_[o].resize(outputs[o].numElements());
  return Status::ok();
}

Status Fp16Kernel::execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  std::vector<const std::vector<float>*> in(staticValues_.size());
  for (size_t i = 0; i < in.size(); ++i) {
    if (isStatic_[i]) {
      in[i] = staticValues_[i].get();
    } else {
      if (inputs[i].data) loadHalfValues(inputs[i], &dynamicValues_[i], roundToHalf_);
      else dynamicValues_[i].clear();
      in[i] = &dynamicValues_[i];
    }
  }
  try {
    QNN_SDK_RETURN_IF_ERROR(compute(in, outValues_, inputs));
  } catch (const std::bad_alloc&) {
    return {sdk::StatusCode::kOutOfMemory, op_ + ": out of memory"};
  }
  for (size_t o = 0; o < outputs.size(); ++o)
    storeHalfValues(outputs[o], outValues_[o].data(), outValues_[o].size(), roundToHalf_, saturate_);
  return Status::ok();
}

}  // namespace qnn::htp
