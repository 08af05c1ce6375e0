// Quantized scans and index ops.
//  * CumulativeSum: along `axis` (exclusive / reverse as the op definition),
//    S = the running sum of (q + offset) in int64, stored as
//    requantize(S, s_in / s_out) (an empty exclusive sum is quantize(0)); INT_32
//    sums saturate to int32.
//  * NonZero: the coordinates of the elements whose real value is not 0
//    (q + offset != 0; BOOL_8: q != 0) in row-major order, one INT_32 row of
//    rank coordinates each, in out[0]'s [M, rank] rows (the first M when more
//    are non-zero, as on the CPU backend); rows past the count are 0.
//  * OneHot: int32 indices; out[..., j, ...] = quantize(on_value) where j is the
//    index, else quantize(off_value), in out[0]'s encoding; an index outside
//    [0, depth) gives a row of off_value. A float output (fp16 graphs) gets the
//    values themselves, rounded to half unless the graph computes in fp32.
#include <algorithm>

#include "htp_sim/kernels/fp16.h"
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

class QuantCumulativeSum final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam("CumulativeSum: axis is mandatory");
    axis_ = params.u32("axis", 0);
    exclusive_ = params.b("exclusive", false), reverse_ = params.b("reverse", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "CumulativeSum";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    integer_ = inputs[0].dtype == DType::kInt32;
    if (integer_) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kInt32}));
    } else {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    }
    if (axis_ >= inputs[0].rank())
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(axis_) + " out of range for rank " +
                               std::to_string(inputs[0].rank()));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ein_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout_));
    range_ = rangeOf(outputs[0]);
    if (!integer_) QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ein_.scale) / double(eout_.scale), &mult_));
    const auto& d = inputs[0].dims;
    length_ = d[axis_], inner_ = 1, outer_ = 1;
    for (size_t i = axis_ + 1; i < d.size(); ++i) inner_ *= d[i];
    for (size_t i = 0; i < axis_; ++i) outer_ *= d[i];
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    for (size_t o = 0; o < outer_; ++o)
      for (size_t i = 0; i < inner_; ++i) {
        int64_t sum = 0;
        for (size_t s = 0; s < length_; ++s) {
          const size_t k = reverse_ ? length_ - 1 - s : s;
          const size_t at = (o * length_ + k) * inner_ + i;
          const int64_t v = loadInt(inputs[0], at) + (integer_ ? 0 : ein_.offset);
          if (!exclusive_) sum += v;
          storeInt(outputs[0], at, integer_ ? fx::saturate(sum, range_) : fx::requantize(sum, mult_, eout_.offset, range_));
          if (exclusive_) sum += v;
        }
      }
    return Status::ok();
  }

 private:
  uint32_t axis_ = 0;
  bool exclusive_ = false, reverse_ = false, integer_ = false;
  Encoding ein_, eout_;
  fx::QuantRange range_;
  fx::FixedPointMultiplier mult_;
  size_t length_ = 1, inner_ = 1, outer_ = 1;
};

class QuantNonZero final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "NonZero";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0],
                                       {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16, DType::kSFixed16,
                                        DType::kBool8, DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[0]", outputs[0], 2));
    dims_ = inputs[0].dims;
    if (outputs[0].dims[1] != std::max<size_t>(dims_.size(), 1))
      return sdk::invalidTensor(std::string(op) + ": out[0] " + dimsToString(outputs[0].dims) + " must be [M, " +
                                std::to_string(dims_.size()) + "]");
    rows_ = outputs[0].dims[0];
    Encoding e;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &e));
    zero_ = sdk::dtypeIsFixedPoint(inputs[0].dtype) ? -int64_t(e.offset) : 0;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t rank = dims_.size(), cols = std::max<size_t>(rank, 1), n = inputs[0].numElements();
    std::vector<int64_t> coord(rank, 0);
    size_t row = 0;
    for (size_t i = 0; i < rows_ * cols; ++i) storeInt(outputs[0], i, 0);
    for (size_t i = 0; i < n && row < rows_; ++i) {
      if (loadInt(inputs[0], i) != zero_) {
        for (size_t d = 0; d < rank; ++d) storeInt(outputs[0], row * cols + d, coord[d]);
        ++row;
      }
      for (size_t d = rank; d-- > 0;) {
        if (++coord[d] < int64_t(dims_[d])) break;
        coord[d] = 0;
      }
    }
    return Status::ok();
  }

 private:
  std::vector<uint32_t> dims_;
  size_t rows_ = 0;
  int64_t zero_ = 0;
};

