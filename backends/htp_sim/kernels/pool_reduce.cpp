// Quantized pooling and reductions.
//  * PoolMax2d / ReduceMax / ReduceMin: the extreme stored value (stored order is
//    real order since scales are > 0), then requantized to the output encoding.
//    A window entirely in the padding yields real 0.
//  * PoolAvg2d / ReduceMean: S = sum (q + offset) in int64, then
//    requantize(S, s_in / (s_out * count)); count is the window's valid
//    elements, or the padded window size with count_pad_for_edges.
//  * ReduceSum: requantize(S, s_in / s_out); INT_32 sums saturate to int32.
// 8-bit in and out (the fast paths, same results): the window / reduced block
// is walked a row of channels (NHWC) at a time, accumulating the stored bytes
// in vector loops (max / min of the bytes, or their int32 sum, with
// S = sum + count * offset); the requantization of the extreme is a 256-entry
// byte table built at prepare with the rule above.
#include <algorithm>
#include <type_traits>

#include "htp_sim/kernels/byte_paths.h"
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

constexpr std::initializer_list<DType> kPoolTypes = {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16,
                                                     DType::kSFixed16};

class QuantPool2d final : public Kernel {
 public:
  explicit QuantPool2d(bool isMax) : isMax_(isMax), op_(isMax ? "PoolMax2d" : "PoolAvg2d") {}

