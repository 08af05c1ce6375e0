// GatherElements: out[i0..in] = data[i0..index..in] with `index` = indices[i0..in]
// at position `axis` (ONNX GatherElements; QNN GatherElements). Indices and
// output have one shape; every other axis of indices is at most data's.
#include <cstdint>
#include <cstring>
#include <string>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

class GatherElementsKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "GatherElements";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    const size_t rank = in[0].rank();
    if (rank == 0 || in[1].rank() != rank)
      return sdk::invalidTensor(std::string(op) + ": data and indices need one rank (>= 1), got " +
                                std::to_string(rank) + " and " + std::to_string(in[1].rank()));
    if (axis_ >= rank)
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(axis_) + " out of range for rank " +
                               std::to_string(rank));
    for (size_t d = 0; d < rank; ++d)
      if (d != axis_ && in[1].dims[d] > in[0].dims[d])
        return sdk::invalidTensor(std::string(op) + ": indices dim " + std::to_string(d) + " (" +
                                  std::to_string(in[1].dims[d]) + ") exceeds data's (" +
                                  std::to_string(in[0].dims[d]) + ")");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], in[1].dims));
    elementBytes_ = sdk::dtypeSize(in[0].dtype);
    // Row-major strides of data.
    dataStrides_.assign(rank, 1);
    for (size_t d = rank - 1; d > 0; --d) dataStrides_[d - 1] = dataStrides_[d] * in[0].dims[d];
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t rank = in[0].rank(), n = in[1].numElements();
    const auto& idims = in[1].dims;
    const int64_t axisLen = in[0].dims[axis_];
    const bool signedIdx = in[1].dtype == DType::kInt32;
    const uint8_t* src = in[0].as<const uint8_t>();
    uint8_t* dst = out[0].as<uint8_t>();
    std::vector<size_t> pos(rank, 0);  // the multi-index of element k of indices
    for (size_t k = 0; k < n; ++k) {
      int64_t idx = signedIdx ? int64_t(in[1].as<const int32_t>()[k]) : int64_t(in[1].as<const uint32_t>()[k]);
      if (idx < 0) idx += axisLen;  // negative indices count from the end
      if (idx < 0 || idx >= axisLen)
        return sdk::invalidArgument("GatherElements: index " + std::to_string(idx) + " at position " +
                                    std::to_string(k) + " out of range for axis size " + std::to_string(axisLen));
      size_t offset = 0;
      for (size_t d = 0; d < rank; ++d) offset += (d == axis_ ? size_t(idx) : pos[d]) * dataStrides_[d];
      std::memcpy(dst + k * elementBytes_, src + offset * elementBytes_, elementBytes_);
      for (size_t d = rank; d-- > 0;) {  // next multi-index
        if (++pos[d] < idims[d]) break;
        pos[d] = 0;
      }
    }
    return Status::ok();
  }

 private:
  uint32_t axis_ = 0;
  size_t elementBytes_ = 0;
  std::vector<size_t> dataStrides_;
};

}  // namespace

std::unique_ptr<Kernel> makeGatherElements(const std::string& opType) {
  return opType == "GatherElements" ? std::make_unique<GatherElementsKernel>() : nullptr;
}

}  // namespace qnn::cpu
