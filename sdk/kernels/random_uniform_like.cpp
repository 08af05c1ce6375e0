// RandomUniformLike: out[0] (in[0]'s dims) filled with values uniform in
// [low, high) (params, defaults 0 and 1), as ONNX's RandomUniformLike that ONNX
// Runtime's QNN EP maps onto it (also for Bernoulli). in[1], optional, is the
// seed ([1] FLOAT_32, ONNX's seed attribute): with it every execute restarts the
// generator from that seed, so a graph repeats its outputs; without it the
// generator is seeded once per node from std::random_device and runs on. The
// generator is std::mt19937; a value is low + (high - low) * k / 2^24 with k the
// top 24 bits of a draw. Fixed-point outputs are quantized from these floats.
#include <cstring>
#include <random>


#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class RandomUniformLikeKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    low_ = params.f32("low", 0.f), high_ = params.f32("high", 1.f);
    if (!(high_ >= low_)) return sdk::invalidParam("RandomUniformLike: high must be >= low");
    engine_.seed(std::random_device{}());
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "RandomUniformLike";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    seeded_ = inputs.size() == 2 && !inputs[1].dims.empty();
    if (seeded_) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (seed)", inputs[1], {DType::kFloat32}));
      if (inputs[1].numElements() != 1) return sdk::invalidTensor(std::string(op) + ": in[1] (seed) must hold one value");
    }
    return checkOutputDims(op, outputs[0], inputs[0].dims);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (seeded_) {
      uint32_t bits;
      std::memcpy(&bits, inputs[1].data, sizeof(bits));
      engine_.seed(bits);
    }
    float* out = outputs[0].as<float>();
    const float span = high_ - low_;
    for (size_t i = 0, n = outputs[0].numElements(); i < n; ++i)
      out[i] = low_ + span * (float(engine_() >> 8) * (1.f / 16777216.f));
    return Status::ok();
  }

 private:
  float low_ = 0.f, high_ = 1.f;
  bool seeded_ = false;
  std::mt19937 engine_;
};

}  // namespace

std::unique_ptr<Kernel> makeRandomUniformLike(const std::string& opType) {
  if (opType == "RandomUniformLike") return std::make_unique<RandomUniformLikeKernel>();
  return nullptr;
}

}  // namespace qnn::ops
