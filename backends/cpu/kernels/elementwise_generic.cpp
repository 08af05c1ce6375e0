// ElementWiseBinary, ElementWiseUnary and ElementWiseNeuron: the generic
// element-wise ops of later op sets, whose `operation` param names one of the
// dedicated ops. Each dispatches at init to that op's kernel (same checks, same
// arithmetic) and forwards to it; the two operations without a dedicated op of
// their own (RECIPROCAL, HARD_SIGMOID) are map kernels defined here.
#include <algorithm>
#include <string>

#include "kernels/elementwise_map.h"
#include "kernels/kernel_factories.h"

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

// Operation values of QnnOpDef.h, in order; nullptr where the value has no dedicated op.
const char* const kBinaryOps[] = {
    "ElementWiseAdd",     "ElementWiseAnd",        "ElementWiseDivide",  "ElementWiseEqual",
    "ElementWiseFloorDiv", "ElementWiseFmod",      "ElementWiseGreater", "ElementWiseGreaterEqual",
    "ElementWiseLess",    "ElementWiseLessEqual",  "ElementWiseMaximum", "ElementWiseMinimum",
    "ElementWiseMod",     "ElementWiseMultiply",   "ElementWiseNotEqual", "ElementWiseOr",
    "ElementWisePower",   "ElementWiseSquaredDifference", "ElementWiseSubtract", "ElementWiseXor"};
const char* const kUnaryOps[] = {"ElementWiseAbs",  "ElementWiseAsin", "ElementWiseAtan",  "ElementWiseCeil",
                                 "ElementWiseCos",  "ElementWiseExp",  "ElementWiseFloor", "ElementWiseLog",
                                 "ElementWiseNeg",  "ElementWiseNot",  nullptr /* RECIPROCAL */,
                                 "ElementWiseRound", "ElementWiseRsqrt", "ElementWiseSign", "ElementWiseSin",
                                 "ElementWiseSquareRoot"};
const char* const kNeuronOps[] = {"Elu",        "Gelu",    nullptr /* HARD_SIGMOID */, "HardSwish", "Relu",
                                  "ReluMinMax", "Sigmoid", "ElementWiseSoftplus",      "Tanh"};

class GenericElementWiseKernel final : public Kernel {
 public:
  GenericElementWiseKernel(std::string op, const char* const* table, size_t size)
      : op_(std::move(op)), table_(table), size_(size) {}

  Status init(const OpParams& params) override {
    if (!params.has("operation")) return sdk::invalidParam(op_ + ": operation is mandatory");
    const uint32_t operation = params.u32("operation", 0);
    if (operation >= size_)
      return sdk::invalidParam(op_ + ": operation " + std::to_string(operation) + " is not defined (0.." +
                               std::to_string(size_ - 1) + ")");
    const char* name = table_[operation];
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
  const char* const* table_;
  size_t size_;
  std::unique_ptr<Kernel> inner_;
};

}  // namespace

std::unique_ptr<Kernel> makeGenericElementWise(const std::string& opType) {
  if (opType == "ElementWiseBinary")
    return std::make_unique<GenericElementWiseKernel>(opType, kBinaryOps, std::size(kBinaryOps));
  if (opType == "ElementWiseUnary")
    return std::make_unique<GenericElementWiseKernel>(opType, kUnaryOps, std::size(kUnaryOps));
  if (opType == "ElementWiseNeuron")
    return std::make_unique<GenericElementWiseKernel>(opType, kNeuronOps, std::size(kNeuronOps));
  return nullptr;
}

}  // namespace qnn::cpu
