// Two statistics ops on float32:
//  * L2Norm: out = x / max(||x||_2, epsilon), the norm over `axes` (or the one
//    `axis`; axes wins), every other position normalized on its own.
//  * Moments: out[0] = mean, out[1] = variance (population) over `axes`,
//    keep_dims as the reductions.
// Both visit the input through its split into kept and reduced positions: for
// each kept multi-index, the reduced block at fixed strides.
#include <algorithm>
#include <cmath>
#include <string>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

// Offsets of the kept positions (one per output element) and of the reduced
// block (relative), so that element (k, r) is at keptOffsets[k] + reducedOffsets[r].
struct ReductionPlan {
  std::vector<size_t> keptOffsets, reducedOffsets;
};

Status planReduction(const char* op, const std::vector<uint32_t>& dims, const std::vector<int64_t>& axes,
                     ReductionPlan* plan, std::vector<bool>* reduced) {
  const size_t rank = dims.size();
  reduced->assign(rank, false);
  if (axes.empty() || axes.size() > rank)
    return sdk::invalidParam(std::string(op) + ": axes must hold 1.." + std::to_string(rank) + " values");
  for (int64_t a : axes) {
    if (a < 0 || size_t(a) >= rank || (*reduced)[size_t(a)])
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(a) + " is out of range for rank " +
                               std::to_string(rank) + " or repeated");
    (*reduced)[size_t(a)] = true;
  }
  std::vector<size_t> stride(rank, 1);
  for (size_t d = rank; d-- > 1;) stride[d - 1] = stride[d] * dims[d];
  auto walk = [&](bool wantReduced, std::vector<size_t>* offsets) {
    offsets->assign(1, 0);
    for (size_t d = 0; d < rank; ++d) {
      if ((*reduced)[d] != wantReduced) continue;
      std::vector<size_t> next;
      next.reserve(offsets->size() * dims[d]);
      for (size_t base : *offsets)
        for (uint32_t i = 0; i < dims[d]; ++i) next.push_back(base + i * stride[d]);
      *offsets = std::move(next);
    }
  };
  walk(false, &plan->keptOffsets);
  walk(true, &plan->reducedOffsets);
  return Status::ok();
}

std::vector<uint32_t> reducedDims(const std::vector<uint32_t>& dims, const std::vector<bool>& reduced, bool keep) {
  std::vector<uint32_t> out;
  for (size_t d = 0; d < dims.size(); ++d)
    if (!reduced[d] || keep) out.push_back(reduced[d] ? 1 : dims[d]);
  return out;
}

class L2NormKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (params.has("axes")) axes_ = params.ints("axes", {});
    else axes_ = {int64_t(params.u32("axis", 0))};
    epsilon_ = params.f32("epsilon", 1e-12f);
    return Status::ok();
  }
  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("L2Norm", in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType("L2Norm", "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType("L2Norm", "out[0]", in[0], out[0]));
    std::vector<bool> reduced;
    QNN_SDK_RETURN_IF_ERROR(planReduction("L2Norm", in[0].dims, axes_, &plan_, &reduced));
    return checkOutputDims("L2Norm", out[0], in[0].dims);
  }
  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const float* x = in[0].as<const float>();
    float* y = out[0].as<float>();
    for (size_t k : plan_.keptOffsets) {
      double s = 0;
      for (size_t r : plan_.reducedOffsets) s += double(x[k + r]) * x[k + r];
      const double norm = std::max(std::sqrt(s), double(epsilon_));
      for (size_t r : plan_.reducedOffsets) y[k + r] = float(x[k + r] / norm);
    }
    return Status::ok();
  }

 private:
  std::vector<int64_t> axes_;
  float epsilon_ = 1e-12f;
  ReductionPlan plan_;
};

class MomentsKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("axes")) return sdk::invalidParam("Moments: axes is mandatory");
    axes_ = params.ints("axes", {});
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }
  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Moments", in, 1, 1, out, 2));
    QNN_SDK_RETURN_IF_ERROR(checkDType("Moments", "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType("Moments", "out[0]", in[0], out[0]));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType("Moments", "out[1]", in[0], out[1]));
    std::vector<bool> reduced;
    QNN_SDK_RETURN_IF_ERROR(planReduction("Moments", in[0].dims, axes_, &plan_, &reduced));
    const auto want = reducedDims(in[0].dims, reduced, keepDims_);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDimsAllowScalar("Moments", out[0], want));
    return checkOutputDimsAllowScalar("Moments", out[1], want);
  }
  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const float* x = in[0].as<const float>();
    float* mean = out[0].as<float>();
    float* var = out[1].as<float>();
    const double n = double(plan_.reducedOffsets.size());
    for (size_t o = 0; o < plan_.keptOffsets.size(); ++o) {
      const size_t k = plan_.keptOffsets[o];
      double s = 0;
      for (size_t r : plan_.reducedOffsets) s += x[k + r];
      const double m = s / n;
      double v = 0;
      for (size_t r : plan_.reducedOffsets) v += (x[k + r] - m) * (x[k + r] - m);
      mean[o] = float(m);
      var[o] = float(v / n);
    }
    return Status::ok();
  }

 private:
  std::vector<int64_t> axes_;
  bool keepDims_ = false;
  ReductionPlan plan_;
};

}  // namespace

std::unique_ptr<Kernel> makeL2NormMoments(const std::string& opType) {
  if (opType == "L2Norm") return std::make_unique<L2NormKernel>();
  if (opType == "Moments") return std::make_unique<MomentsKernel>();
  return nullptr;
}

}  // namespace qnn::ops
