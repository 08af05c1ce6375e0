// Concat and Split: the inverse pair of copies along one axis. Both see the
// tensor as [outer, axis * inner] and move one contiguous chunk per tensor per
// outer index.
#include <cstdint>
#include <cstring>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

size_t product(const std::vector<uint32_t>& dims, size_t begin, size_t end) {
  size_t p = 1;
  for (size_t d = begin; d < end; ++d) p *= dims[d];
  return p;
}

class ConcatKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    hasAxis_ = params.has("axis");
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Concat";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, SIZE_MAX, out, 1));
    const size_t rank = in[0].rank();
    if (rank == 0) return sdk::invalidTensor(std::string(op) + ": in[0] must have rank > 0");
    const size_t axis = hasAxis_ ? axis_ : rank - 1;
    if (axis >= rank)
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(axis) + " out of range for rank " +
                               std::to_string(rank));
    std::vector<uint32_t> outDims = in[0].dims;
    outDims[axis] = 0;
    for (size_t i = 0; i < in.size(); ++i) {
      const std::string role = "in[" + std::to_string(i) + "]";
      QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[i], out[0]));
      bool compatible = in[i].rank() == rank;
      for (size_t d = 0; d < rank && compatible; ++d) compatible = d == axis || in[i].dims[d] == in[0].dims[d];
      if (!compatible)
        return sdk::invalidTensor(std::string(op) + ": " + role + " dims " + dimsToString(in[i].dims) +
                                  " differ from in[0]'s " + dimsToString(in[0].dims) + " outside axis " +
                                  std::to_string(axis));
      outDims[axis] += in[i].dims[axis];
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], outDims));
    const size_t es = sdk::dtypeSize(in[0].dtype), inner = product(outDims, axis + 1, rank);
    outer_ = product(outDims, 0, axis);
    chunkBytes_.clear();
    for (const TensorView& t : in) chunkBytes_.push_back(t.dims[axis] * inner * es);
    outRowBytes_ = outDims[axis] * inner * es;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    uint8_t* dst = out[0].as<uint8_t>();
    for (size_t o = 0; o < outer_; ++o) {
      uint8_t* row = dst + o * outRowBytes_;
      for (size_t i = 0; i < in.size(); ++i) {
        std::memcpy(row, in[i].as<const uint8_t>() + o * chunkBytes_[i], chunkBytes_[i]);
        row += chunkBytes_[i];
      }
    }
    return Status::ok();
  }

 private:
  bool hasAxis_ = false;
  uint32_t axis_ = 0;
  size_t outer_ = 0, outRowBytes_ = 0;
  std::vector<size_t> chunkBytes_;
};

class SplitKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("axis") || !params.has("split_index"))
      return sdk::invalidParam("Split: axis and split_index are mandatory");
    axis_ = params.u32("axis", 0);
    for (int64_t s : params.ints("split_index", {})) {
      if (s < 0) return sdk::invalidParam("Split: split_index values must be >= 0");
      if (!splitIndex_.empty() && static_cast<uint64_t>(s) <= splitIndex_.back())
        return sdk::invalidParam("Split: split_index must be strictly increasing");
      splitIndex_.push_back(static_cast<uint64_t>(s));
    }
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Split";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, splitIndex_.size() + 1));
    const size_t rank = in[0].rank();
    if (axis_ >= rank)
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(axis_) + " out of range for rank " +
                               std::to_string(rank));
    const uint32_t axisLen = in[0].dims[axis_];
    if (!splitIndex_.empty() && (splitIndex_.front() == 0 || splitIndex_.back() >= axisLen))
      return sdk::invalidParam(std::string(op) + ": split_index values must lie in 1.." +
                               std::to_string(axisLen - 1) + " (axis size " + std::to_string(axisLen) + ")");
    const size_t es = sdk::dtypeSize(in[0].dtype), inner = product(in[0].dims, axis_ + 1, rank);
    chunkBytes_.clear();
    for (size_t i = 0; i < out.size(); ++i) {
      const std::string role = "out[" + std::to_string(i) + "]";
      QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, role.c_str(), in[0], out[i]));
      const uint64_t begin = i == 0 ? 0 : splitIndex_[i - 1];
      const uint64_t end = i == splitIndex_.size() ? axisLen : splitIndex_[i];
      std::vector<uint32_t> dims = in[0].dims;
      dims[axis_] = static_cast<uint32_t>(end - begin);
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[i], dims));
      chunkBytes_.push_back(dims[axis_] * inner * es);
    }
    outer_ = product(in[0].dims, 0, axis_);
    inRowBytes_ = axisLen * inner * es;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const uint8_t* src = in[0].as<const uint8_t>();
    for (size_t o = 0; o < outer_; ++o) {
      const uint8_t* row = src + o * inRowBytes_;
      for (size_t i = 0; i < out.size(); ++i) {
        std::memcpy(out[i].as<uint8_t>() + o * chunkBytes_[i], row, chunkBytes_[i]);
        row += chunkBytes_[i];
      }
    }
    return Status::ok();
  }

 private:
  uint32_t axis_ = 0;
  std::vector<uint64_t> splitIndex_;
  size_t outer_ = 0, inRowBytes_ = 0;
  std::vector<size_t> chunkBytes_;
};

}  // namespace

std::unique_ptr<Kernel> makeConcat(const std::string& opType) {
  return opType == "Concat" ? std::make_unique<ConcatKernel>() : nullptr;
}

std::unique_ptr<Kernel> makeSplit(const std::string& opType) {
  return opType == "Split" ? std::make_unique<SplitKernel>() : nullptr;
}

}  // namespace qnn::cpu