  Status init(const OpParams& params) override {
    sdk::PoolWindow w;
    QNN_SDK_RETURN_IF_ERROR(sdk::readPoolWindow(params, op_, isMax_, &w));
    fh_ = w.fh, fw_ = w.fw, sh_ = w.sh, sw_ = w.sw;
    padTop_ = w.padTop, padBottom_ = w.padBottom, padLeft_ = w.padLeft, padRight_ = w.padRight;
    ceil_ = w.ceil, countPad_ = w.countPad;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_, "in[0]", inputs[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], kPoolTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "out[0]", outputs[0], kPoolTypes));
    const auto& in = inputs[0].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], channels_ = in[3];
    outH_ = outSize(inH_, fh_, sh_, padTop_, padBottom_);
    outW_ = outSize(inW_, fw_, sw_, padLeft_, padRight_);
    if (outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor(std::string(op_) + ": the padded input " + dimsToString(in) + " is smaller than filter_size");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_, outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), channels_}));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op_, "in[0]", inputs[0], &ein_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op_, "out[0]", outputs[0], &eout_));
    range_ = rangeOf(outputs[0]);
    // One multiplier per possible divisor: s_in / (s_out * count).
    mult_.assign(size_t(fh_ * fw_) + 1, fx::FixedPointMultiplier{});
    for (size_t count = 1; count < mult_.size(); ++count)
      QNN_SDK_RETURN_IF_ERROR(multiplierFor(
          op_, double(ein_.scale) / (double(eout_.scale) * double(isMax_ ? 1 : count)), &mult_[count]));
    inType_ = inputs[0].dtype;
    bytePath_ = isByteActivation(inputs[0]) && isByteActivation(outputs[0]) && channels_ > 0 &&
                size_t(fh_ * fw_) < (size_t(1) << 23);  // window sums of bytes fit int32
    maxIdentity_ = true;
    if (bytePath_ && isMax_)
      for (int byte = 0; byte < 256; ++byte) {
        maxTable_[byte] = uint8_t(maxResult(byteValue(inType_, uint8_t(byte))));
        maxIdentity_ = maxIdentity_ && maxTable_[byte] == byte;
      }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const TensorView& x = inputs[0];
    if (bytePath_) {
      if (inType_ == DType::kSFixed8) executeBytes<int8_t>(x.as<const int8_t>(), outputs[0].as<uint8_t>());
      else executeBytes<uint8_t>(x.as<const uint8_t>(), outputs[0].as<uint8_t>());
      return Status::ok();
    }
    for (uint32_t b = 0; b < batch_; ++b)
      for (int64_t oh = 0; oh < outH_; ++oh) {
        for (int64_t ow = 0; ow < outW_; ++ow) {
          const Window win = windowAt(oh, ow);
          const int64_t h0 = win.h0, h1 = win.h1, w0 = win.w0, w1 = win.w1, valid = win.valid;
          const size_t outBase = ((size_t(b) * outH_ + oh) * outW_ + ow) * channels_;
          for (uint32_t c = 0; c < channels_; ++c) {
            int64_t acc = isMax_ ? INT64_MIN : 0;
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w) {
                const int64_t q = loadInt(x, ((size_t(b) * inH_ + h) * inW_ + w) * channels_ + c);
                acc = isMax_ ? std::max(acc, q) : acc + q + ein_.offset;
              }
            int64_t result;
            if (valid == 0) result = emptyResult();
            else if (isMax_) result = maxResult(acc);
            else result = avgResult(acc, win.divisor);
            storeInt(outputs[0], outBase + c, result);
          }
        }
      }
    return Status::ok();
  }

 private:
  // The three endings of the rule: a window entirely in the padding, the
  // window's largest stored value, the window's sum of (q + offset).
  int64_t emptyResult() const { return fx::quantizeValue(0.0, eout_.scale, eout_.offset, range_); }
  int64_t maxResult(int64_t q) const { return fx::requantize(q + ein_.offset, mult_[1], eout_.offset, range_); }
  int64_t avgResult(int64_t sum, size_t divisor) const {
    return fx::requantize(sum, mult_[divisor], eout_.offset, range_);
  }

  // The input rows [h0, h1) and columns [w0, w1) of output pixel (oh, ow), its
  // count of valid elements and the average's divisor (index into mult_).
  struct Window {
    int64_t h0, h1, w0, w1, valid;
    size_t divisor;
  };
  Window windowAt(int64_t oh, int64_t ow) const {
    Window win;
    const int64_t hStart = oh * sh_ - padTop_, hEnd = hStart + fh_;
    const int64_t wStart = ow * sw_ - padLeft_, wEnd = wStart + fw_;
    win.h0 = std::max<int64_t>(hStart, 0), win.h1 = std::min<int64_t>(hEnd, inH_);
    win.w0 = std::max<int64_t>(wStart, 0), win.w1 = std::min<int64_t>(wEnd, inW_);
    win.valid = std::max<int64_t>(win.h1 - win.h0, 0) * std::max<int64_t>(win.w1 - win.w0, 0);
    const int64_t padH = std::min<int64_t>(hEnd, inH_ + padBottom_) - hStart;
    const int64_t padW = std::min<int64_t>(wEnd, inW_ + padRight_) - wStart;
    win.divisor = size_t(countPad_ ? padH * padW : win.valid);
    return win;
  }

  // The 8-bit fast path: per output pixel, the window's rows of channels are
  // folded into the output row (max of the stored bytes, then requantized by
  // maxTable_) or into sumAcc_ (their int32 sum).
  template <typename T>
  void executeBytes(const T* x, uint8_t* y) {
    const size_t c = channels_;
    sumAcc_.resize(c);
    int32_t* sum = sumAcc_.data();
    const uint8_t empty = uint8_t(emptyResult());
    for (uint32_t b = 0; b < batch_; ++b)
      for (int64_t oh = 0; oh < outH_; ++oh) {
        for (int64_t ow = 0; ow < outW_; ++ow) {
          const Window win = windowAt(oh, ow);
          const int64_t h0 = win.h0, h1 = win.h1, w0 = win.w0, w1 = win.w1, valid = win.valid;
          uint8_t* out = y + ((size_t(b) * outH_ + oh) * outW_ + ow) * c;
          if (valid == 0) {
            std::fill(out, out + c, empty);
            continue;
          }
          if (isMax_) {
            rows_.clear();
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w)
                rows_.push_back(reinterpret_cast<const uint8_t*>(x + ((size_t(b) * inH_ + h) * inW_ + w) * c));
            maxOfRows(rows_.data(), rows_.size(), c, std::is_signed<T>::value, out);
            if (!maxIdentity_) lookupBytes(maxTable_, out, out, c);
          } else {
            std::fill(sum, sum + c, 0);
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w) {
                const T* row = x + ((size_t(b) * inH_ + h) * inW_ + w) * c;
                for (size_t j = 0; j < c; ++j) sum[j] += row[j];
              }
            const int64_t offsetSum = valid * ein_.offset;
                        for (size_t j = 0; j < c; ++j) out[j] = uint8_t(avgResult(sum[j] + offsetSum, win.divisor));
          }
        }
      }
  }

  int64_t outSize(int64_t in, int64_t filter, int64_t stride, int64_t padBefore, int64_t padAfter) const {
    const int64_t span = padBefore + in + padAfter - filter;
    if (span < 0) return 0;
    return (ceil_ ? (span + stride - 1) / stride : span / stride) + 1;
  }

  bool isMax_;
  const char* op_;
  int64_t fh_ = 1, fw_ = 1, sh_ = 1, sw_ = 1, padTop_ = 0, padBottom_ = 0, padLeft_ = 0, padRight_ = 0;
  bool ceil_ = false, countPad_ = false;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, channels_ = 0;
  int64_t outH_ = 0, outW_ = 0;
  Encoding ein_, eout_;
  fx::QuantRange range_;
  std::vector<fx::FixedPointMultiplier> mult_;
  DType inType_ = DType::kUndefined;
  bool bytePath_ = false;
  uint8_t maxTable_[256] = {};
  bool maxIdentity_ = true;       // maxTable_[q] == q: the maxima are the results
  std::vector<int32_t> sumAcc_;  // execute scratch: a row of window sums
  std::vector<const uint8_t*> rows_;  // execute scratch: the window's rows of channels
};

