// CumulativeSum: running sums along `axis` (QNN CumulativeSum; ONNX CumSum):
// `exclusive` leaves the element itself out, `reverse` sums from the end.
#include <cstdint>
#include <string>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/dtype_storage.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

template <typename T>
void cumulativeSum(const T* in, T* out, size_t outer, size_t len, size_t inner, bool exclusive, bool reverse) {
  for (size_t o = 0; o < outer; ++o)
    for (size_t i = 0; i < inner; ++i) {
      T acc = T(0);
      for (size_t s = 0; s < len; ++s) {
        const size_t a = reverse ? len - 1 - s : s;
        const size_t at = (o * len + a) * inner + i;
        if (exclusive) {
          out[at] = acc;
          acc = static_cast<T>(acc + in[at]);
        } else {
          acc = static_cast<T>(acc + in[at]);
          out[at] = acc;
        }
      }
    }
}

class CumulativeSumKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam("CumulativeSum: axis is mandatory");
    axis_ = params.u32("axis", 0);
    exclusive_ = params.b("exclusive", false);
    reverse_ = params.b("reverse", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "CumulativeSum";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32, DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    const size_t rank = in[0].rank();
    if (axis_ >= rank)
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(axis_) + " out of range for rank " +
                               std::to_string(rank));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], in[0].dims));
    outer_ = inner_ = 1;
    for (size_t d = 0; d < axis_; ++d) outer_ *= in[0].dims[d];
    for (size_t d = axis_ + 1; d < rank; ++d) inner_ *= in[0].dims[d];
    len_ = in[0].dims[axis_];
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    if (in[0].dtype == DType::kFloat32)
      cumulativeSum(in[0].as<const float>(), out[0].as<float>(), outer_, len_, inner_, exclusive_, reverse_);
    else  // int32 and uint32: two's complement sums wrap alike, computed unsigned (no overflow UB)
      cumulativeSum(in[0].as<const uint32_t>(), out[0].as<uint32_t>(), outer_, len_, inner_, exclusive_, reverse_);
    return Status::ok();
  }

 private:
  uint32_t axis_ = 0;
  bool exclusive_ = false, reverse_ = false;
  size_t outer_ = 1, len_ = 0, inner_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> makeCumulativeSum(const std::string& opType) {
  return opType == "CumulativeSum" ? std::make_unique<CumulativeSumKernel>() : nullptr;
}

}  // namespace qnn::cpu
