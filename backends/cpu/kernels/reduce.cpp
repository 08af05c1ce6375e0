// ReduceMean/Sum/Max/Min/Prod over a set of axes. prepare() merges
// neighbouring axes that are both reduced or both kept, so the walk alternates
// kept and reduced blocks; the innermost block is either a contiguous run to
// fold into one value (reduced) or a contiguous run of outputs to update
// element-wise (kept) — both plain loops.
#include <algorithm>
#include <cstdint>
#include <limits>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

enum class ReduceKind { kMean, kSum, kMax, kMin, kProd, kSumSquare };

// The kind is a template argument so the element loops below compile to one
// operation each and vectorize (a switch per element kept them scalar).
template <typename T, ReduceKind K>
struct Combine {
  static T identity() {
    switch (K) {
      case ReduceKind::kMax: return std::numeric_limits<T>::lowest();
      case ReduceKind::kMin: return std::numeric_limits<T>::max();
      case ReduceKind::kProd: return T(1);
      default: return T(0);
    }
  }
  T operator()(T a, T b) const {
    if constexpr (K == ReduceKind::kMax) return a > b ? a : b;
    else if constexpr (K == ReduceKind::kMin) return a < b ? a : b;
    else if constexpr (K == ReduceKind::kProd) return wrap(a, b, true);
    else return wrap(a, b, false);
  }
  // int32 sums wrap rather than overflow (undefined for signed types).
  static T wrap(T a, T b, bool multiply) {
    if constexpr (std::is_integral_v<T>) {
      using U = std::make_unsigned_t<T>;
      return static_cast<T>(multiply ? U(a) * U(b) : U(a) + U(b));
    } else {
      return multiply ? a * b : a + b;
    }
  }
};

class ReduceKernel final : public Kernel {
 public:
  ReduceKernel(std::string op, ReduceKind kind) : op_(std::move(op)), kind_(kind) {}