class QuantOneHot final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("depth")) return sdk::invalidParam("OneHot: depth is mandatory");
    depth_ = params.u32("depth", 0);
    if (depth_ == 0) return sdk::invalidParam("OneHot: depth must be >= 1");
    hasAxis_ = params.has("axis"), axis_ = params.u32("axis", 0);
    const sdk::ParamValue* on = params.find("on_value");
    const sdk::ParamValue* off = params.find("off_value");
    onReal_ = on ? on->scalarAsDouble() : 1.0, offReal_ = off ? off->scalarAsDouble() : 0.0;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "OneHot";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (indices)", inputs[0], {DType::kInt32, DType::kUInt32}));
    floatOut_ = isFloatType(outputs[0].dtype);
    if (!floatOut_) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    const size_t rank = inputs[0].rank(), axis = hasAxis_ ? axis_ : rank;
    if (axis > rank)
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(axis) + " out of range [0, " +
                               std::to_string(rank) + "]");
    std::vector<uint32_t> want(inputs[0].dims);
    want.insert(want.begin() + ptrdiff_t(axis), depth_);
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], want));
    if (!floatOut_) {
      Encoding e;
      QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &e));
      on_ = fx::quantizeValue(onReal_, e.scale, e.offset, rangeOf(outputs[0]));
      off_ = fx::quantizeValue(offReal_, e.scale, e.offset, rangeOf(outputs[0]));
    }
    outer_ = 1, inner_ = 1;
    for (size_t i = 0; i < axis; ++i) outer_ *= inputs[0].dims[i];
    for (size_t i = axis; i < rank; ++i) inner_ *= inputs[0].dims[i];
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (floatOut_) values_.resize(outer_ * depth_ * inner_);
    for (size_t o = 0; o < outer_; ++o)
      for (size_t j = 0; j < depth_; ++j)
        for (size_t i = 0; i < inner_; ++i) {
          const bool hot = loadInt(inputs[0], o * inner_ + i) == int64_t(j);
          const size_t at = (o * depth_ + j) * inner_ + i;
          if (floatOut_) values_[at] = float(hot ? onReal_ : offReal_);
          else storeInt(outputs[0], at, hot ? on_ : off_);
        }
    if (floatOut_) storeHalfValues(outputs[0], values_.data(), values_.size(), round_, saturate_);
    return Status::ok();
  }
  void setNumericMode(const sdk::NumericMode& mode) override {
    round_ = mode.fp16Floats;
    saturate_ = mode.fp16Floats && mode.saturateFp16Overflow;
  }

 private:
  uint32_t depth_ = 0, axis_ = 0;
  bool hasAxis_ = false;
  double onReal_ = 1.0, offReal_ = 0.0;
  int64_t on_ = 0, off_ = 0;
  size_t outer_ = 1, inner_ = 1;
  bool floatOut_ = false, round_ = true, saturate_ = false;
  std::vector<float> values_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantIndexOps(const std::string& op) {
  if (op == "CumulativeSum") return std::make_unique<QuantCumulativeSum>();
  if (op == "NonZero") return std::make_unique<QuantNonZero>();
  if (op == "OneHot") return std::make_unique<QuantOneHot>();
  return nullptr;
}

}  // namespace qnn::htp
