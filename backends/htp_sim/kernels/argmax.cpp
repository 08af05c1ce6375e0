// Argmax / Argmin on stored values (their order is the real order, scales
// being > 0); the first index wins ties. Output INT_32 or UINT_32.
// TopK along the last axis: the k largest stored values (the k smallest with
// largest = false), best first (ties: the larger index first, as the CPU
// backend), requantized to out[0]'s encoding (a copy when equal, as the HTP
// requires), and their indices in out[1].
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

class QuantArgMinMax final : public Kernel {
 public:
  explicit QuantArgMinMax(std::string op) : op_(std::move(op)), isMax_(op_ == "Argmax") {}

  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam(op_ + ": axis is mandatory");
    axis_ = params.u32("axis", 0);
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0],
                                       {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16, DType::kSFixed16,
                                        DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kInt32, DType::kUInt32}));
    const auto& d = inputs[0].dims;
    if (axis_ >= d.size()) return sdk::invalidParam(op_ + ": axis " + std::to_string(axis_) + " out of range");
    std::vector<uint32_t> outDims;
    outer_ = inner_ = 1;
    for (size_t i = 0; i < d.size(); ++i) {
      if (i < axis_) outer_ *= d[i];
      if (i > axis_) inner_ *= d[i];
      if (i != axis_) outDims.push_back(d[i]);
      else if (keepDims_) outDims.push_back(1);
    }
    axisLen_ = d[axis_];
    if (axisLen_ == 0) return sdk::invalidTensor(op_ + ": the reduced axis is empty");
    if (!(outDims.empty() && outputs[0].numElements() == 1))
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], outDims));
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    for (size_t o = 0; o < outer_; ++o)
      for (size_t j = 0; j < inner_; ++j) {
        size_t best = 0;
        int64_t bestValue = loadInt(inputs[0], o * axisLen_ * inner_ + j);
        for (size_t k = 1; k < axisLen_; ++k) {
          const int64_t v = loadInt(inputs[0], (o * axisLen_ + k) * inner_ + j);
          if (isMax_ ? v > bestValue : v < bestValue) best = k, bestValue = v;
        }
        storeInt(outputs[0], o * inner_ + j, int64_t(best));
      }
    return Status::ok();
  }

 private:
  std::string op_;
  bool isMax_;
  uint32_t axis_ = 0;
  bool keepDims_ = false;
  size_t outer_ = 1, inner_ = 1, axisLen_ = 1;
};

class QuantTopK final : public Kernel {
 public:
  Status init(const OpParams& params) override { return topKParams(params, &k_, &largest_); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(topKShapes(inputs, outputs, k_, &rowLen_));
    QNN_SDK_RETURN_IF_ERROR(checkDType("TopK", "in[0]", inputs[0], {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16,
                                                                   DType::kSFixed16, DType::kInt32}));
    return requant_.prepare("TopK", inputs[0], outputs[0]);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t rows = inputs[0].numElements() / rowLen_;
    std::vector<int64_t> row(rowLen_);
    std::vector<uint32_t> order;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t i = 0; i < rowLen_; ++i) row[i] = loadInt(inputs[0], r * rowLen_ + i);
      topKOrder(row.data(), rowLen_, k_, largest_, &order);
      for (size_t i = 0; i < k_; ++i) {
        storeInt(outputs[0], r * k_ + i, requant_(row[order[i]]));
        storeInt(outputs[1], r * k_ + i, order[i]);
      }
    }
    return Status::ok();
  }

 private:
  uint32_t k_ = 1;
  bool largest_ = true;
  size_t rowLen_ = 1;
  Requantizer requant_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantTopK(const std::string&) { return std::make_unique<QuantTopK>(); }

std::unique_ptr<Kernel> makeQuantArgMinMax(const std::string& op) { return std::make_unique<QuantArgMinMax>(op); }

}  // namespace qnn::htp