  Status init(const OpParams& params) override {
    if (!params.has("axes")) return sdk::invalidParam(op_ + ": axes is mandatory");
    axes_ = params.ints("axes", {});
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    if (kind_ == ReduceKind::kSum || kind_ == ReduceKind::kSumSquare)
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32, DType::kInt32}));
    else QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    const size_t rank = in[0].rank();
    if (axes_.empty() || axes_.size() > rank)
      return sdk::invalidParam(op_ + ": axes must hold 1.." + std::to_string(rank) + " values");
    std::vector<bool> reduced(rank, false);
    for (int64_t a : axes_) {
      if (a < 0 || a >= static_cast<int64_t>(rank) || reduced[a])
        return sdk::invalidParam(op_ + ": axis " + std::to_string(a) + " is out of range for rank " +
                                 std::to_string(rank) + " or repeated");
      reduced[a] = true;
    }
    std::vector<uint32_t> outDims;
    for (size_t d = 0; d < rank; ++d)
      if (!reduced[d] || keepDims_) outDims.push_back(reduced[d] ? 1 : in[0].dims[d]);
    // K = max(1, N - M) in the op definition; a rank-0 output (a scalar, as
    // converters give a full reduction without keep_dims) holds the same value.
    if (outDims.empty() && out[0].rank() != 0) outDims.push_back(1);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], outDims));

    blocks_.clear();
    count_ = 1;
    for (size_t d = 0; d < rank; ++d) {
      if (reduced[d]) count_ *= in[0].dims[d];
      if (in[0].dims[d] == 1) continue;
      if (!blocks_.empty() && blocks_.back().reduced == reduced[d]) blocks_.back().size *= in[0].dims[d];
      else blocks_.push_back({in[0].dims[d], reduced[d], 0, 0});
    }
    if (blocks_.empty()) blocks_.push_back({1, false, 0, 0});
    size_t inStride = 1, outStride = 1;
    for (size_t b = blocks_.size(); b-- > 0;) {
      blocks_[b].inStride = inStride;
      blocks_[b].outStride = blocks_[b].reduced ? 0 : outStride;
      inStride *= blocks_[b].size;
      if (!blocks_[b].reduced) outStride *= blocks_[b].size;
    }
    numOut_ = out[0].numElements();
    dtype_ = in[0].dtype;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    if (kind_ == ReduceKind::kSumSquare) {
      // Square into scratch, then the sum's walk.
      const size_t n = in[0].numElements();
      if (dtype_ == DType::kInt32) {
        squaredI32_.resize(n);
        const int32_t* x = in[0].as<const int32_t>();
        for (size_t i = 0; i < n; ++i) squaredI32_[i] = int32_t(uint32_t(x[i]) * uint32_t(x[i]));
        run<int32_t>(squaredI32_.data(), out[0].as<int32_t>());
      } else {
        squaredF32_.resize(n);
        const float* x = in[0].as<const float>();
        for (size_t i = 0; i < n; ++i) squaredF32_[i] = x[i] * x[i];
        run<float>(squaredF32_.data(), out[0].as<float>());
      }
      return Status::ok();
    }
    if (dtype_ == DType::kInt32) run<int32_t>(in[0].as<const int32_t>(), out[0].as<int32_t>());
    else run<float>(in[0].as<const float>(), out[0].as<float>());
    return Status::ok();
  }

 private:
  struct Block {
    size_t size;
    bool reduced;
    size_t inStride, outStride;  // outStride 0 on reduced blocks
  };

  template <typename T>
  void run(const T* in, T* out) const {
    switch (kind_) {
      case ReduceKind::kMax: return runAs<T, ReduceKind::kMax>(in, out);
      case ReduceKind::kMin: return runAs<T, ReduceKind::kMin>(in, out);
      case ReduceKind::kProd: return runAs<T, ReduceKind::kProd>(in, out);
      case ReduceKind::kMean: return runAs<T, ReduceKind::kMean>(in, out);
      default: return runAs<T, ReduceKind::kSum>(in, out);  // Sum, and SumSquare over the squares
    }
  }

  template <typename T, ReduceKind K>
  void runAs(const T* in, T* out) const {
    const Combine<T, K> combine;
    std::fill(out, out + numOut_, combine.identity());
    const Block& first = blocks_.front();
    if (!first.reduced && blocks_.size() > 1) {
      // Outputs of different first-block indices are disjoint: split them.
      const size_t perIndex = first.inStride;
      parallelFor(first.size, std::max<size_t>(1, kElementwiseGrain / perIndex), [&](size_t b, size_t e) {
        for (size_t i = b; i < e; ++i) walk(1, in + i * first.inStride, out + i * first.outStride, combine);
      });
    } else {
      walk(0, in, out, combine);
    }
    if (K == ReduceKind::kMean) {
      const T scale = T(1) / static_cast<T>(count_);
      for (size_t i = 0; i < numOut_; ++i) out[i] *= scale;
    }
  }

  template <typename T, ReduceKind K>
  void walk(size_t b, const T* in, T* out, const Combine<T, K>& combine) const {
    const Block& blk = blocks_[b];
    if (b + 1 == blocks_.size()) {
      if (blk.reduced) {
        // Several partial results keep the float additions independent, so the
        // loop vectorises.
        constexpr size_t kLanes = 8;
        T acc[kLanes];
        for (T& a : acc) a = combine.identity();
        size_t i = 0;
        for (; i + kLanes <= blk.size; i += kLanes)
          for (size_t l = 0; l < kLanes; ++l) acc[l] = combine(acc[l], in[i + l]);
        T total = *out;
        for (T a : acc) total = combine(total, a);
        for (; i < blk.size; ++i) total = combine(total, in[i]);
        *out = total;
      } else {
        for (size_t i = 0; i < blk.size; ++i) out[i] = combine(out[i], in[i]);
      }
      return;
    }
    for (size_t i = 0; i < blk.size; ++i) walk(b + 1, in + i * blk.inStride, out + i * blk.outStride, combine);
  }

  std::string op_;
  ReduceKind kind_;
  std::vector<int64_t> axes_;
  bool keepDims_ = false;
  std::vector<Block> blocks_;
  size_t count_ = 1, numOut_ = 0;
  DType dtype_ = DType::kFloat32;
  std::vector<float> squaredF32_;
  std::vector<int32_t> squaredI32_;
};

}  // namespace

std::unique_ptr<Kernel> makeReduce(const std::string& opType) {
  static const std::pair<const char*, ReduceKind> kOps[] = {{"ReduceMean", ReduceKind::kMean},
                                                             {"ReduceSum", ReduceKind::kSum},
                                                             {"ReduceMax", ReduceKind::kMax},
                                                             {"ReduceMin", ReduceKind::kMin},
                                                             {"ReduceProd", ReduceKind::kProd},
                                                             {"ReduceSumSquare", ReduceKind::kSumSquare}};
  for (const auto& [name, kind] : kOps)
    if (opType == name) return std::make_unique<ReduceKernel>(opType, kind);
  return nullptr;
}

}  // namespace qnn::cpu
