// fp16-mode element-wise ops: binary ops with broadcasting and the unary
// activations, each element computed in float32 from fp16 operands and
// rounded to half (fp16.h).
#include <algorithm>
#include <cmath>
#include <limits>

#include "htp_sim/kernels/copy_runs.h"
#include "core/generic_elementwise.h"
#include "htp_sim/kernels/fp16.h"

namespace qnn::htp {
namespace {

using BinaryFn = float (*)(float, float);

BinaryFn binaryFn(const std::string& op) {
  if (op == "ElementWiseAdd") return [](float a, float b) { return a + b; };
  if (op == "ElementWiseSubtract") return [](float a, float b) { return a - b; };
  if (op == "ElementWiseMultiply") return [](float a, float b) { return a * b; };
  if (op == "ElementWiseDivide") return [](float a, float b) { return a / b; };
  if (op == "ElementWiseMaximum") return [](float a, float b) { return std::max(a, b); };
  if (op == "ElementWiseMinimum") return [](float a, float b) { return std::min(a, b); };
  if (op == "ElementWiseSquaredDifference") return [](float a, float b) { return (a - b) * (a - b); };
  if (op == "ElementWisePower") return [](float a, float b) { return std::pow(a, b); };
  if (op == "ElementWiseFloorDiv") return [](float a, float b) { return std::floor(a / b); };
  if (op == "Prelu") return [](float x, float slope) { return x >= 0.f ? x : x * slope; };
  return nullptr;
}

class Fp16Binary final : public Fp16Kernel {
 public:
  Fp16Binary(const std::string& op, BinaryFn fn) : Fp16Kernel(op), fn_(fn) {}
  Status init(const OpParams&) override { return Status::ok(); }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 2, 2, out, 1));
    std::vector<uint32_t> dims;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op_.c_str(), in[0].dims, in[1].dims, &dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_.c_str(), out[0], dims));
    mapA_ = broadcastIndexMap(in[0].dims, dims);
    mapB_ = broadcastIndexMap(in[1].dims, dims);
    // A broadcast operand is spread to the output's shape along copy runs first (memcpy-fast),
    // then Add / Subtract / Multiply run as one vectorizable loop: the same float operation on
    // the same pair of values per element.
    const size_t n = out[0].numElements();
    for (int side = 0; side < 2; ++side) {
      const std::vector<uint32_t>& map = side == 0 ? mapA_ : mapB_;
      runs_[side].clear();
      if (!map.empty())
        buildCopyRuns(
            n, [&map](size_t i, uint32_t* input, int64_t* index) { *input = 0, *index = map[i]; }, &runs_[side]);
    }
    return Status::ok();
  }
  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const std::vector<float>& a = *in[0];
    const std::vector<float>& b = *in[1];
    const bool plain = (mapA_.empty() || !runs_[0].empty()) && (mapB_.empty() || !runs_[1].empty());
    if (plain && (op_ == "ElementWiseAdd" || op_ == "ElementWiseSubtract" || op_ == "ElementWiseMultiply")) {
      const float* x = spread(0, a, out[0].size());
      const float* y = spread(1, b, out[0].size());
      float* z = out[0].data();
      const size_t n = out[0].size();
      if (op_ == "ElementWiseAdd")
        for (size_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
      else if (op_ == "ElementWiseSubtract")
        for (size_t i = 0; i < n; ++i) z[i] = x[i] - y[i];
      else
        for (size_t i = 0; i < n; ++i) z[i] = x[i] * y[i];
      return Status::ok();
    }
    for (size_t i = 0; i < out[0].size(); ++i)
      out[0][i] = fn_(a[mapA_.empty() ? i : mapA_[i]], b[mapB_.empty() ? i : mapB_[i]]);
    return Status::ok();
  }

 private:
  // Operand `side` at the output's shape: the values themselves, or spread along its runs.
  const float* spread(int side, const std::vector<float>& v, size_t n) {
    if (runs_[side].empty()) return v.data();
    spread_[side].resize(n);
    copyAlongRuns(runs_[side], {v.data()}, spread_[side].data(), sizeof(float), 0);
    return spread_[side].data();
  }

  BinaryFn fn_;
  std::vector<uint32_t> mapA_, mapB_;
  std::vector<CopyRun> runs_[2];
  std::vector<float> spread_[2];
};

