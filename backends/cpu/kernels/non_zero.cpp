// NonZero: the coordinates of the nonzero elements of in[0], row-major order,
// one row [i0, i1, ...] per element: out[0] [M, rank] int32/uint32. A static
// graph fixes M; QNN defines it as the count of nonzero elements. When the
// data has fewer, the rows past the count are zero; when it has more, the first
// M are written. Float -0.0 is zero; a fixed-point element is zero when its
// real value is (q == -offset).
#include <cstring>

#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

class NonZeroKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "NonZero";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0],
                                       {DType::kFloat32, DType::kInt8, DType::kInt16, DType::kInt32, DType::kInt64,
                                        DType::kUInt8, DType::kUInt16, DType::kUInt32, DType::kBool8, DType::kUFixed8,
                                        DType::kUFixed16, DType::kSFixed8, DType::kSFixed16}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kInt32, DType::kUInt32}));
    if (inputs[0].rank() == 0) return sdk::invalidTensor("NonZero: in[0] must have rank > 0");
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[0]", outputs[0], 2));
    dims_ = inputs[0].dims;
    if (outputs[0].dims[1] != dims_.size())
      return sdk::invalidTensor("NonZero: out[0] " + dimsToString(outputs[0].dims) + " must be [M, " +
                                std::to_string(dims_.size()) + "] (one column per dim of in[0])");
    rows_ = outputs[0].dims[0];
    dtype_ = inputs[0].dtype;
    zeroQ_ = sdk::dtypeIsFixedPoint(dtype_) ? -inputs[0].quant.offset : 0;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    int32_t* out = outputs[0].as<int32_t>();
    std::memset(out, 0, rows_ * dims_.size() * sizeof(int32_t));
    const size_t n = inputs[0].numElements(), rank = dims_.size();
    std::vector<int32_t> idx(rank, 0);
    size_t row = 0;
    for (size_t i = 0; i < n && row < rows_; ++i) {
      if (isNonZero(inputs[0].data, i)) {
        std::memcpy(out + row * rank, idx.data(), rank * sizeof(int32_t));
        ++row;
      }
      for (size_t d = rank; d-- > 0;) {  // advance the row-major index
        if (++idx[d] < int32_t(dims_[d])) break;
        idx[d] = 0;
      }
    }
    return Status::ok();
  }

 private:
  bool isNonZero(const void* data, size_t i) const {
    switch (dtype_) {
      case DType::kFloat32: return static_cast<const float*>(data)[i] != 0.f;
      case DType::kInt8: return static_cast<const int8_t*>(data)[i] != 0;
      case DType::kSFixed8: return static_cast<const int8_t*>(data)[i] != zeroQ_;
      case DType::kInt16: return static_cast<const int16_t*>(data)[i] != 0;
      case DType::kSFixed16: return static_cast<const int16_t*>(data)[i] != zeroQ_;
      case DType::kInt32: return static_cast<const int32_t*>(data)[i] != 0;
      case DType::kInt64: return static_cast<const int64_t*>(data)[i] != 0;
      case DType::kUInt16: return static_cast<const uint16_t*>(data)[i] != 0;
      case DType::kUFixed16: return static_cast<const uint16_t*>(data)[i] != zeroQ_;
      case DType::kUInt32: return static_cast<const uint32_t*>(data)[i] != 0;
      case DType::kUFixed8: return static_cast<const uint8_t*>(data)[i] != zeroQ_;
      default: return static_cast<const uint8_t*>(data)[i] != 0;  // kUInt8, kBool8
    }
  }

  std::vector<uint32_t> dims_;
  size_t rows_ = 0;
  DType dtype_ = DType::kFloat32;
  int32_t zeroQ_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeNonZero(const std::string& opType) {
  return opType == "NonZero" ? std::make_unique<NonZeroKernel>() : nullptr;
}

}  // namespace qnn::cpu
