// RandomNormalLike (op set 2.13): out[0] filled with normal values of mean `mean`
// and standard deviation `scale` (params, defaults 0 and 1), as ONNX's
// RandomNormalLike that ONNX Runtime's QNN EP maps onto it. in[0] is a [rank]
// UINT_32 tensor holding the output's dims (the EP sends the ONNX input's shape
// as a static tensor); the output's dims must equal them. in[1], optional, is the
// seed ([1] FLOAT_32, ONNX's seed attribute): with it every execute restarts the
// generator from the seed's bits, so a graph repeats its outputs; without it the
// generator is seeded once per node from std::random_device and runs on.
// The generator (the values are backend specific, so this one is ours): std::mt19937;
// each value takes two draws a, b (top 24 bits each, u = 1 - a / 2^24 in (0, 1],
// v = b / 2^24) and is mean + scale * sqrt(-2 ln u) * cos(2 pi v) (Box-Muller),
// computed in double and rounded to float. Fixed-point outputs are quantized
// from these floats.
#include <cmath>
#include <cstring>
#include <random>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class RandomNormalLikeKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    mean_ = params.f32("mean", 0.f), scale_ = params.f32("scale", 1.f);
    if (!std::isfinite(mean_) || !(scale_ >= 0.f) || !std::isfinite(scale_))
      return sdk::invalidParam("RandomNormalLike: mean must be finite and scale finite and >= 0");
    engine_.seed(std::random_device{}());
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "RandomNormalLike";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (shape)", inputs[0], {DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (shape)", inputs[0], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    if (inputs[0].dims[0] != outputs[0].rank())
      return sdk::invalidTensor(std::string(op) + ": in[0] holds " + std::to_string(inputs[0].dims[0]) +
                                " dims, out[0] has rank " + std::to_string(outputs[0].rank()));
    seeded_ = inputs.size() == 2 && !inputs[1].dims.empty();
    if (seeded_) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (seed)", inputs[1], {DType::kFloat32}));
      if (inputs[1].numElements() != 1) return sdk::invalidTensor(std::string(op) + ": in[1] (seed) must hold one value");
    }
    return inputs[0].data ? checkShape(inputs[0], outputs[0]) : Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkShape(inputs[0], outputs[0]));
    if (seeded_) {
      uint32_t bits;
      std::memcpy(&bits, inputs[1].data, sizeof(bits));
      engine_.seed(bits);
    }
    float* out = outputs[0].as<float>();
    const double twoPi = 6.283185307179586476925;
    for (size_t i = 0, n = outputs[0].numElements(); i < n; ++i) {
      const double u = 1.0 - double(engine_() >> 8) / 16777216.0;
      const double v = double(engine_() >> 8) / 16777216.0;
      out[i] = float(double(mean_) + double(scale_) * std::sqrt(-2.0 * std::log(u)) * std::cos(twoPi * v));
    }
    return Status::ok();
  }

 private:
  static Status checkShape(const TensorView& shape, const TensorView& out) {
    const uint32_t* d = shape.as<const uint32_t>();
    for (size_t k = 0; k < out.rank(); ++k)
      if (d[k] != out.dims[k])
        return sdk::invalidTensor("RandomNormalLike: in[0] holds the dims " +
                                  dimsToString(std::vector<uint32_t>(d, d + out.rank())) + ", out[0] is " +
                                  dimsToString(out.dims));
    return Status::ok();
  }

  float mean_ = 0.f, scale_ = 1.f;
  bool seeded_ = false;
  std::mt19937 engine_;
};

}  // namespace

std::unique_ptr<Kernel> makeRandomNormalLike(const std::string& opType) {
  if (opType == "RandomNormalLike") return std::make_unique<RandomNormalLikeKernel>();
  return nullptr;
}

}  // namespace qnn::ops