class Fp16Unary final : public Fp16Kernel {
 public:
  using Fp16Kernel::Fp16Kernel;
  Status init(const OpParams& params) override {
    lo_ = -std::numeric_limits<float>::infinity(), hi_ = std::numeric_limits<float>::infinity();
    alpha_ = params.f32("alpha", 1.f);
    if (op_ == "Relu") lo_ = 0;
    else if (op_ == "Relu6") lo_ = 0, hi_ = 6;
    else if (op_ == "Relu1") lo_ = -1, hi_ = 1;
    else if (op_ == "ReluMinMax") {
      if (!params.has("min_value") || !params.has("max_value"))
        return sdk::invalidParam("ReluMinMax: min_value and max_value are mandatory");
      lo_ = params.f32("min_value", 0.f), hi_ = params.f32("max_value", 0.f);
    }
    clamp_ = op_ == "Relu" || op_ == "Relu6" || op_ == "Relu1" || op_ == "ReluMinMax";
    fn_ = op_;
    if (op_ == "ElementWiseNeuron") {  // HARD_SIGMOID only
      HardSigmoidParams p;
      QNN_SDK_RETURN_IF_ERROR(neuronHardSigmoidParams(params, &p));
      alpha_ = p.alpha, beta_ = p.beta;
      fn_ = "HARD_SIGMOID";
    }
    if (op_ == "ElementWiseUnary") {  // the operation's dedicated op (core/generic_elementwise.h)
      bool defined = false;
      const char* target = sdk::genericElementWiseTarget(op_, params.u32("operation", 0), &defined);
      if (!defined) return sdk::invalidParam("ElementWiseUnary: operation " + std::to_string(params.u32("operation", 0)) +
                                             " is not defined");
      fn_ = target ? target : "RECIPROCAL";
    }
    return Status::ok();
  }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 1, 1, out, 1));
    return checkOutputDims(op_.c_str(), out[0], in[0].dims);
  }
  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const std::vector<float>& x = *in[0];
    std::vector<float>& y = out[0];
    if (clamp_) {
      for (size_t i = 0; i < x.size(); ++i) y[i] = std::min(std::max(x[i], lo_), hi_);
      return Status::ok();
    }
    for (size_t i = 0; i < x.size(); ++i) y[i] = apply(x[i]);
    return Status::ok();
  }

 private:
  float apply(float v) const {
    const std::string& op = fn_;
    if (op == "Sigmoid") return 1.f / (1.f + std::exp(-v));
    if (op == "Tanh") return std::tanh(v);
    if (op == "Gelu") return 0.5f * v * (1.f + std::erf(v * 0.70710678118654752f));
    if (op == "HardSwish") return v * std::min(std::max(v + 3.f, 0.f), 6.f) / 6.f;
    if (op == "Elu") return v > 0 ? v : alpha_ * (std::exp(v) - 1.f);
    if (op == "ElementWiseExp") return std::exp(v);
    if (op == "ElementWiseLog") return std::log(v);
    if (op == "ElementWiseSquareRoot") return std::sqrt(v);
    if (op == "ElementWiseRsqrt") return 1.f / std::sqrt(v);
    if (op == "ElementWiseAbs") return std::fabs(v);
    if (op == "ElementWiseNeg") return -v;
    if (op == "ElementWiseAtan") return std::atan(v);
    if (op == "ElementWiseAsin") return std::asin(v);
    if (op == "ElementWiseSin") return std::sin(v);
    if (op == "ElementWiseCos") return std::cos(v);
    if (op == "ElementWiseCeil") return std::ceil(v);
    if (op == "ElementWiseFloor") return std::floor(v);
    if (op == "ElementWiseRound") return std::nearbyint(v);  // ties to even, as ONNX Round
    if (op == "ElementWiseSign") return float((0.f < v) - (v < 0.f));
    if (op == "ElementWiseNot") return v == 0.f ? 1.f : 0.f;
    if (op == "RECIPROCAL") return 1.f / v;
    if (op == "HARD_SIGMOID") return std::min(1.f, std::max(0.f, alpha_ * v + beta_));
    return v;
  }

  bool clamp_ = false;
  float lo_ = 0, hi_ = 0, alpha_ = 1, beta_ = 0;
  std::string fn_;  // the function's op name (ElementWiseUnary: its operation's)
};

}  // namespace

std::unique_ptr<Kernel> makeFp16Binary(const std::string& op) {
  BinaryFn fn = binaryFn(op);
  return fn ? std::make_unique<Fp16Binary>(op, fn) : nullptr;
}
std::unique_ptr<Kernel> makeFp16Unary(const std::string& op) { return std::make_unique<Fp16Unary>(op); }

}  // namespace qnn::htp
