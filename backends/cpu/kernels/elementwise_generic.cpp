// ElementWiseBinary, ElementWiseUnary and ElementWiseNeuron: the generic
// element-wise ops of later op sets, whose `operation` param names one of the
// dedicated ops. Each dispatches at init to that op's kernel (same checks, same
// arithmetic) and forwards to it (the value -> op tables: core/generic_elementwise.h);
// the two operations without a dedicated op of their own (RECIPROCAL,
// HARD_SIGMOID) are map kernels defined here.
#include <algorithm>
#include <string>

#include "core/generic_elementwise.h"
#include "cpu/kernels/elementwise_map.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

struct Reciprocal { float operator()(float x) const { return 1.f / x; } };
struct HardSigmoid {
  explicit HardSigmoid(const MapParams& p) : alpha(p.alpha), beta(p.beta) {}
  float operator()(float x) const { return std::min(1.f, std::max(0.f, alpha * x + beta)); }
  float alpha, beta;
};

Status readHardSigmoidParams(const OpParams& params, MapParams* p) {
  p->alpha = params.f32("alpha", 0.2f);
  p->beta = params.f32("beta", 0.5f);
  return Status::ok();
}

const MapOpSpec kReciprocal = {"ElementWiseUnary(RECIPROCAL)", pickMapRunner<Reciprocal, DType::kFloat32>};
const MapOpSpec kHardSigmoid = {"ElementWiseNeuron(HARD_SIGMOID)", pickMapRunner<HardSigmoid, DType::kFloat32>,
                                DType::kUndefined, readHardSigmoidParams};

class GenericElementWiseKernel final : public Kernel {
 public:
  explicit GenericElementWiseKernel(std::string op) : op_(std::move(op)) {}

  Status init(const OpParams& params) override {
    if (!params.has("operation")) return sdk::invalidParam(op_ + ": operation is mandatory");
    const uint32_t operation = params.u32("operation", 0);
    bool defined = false;
    const char* name = sdk::genericElementWiseTarget(op_, operation, &defined);
    if (!defined)
      return sdk::invalidParam(op_ + ": operation " + std::to_string(operation) + " is not defined (0.." +
                               std::to_string(sdk::genericElementWiseOperationCount(op_) - 1) + ")");
    if (name) {
      KernelFactory factory = findKernel(name);
      inner_ = factory ? factory(name) : nullptr;
    } else if (op_ == "ElementWiseUnary") {
      inner_ = std::make_unique<MapKernel>(kReciprocal);
    } else {
      inner_ = std::make_unique<MapKernel>(kHardSigmoid);
    }
    if (!inner_) return sdk::notSupported(op_ + ": operation " + std::to_string(operation) + " has no CPU kernel");
    return inner_->init(params);
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    return inner_->prepare(in, out);
  }
  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    return inner_->execute(in, out);
  }

 private:
  std::string op_;
  std::unique_ptr<Kernel> inner_;
};

}  // namespace

std::unique_ptr<Kernel> makeGenericElementWise(const std::string& opType) {
  if (sdk::genericElementWiseOperationCount(opType) == 0) return nullptr;
  return std::make_unique<GenericElementWiseKernel>(opType);
}

}  // namespace qnn::cpu
