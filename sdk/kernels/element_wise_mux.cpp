// ElementWiseMux (op set 2.13): out[i] = candidate_{sel[i]}[i], in[0] the selector
// (INT_32 / UINT_32), in[1..m] the m candidates; the selector and the candidates
// broadcast (numpy rules) to the output's shape. A selector value outside
// [0, m) gives 0 (the real value 0: -offset for a fixed-point output). The
// candidates and the output share one datatype (and, fixed-point, one encoding),
// so values are copied as they are.
#include <cstring>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class ElementWiseMuxKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "ElementWiseMux";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 255, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (selector)", in[0], {DType::kInt32, DType::kUInt32}));
    const TensorView& o = out[0];
    for (size_t k = 1; k < in.size(); ++k) {
      const std::string slot = "in[" + std::to_string(k) + "]";
      QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, slot.c_str(), o, in[k]));
      if (sdk::dtypeIsFixedPoint(o.dtype) &&
          (in[k].quant.scale != o.quant.scale || in[k].quant.offset != o.quant.offset))
        return sdk::invalidTensor(std::string(op) + ": " + slot + " must have out[0]'s encoding");
    }
    // The broadcast shape of every input.
    std::vector<uint32_t> dims;
    for (const TensorView& t : in) {
      if (t.rank() > dims.size()) dims.insert(dims.begin(), t.rank() - dims.size(), 1);
      for (size_t k = 0; k < t.rank(); ++k) {
        uint32_t& d = dims[dims.size() - t.rank() + k];
        const uint32_t v = t.dims[k];
        if (v != d && v != 1 && d != 1)
          return sdk::invalidTensor(std::string(op) + ": " + dimsToString(t.dims) + " does not broadcast with " +
                                    dimsToString(dims));
        if (d == 1) d = v;
      }
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, o, dims));
    strides_.assign(in.size(), std::vector<size_t>(dims.size(), 0));
    for (size_t t = 0; t < in.size(); ++t) {
      size_t s = 1;
      for (size_t k = in[t].rank(); k-- > 0;) {
        const size_t d = dims.size() - in[t].rank() + k;
        strides_[t][d] = in[t].dims[k] == 1 ? 0 : s;
        s *= in[t].dims[k];
      }
    }
    dims_ = dims;
    width_ = sdk::dtypeSize(o.dtype);
    zero_.assign(width_, 0);
    if (sdk::dtypeIsFixedPoint(o.dtype)) {  // stored value of real 0, little-endian
      const int64_t q = -int64_t(o.quant.offset);
      std::memcpy(zero_.data(), &q, width_);
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t n = out[0].numElements(), rank = dims_.size(), m = in.size() - 1;
    const bool isSigned = in[0].dtype == DType::kInt32;
    std::vector<size_t> idx(rank, 0);
    auto* dst = static_cast<uint8_t*>(out[0].data);
    for (size_t i = 0; i < n; ++i) {
      auto offsetOf = [&](size_t t) {
        size_t off = 0;
        for (size_t k = 0; k < rank; ++k) off += idx[k] * strides_[t][k];
        return off;
      };
      const size_t so = offsetOf(0);
      const int64_t sel = isSigned ? int64_t(in[0].as<const int32_t>()[so]) : int64_t(in[0].as<const uint32_t>()[so]);
      if (sel >= 0 && size_t(sel) < m)
        std::memcpy(dst + i * width_, static_cast<const uint8_t*>(in[1 + sel].data) + offsetOf(1 + sel) * width_, width_);
      else
        std::memcpy(dst + i * width_, zero_.data(), width_);
      for (size_t k = rank; k-- > 0;)
        if (++idx[k] < dims_[k]) break;
        else idx[k] = 0;
    }
    return Status::ok();
  }

 private:
  std::vector<uint32_t> dims_;
  std::vector<std::vector<size_t>> strides_;
  size_t width_ = 4;
  std::vector<uint8_t> zero_;
};

}  // namespace

std::unique_ptr<Kernel> makeElementWiseMux(const std::string& opType) {
  if (opType == "ElementWiseMux") return std::make_unique<ElementWiseMuxKernel>();
  return nullptr;
}

}  // namespace qnn::ops
