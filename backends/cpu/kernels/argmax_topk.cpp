// Argmax/Argmin along one axis, and TopK along the last axis.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

// Fixed-point inputs compare by their stored integers: with a positive scale
// the order of q equals the order of the real values.
template <typename Fn>
bool withComparableType(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::kFloat32: fn(float{}); return true;
    case DType::kInt32: fn(int32_t{}); return true;
    case DType::kUInt32: fn(uint32_t{}); return true;
    case DType::kUFixed8: fn(uint8_t{}); return true;
    case DType::kSFixed8: fn(int8_t{}); return true;
    default: return false;
  }
}

// Strict "a ranks before b" for a descending order in which NaN ranks above
// every number (so that the order stays a strict weak ordering).
template <typename T>
bool ranksAbove(T a, T b) {
  if constexpr (std::is_floating_point_v<T>) {
    if (std::isnan(a)) return !std::isnan(b);
    if (std::isnan(b)) return false;
  }
  return a > b;
}

class ArgMinMaxKernel final : public Kernel {
 public:
  ArgMinMaxKernel(std::string op, bool isMax) : op_(std::move(op)), isMax_(isMax) {}

  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam(op_ + ": axis is mandatory");
    axis_ = params.u32("axis", 0);
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    if (!withComparableType(in[0].dtype, [](auto) {}))
      return sdk::unsupportedDType(op_ + ": in[0] datatype " + sdk::dtypeName(in[0].dtype) + " is not supported");
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], {DType::kInt32, DType::kUInt32}));
    const size_t rank = in[0].rank();
    if (axis_ >= rank)
      return sdk::invalidParam(op_ + ": axis " + std::to_string(axis_) + " out of range for rank " +
                               std::to_string(rank));
    std::vector<uint32_t> outDims;
    for (size_t d = 0; d < rank; ++d)
      if (d != axis_) outDims.push_back(in[0].dims[d]);
      else if (keepDims_) outDims.push_back(1);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDimsAllowScalar(op, out[0], outDims));
    outer_ = inner_ = 1;
    for (size_t d = 0; d < axis_; ++d) outer_ *= in[0].dims[d];
    for (size_t d = axis_ + 1; d < rank; ++d) inner_ *= in[0].dims[d];
    axisLen_ = in[0].dims[axis_];
    if (axisLen_ == 0) return sdk::invalidTensor(op_ + ": the reduced axis is empty");
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    withComparableType(in[0].dtype, [&](auto tag) { run(in[0].as<const decltype(tag)>(), out[0].as<uint32_t>()); });
    return Status::ok();
  }

 private:
  // Indices fit both INT_32 and UINT_32 outputs (same bytes for < 2^31).
  // Ties keep the first (lowest) index.
  template <typename T>
  void run(const T* in, uint32_t* out) const {
    parallelFor(outer_ * inner_, std::max<size_t>(1, kElementwiseGrain / axisLen_), [&](size_t b, size_t e) {
      for (size_t k = b; k < e; ++k) {
        const T* p = in + (k / inner_) * axisLen_ * inner_ + k % inner_;
        uint32_t best = 0;
        T bestValue = p[0];
        for (size_t a = 1; a < axisLen_; ++a) {
          const T v = p[a * inner_];
          if (isMax_ ? ranksAbove(v, bestValue) : ranksAbove(bestValue, v)) {
            best = static_cast<uint32_t>(a);
            bestValue = v;
          }
        }
        out[k] = best;
      }
    });
  }

  std::string op_;
  bool isMax_;
  uint32_t axis_ = 0;
  bool keepDims_ = false;
  size_t outer_ = 1, inner_ = 1, axisLen_ = 1;
};

// TopK along the last axis: values sorted best first, with their indices.
// Equal values are ordered larger index first, as the op definition states.
class TopKKernel final : public Kernel {
 public:
  static constexpr bool kLowerIndexFirst = false;

  Status init(const OpParams& params) override {
    if (!params.has("k")) return sdk::invalidParam("TopK: k is mandatory");
    k_ = params.u32("k", 0);
    if (k_ == 0) return sdk::invalidParam("TopK: k must be >= 1");
    largest_ = params.b("largest", true);  // API 2.32: false takes the k smallest
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "TopK";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 2));
    if (!withComparableType(in[0].dtype, [](auto) {}))
      return sdk::unsupportedDType(std::string(op) + ": in[0] datatype " + sdk::dtypeName(in[0].dtype) +
                                   " is not supported");
    if (out[0].dtype != in[0].dtype)
      return sdk::unsupportedDType(std::string(op) + ": out[0] datatype " + sdk::dtypeName(out[0].dtype) +
                                   " must equal in[0]'s");
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1] (indices)", out[1], {DType::kInt32, DType::kUInt32}));
    if (in[0].rank() == 0 || in[0].dims.back() < k_)
      return sdk::invalidParam(std::string(op) + ": k " + std::to_string(k_) + " exceeds the last dim of " +
                               dimsToString(in[0].dims));
    std::vector<uint32_t> outDims = in[0].dims;
    outDims.back() = k_;
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], outDims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[1], outDims));
    rowLen_ = in[0].dims.back();
    rows_ = in[0].numElements() / rowLen_;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    withComparableType(in[0].dtype, [&](auto tag) {
      using T = decltype(tag);
      run(in[0].as<const T>(), out[0].as<T>(), out[1].as<uint32_t>());
    });
    return Status::ok();
  }

 private:
  template <typename T>
  void run(const T* in, T* values, uint32_t* indices) const {
    parallelFor(rows_, std::max<size_t>(1, kElementwiseGrain / rowLen_), [&](size_t b, size_t e) {
      std::vector<uint32_t> order(rowLen_);  // one scratch per chunk, not per row
      for (size_t r = b; r < e; ++r) {
        const T* row = in + r * rowLen_;
        std::iota(order.begin(), order.end(), 0u);
        std::partial_sort(order.begin(), order.begin() + k_, order.end(), [&](uint32_t i, uint32_t j) {
          const T a = largest_ ? row[i] : row[j], c = largest_ ? row[j] : row[i];
          if (ranksAbove(a, c)) return true;
          if (ranksAbove(c, a)) return false;
          return kLowerIndexFirst ? i < j : i > j;
        });
        for (size_t i = 0; i < k_; ++i) {
          values[r * k_ + i] = row[order[i]];
          indices[r * k_ + i] = order[i];
        }
      }
    });
  }

  uint32_t k_ = 1;
  bool largest_ = true;
  size_t rowLen_ = 1, rows_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeArgMinMax(const std::string& opType) {
  if (opType == "Argmax") return std::make_unique<ArgMinMaxKernel>(opType, true);
  if (opType == "Argmin") return std::make_unique<ArgMinMaxKernel>(opType, false);
  return nullptr;
}

std::unique_ptr<Kernel> makeTopK(const std::string& opType) {
  return opType == "TopK" ? std::make_unique<TopKKernel>() : nullptr;
}

}  // namespace qnn::cpu