// ---------------------------------------------------------------------------
class QuantReduce final : public Kernel {
 public:
  explicit QuantReduce(std::string op) : op_(std::move(op)) {}

  Status init(const OpParams& params) override {
    if (!params.has("axes")) return sdk::invalidParam(op_ + ": axes is mandatory");
    axes_ = params.ints("axes", {});
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    integer_ = op_ == "ReduceSum" && inputs[0].dtype == DType::kInt32;
    if (integer_) QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kInt32}));
    else {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kPoolTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kPoolTypes));
    }
    const size_t rank = inputs[0].rank();
    reduced_.assign(rank, false);
    for (int64_t a : axes_) {
      if (a < 0 || size_t(a) >= rank) return sdk::invalidParam(op_ + ": axis " + std::to_string(a) + " out of range");
      reduced_[size_t(a)] = true;
    }
    std::vector<uint32_t> outDims;
    count_ = 1;
    for (size_t d = 0; d < rank; ++d) {
      if (reduced_[d]) count_ *= inputs[0].dims[d];
      if (!reduced_[d]) outDims.push_back(inputs[0].dims[d]);
      else if (keepDims_) outDims.push_back(1);
    }
    if (!(outDims.empty() && outputs[0].numElements() == 1))
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], outDims));
    inDims_ = inputs[0].dims;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ein_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout_));
    range_ = rangeOf(outputs[0]);
    const double divisor = op_ == "ReduceMean" ? double(std::max<size_t>(count_, 1)) : 1.0;
    QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ein_.scale) / (double(eout_.scale) * divisor), &mult_));
    prepareBytePath(inputs[0], outputs[0]);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (bytePath_) {
      if (inputs[0].dtype == DType::kSFixed8) executeBytes<int8_t>(inputs[0].as<const int8_t>(), outputs[0].as<uint8_t>());
      else executeBytes<uint8_t>(inputs[0].as<const uint8_t>(), outputs[0].as<uint8_t>());
      return Status::ok();
    }
    const bool isMax = op_ == "ReduceMax", isMin = op_ == "ReduceMin";
    const size_t outCount = outputs[0].numElements();
    std::vector<int64_t> acc(outCount, isMax ? INT64_MIN : isMin ? INT64_MAX : 0);
    const size_t n = inputs[0].numElements(), rank = inDims_.size();
    std::vector<uint32_t> coord(rank, 0);
    for (size_t i = 0; i < n; ++i) {
      size_t o = 0;
      for (size_t d = 0; d < rank; ++d)
        if (!reduced_[d]) o = o * inDims_[d] + coord[d];
      const int64_t q = loadInt(inputs[0], i);
      acc[o] = isMax ? std::max(acc[o], q) : isMin ? std::min(acc[o], q) : acc[o] + q + ein_.offset;
      for (size_t d = rank; d-- > 0;) {
        if (++coord[d] < inDims_[d]) break;
        coord[d] = 0;
      }
    }
    for (size_t o = 0; o < outCount; ++o) {
      int64_t v;
      if (integer_) v = fx::saturate(acc[o], fx::quantRange(DType::kInt32));
      else if (count_ == 0) v = fx::quantizeValue(0.0, eout_.scale, eout_.offset, range_);
      else v = fx::requantize(isMax || isMin ? acc[o] + ein_.offset : acc[o], mult_, eout_.offset, range_);
      storeInt(outputs[0], o, v);
    }
    return Status::ok();
  }

 private:
  // The 8-bit fast path: the reduced axes are one consecutive block, so the
  // input is [outer, reduced, inner] and the output [outer, inner]; rows of
  // `inner` bytes are folded in vector loops.
  void prepareBytePath(const TensorView& in, const TensorView& out) {
    bytePath_ = false;
    const size_t rank = inDims_.size();
    const auto first = std::find(reduced_.begin(), reduced_.end(), true);
    const auto last = std::find(first, reduced_.end(), false);
    if (integer_ || !isByteActivation(in) || !isByteActivation(out) || count_ == 0 || count_ >= (size_t(1) << 23) ||
        first == reduced_.end() || std::find(last, reduced_.end(), true) != reduced_.end())
      return;
    const size_t k0 = size_t(first - reduced_.begin()), k1 = size_t(last - reduced_.begin());
    outer_ = inner_ = 1;
    for (size_t d = 0; d < k0; ++d) outer_ *= inDims_[d];
    for (size_t d = k1; d < rank; ++d) inner_ *= inDims_[d];
    if (outer_ * inner_ == 0) return;
    for (int byte = 0; byte < 256; ++byte)
      extremeTable_[byte] = uint8_t(fx::requantize(byteValue(in.dtype, uint8_t(byte)) + ein_.offset, mult_,
                                                   eout_.offset, range_));
    bytePath_ = true;
  }

  template <typename T>
  void executeBytes(const T* x, uint8_t* y) {
    const bool isMax = op_ == "ReduceMax", isMin = op_ == "ReduceMin";
    const size_t inner = inner_;
    sumAcc_.resize(inner);
    extremeAcc_.resize(inner * sizeof(T));
    int32_t* sum = sumAcc_.data();
    T* ext = reinterpret_cast<T*>(extremeAcc_.data());
    for (size_t o = 0; o < outer_; ++o) {
      const T* block = x + o * count_ * inner;
      uint8_t* out = y + o * inner;
      if (isMax || isMin) {
        std::copy(block, block + inner, ext);
        for (size_t r = 1; r < count_; ++r) {
          const T* row = block + r * inner;
          if (isMax)
            for (size_t j = 0; j < inner; ++j) ext[j] = std::max(ext[j], row[j]);
          else
            for (size_t j = 0; j < inner; ++j) ext[j] = std::min(ext[j], row[j]);
        }
        for (size_t j = 0; j < inner; ++j) out[j] = extremeTable_[uint8_t(ext[j])];
      } else {
        std::fill(sum, sum + inner, 0);
        for (size_t r = 0; r < count_; ++r) {
          const T* row = block + r * inner;
          for (size_t j = 0; j < inner; ++j) sum[j] += row[j];
        }
        // sum of (q + offset) over the block, exactly as the general path adds it.
        const int64_t offsetSum = int64_t(count_) * ein_.offset;
        for (size_t j = 0; j < inner; ++j)
          out[j] = uint8_t(fx::requantize(sum[j] + offsetSum, mult_, eout_.offset, range_));
      }
    }
  }

  std::string op_;
  std::vector<int64_t> axes_;
  bool keepDims_ = false, integer_ = false;
  std::vector<bool> reduced_;
  std::vector<uint32_t> inDims_;
  size_t count_ = 1;
  Encoding ein_, eout_;
  fx::QuantRange range_;
  fx::FixedPointMultiplier mult_;
  // 8-bit fast path.
  bool bytePath_ = false;
  size_t outer_ = 1, inner_ = 1;
  uint8_t extremeTable_[256] = {};  // ReduceMax / ReduceMin: a stored extreme -> output byte
  std::vector<int32_t> sumAcc_;     // execute scratch
  std::vector<uint8_t> extremeAcc_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantPool(const std::string& op) {
  return std::make_unique<QuantPool2d>(op == "PoolMax2d");
}
std::unique_ptr<Kernel> makeQuantReduce(const std::string& op) { return std::make_unique<QuantReduce>(op); }

}  // namespace qnn::htp
