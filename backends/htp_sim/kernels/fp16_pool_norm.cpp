// fp16-mode PoolMax2d/PoolAvg2d, ReduceMean/Sum/Max/Min/SumSquare, Softmax and LayerNorm:
// float32 arithmetic over fp16 inputs, outputs rounded to half (fp16.h).
#include <algorithm>
#include <cmath>
#include <limits>

#include "htp_sim/kernels/fp16.h"

namespace qnn::htp {
namespace {

class Fp16Pool2d final : public Fp16Kernel {
 public:
  using Fp16Kernel::Fp16Kernel;
  Status init(const OpParams& params) override {
    isMax_ = op_ == "PoolMax2d";
    return sdk::readPoolWindow(params, op_.c_str(), isMax_, &w_);
  }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_.c_str(), "in[0]", in[0], 4));
    const auto& d = in[0].dims;
    batch_ = d[0], inH_ = d[1], inW_ = d[2], ch_ = d[3];
    outH_ = outSize(inH_, w_.fh, w_.sh, w_.padTop, w_.padBottom);
    outW_ = outSize(inW_, w_.fw, w_.sw, w_.padLeft, w_.padRight);
    if (outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor(op_ + ": the padded input " + dimsToString(d) + " is smaller than filter_size");
    return checkOutputDims(op_.c_str(), out[0], {batch_, uint32_t(outH_), uint32_t(outW_), ch_});
  }
  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const float* x = in[0]->data();
    for (size_t b = 0; b < batch_; ++b)
      for (int64_t oh = 0; oh < outH_; ++oh) {
        const int64_t hs = oh * w_.sh - w_.padTop, he = hs + w_.fh;
        const int64_t h0 = std::max<int64_t>(hs, 0), h1 = std::min<int64_t>(he, inH_);
        const int64_t padH = std::min<int64_t>(he, inH_ + w_.padBottom) - hs;
        for (int64_t ow = 0; ow < outW_; ++ow) {
          const int64_t ws = ow * w_.sw - w_.padLeft, we = ws + w_.fw;
          const int64_t w0 = std::max<int64_t>(ws, 0), w1 = std::min<int64_t>(we, inW_);
          const int64_t padW = std::min<int64_t>(we, inW_ + w_.padRight) - ws;
          const int64_t valid = std::max<int64_t>(h1 - h0, 0) * std::max<int64_t>(w1 - w0, 0);
          const float count = float(w_.countPad ? padH * padW : valid);
          float* y = out[0].data() + ((b * outH_ + size_t(oh)) * size_t(outW_) + size_t(ow)) * ch_;
          for (size_t c = 0; c < ch_; ++c) {
            float acc = isMax_ ? -std::numeric_limits<float>::infinity() : 0.f;
            for (int64_t h = h0; h < h1; ++h)
              for (int64_t w = w0; w < w1; ++w) {
                const float v = x[((b * inH_ + size_t(h)) * inW_ + size_t(w)) * ch_ + c];
                acc = isMax_ ? std::max(acc, v) : acc + v;
              }
            y[c] = valid == 0 ? 0.f : isMax_ ? acc : acc / count;
          }
        }
      }
    return Status::ok();
  }

 private:
  int64_t outSize(int64_t in, int64_t filter, int64_t stride, int64_t padBefore, int64_t padAfter) const {
    const int64_t span = padBefore + in + padAfter - filter;
    if (span < 0) return 0;
    return (w_.ceil ? (span + stride - 1) / stride : span / stride) + 1;
  }
  bool isMax_ = true;
  sdk::PoolWindow w_;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, ch_ = 0;
  int64_t outH_ = 0, outW_ = 0;
};

// Splits dims into (outer, reduced, inner) index maps: reduce over `axes`.
class Fp16Reduce final : public Fp16Kernel {
 public:
  using Fp16Kernel::Fp16Kernel;
  Status init(const OpParams& params) override {
    if (!params.has("axes")) return sdk::invalidParam(op_ + ": axes is mandatory");
    axes_ = params.ints("axes", {});
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 1, 1, out, 1));
    const size_t rank = in[0].rank();
    std::vector<bool> reduced(rank, false);
    for (int64_t a : axes_) {
      if (a < 0 || size_t(a) >= rank) return sdk::invalidParam(op_ + ": axis " + std::to_string(a) + " out of range");
      reduced[size_t(a)] = true;
    }
    std::vector<uint32_t> outDims, keptDims;
    count_ = 1;
    for (size_t d = 0; d < rank; ++d) {
      if (reduced[d]) count_ *= in[0].dims[d];
      keptDims.push_back(reduced[d] ? 1 : in[0].dims[d]);
      if (!reduced[d]) outDims.push_back(in[0].dims[d]);
      else if (keepDims_) outDims.push_back(1);
    }
    if (outDims.empty()) outDims.push_back(1);
    if (!(outDims == std::vector<uint32_t>{1} && out[0].numElements() == 1))
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_.c_str(), out[0], outDims));
    // Output slot of every input element.
    const std::vector<size_t> outStrides = stridesOf(keptDims);
    slot_.assign(in[0].numElements(), 0);
    std::vector<uint32_t> coord(rank, 0);
    for (size_t i = 0; i < slot_.size(); ++i) {
      size_t s = 0;
      for (size_t d = 0; d < rank; ++d) s += (reduced[d] ? 0 : coord[d]) * outStrides[d];
      slot_[i] = uint32_t(s);
      for (size_t d = rank; d-- > 0;) {
        if (++coord[d] < in[0].dims[d]) break;
        coord[d] = 0;
      }
    }
    return Status::ok();
  }
  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const bool isMax = op_ == "ReduceMax", isMin = op_ == "ReduceMin", isSquares = op_ == "ReduceSumSquare";
    std::vector<float>& y = out[0];
    std::fill(y.begin(), y.end(), isMax ? -std::numeric_limits<float>::infinity()
                                        : isMin ? std::numeric_limits<float>::infinity() : 0.f);
    const std::vector<float>& x = *in[0];
    for (size_t i = 0; i < x.size(); ++i) {
      float& acc = y[slot_[i]];
      acc = isMax ? std::max(acc, x[i]) : isMin ? std::min(acc, x[i]) : acc + (isSquares ? x[i] * x[i] : x[i]);
    }
    if (op_ == "ReduceMean")
      for (float& v : y) v /= float(count_);
    return Status::ok();
  }

 private:
  std::vector<int64_t> axes_;
  bool keepDims_ = false;
  size_t count_ = 1;
  std::vector<uint32_t> slot_;
};

// Softmax / LogSoftmax over the last axis (the HTP supports only that axis).
class Fp16Softmax final : public Fp16Kernel {
 public:
  using Fp16Kernel::Fp16Kernel;
  Status init(const OpParams& params) override {
    beta_ = params.f32("beta", 1.f);
    hasAxis_ = params.has("axis");
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 1, 1, out, 1));
    if (in[0].rank() == 0) return sdk::invalidTensor(op_ + ": in[0] needs rank >= 1");
    if (hasAxis_ && axis_ != in[0].rank() - 1) return sdk::notSupported(op_ + ": only the last axis is supported on HTP");
    len_ = in[0].dims.back();
    return checkOutputDims(op_.c_str(), out[0], in[0].dims);
  }
  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const std::vector<float>& x = *in[0];
    const bool isLog = op_ == "LogSoftmax";
    for (size_t r = 0; r + len_ <= x.size() && len_; r += len_) {
      const float mx = *std::max_element(x.begin() + long(r), x.begin() + long(r + len_));
      float sum = 0;
      for (size_t i = 0; i < len_; ++i) sum += std::exp(beta_ * (x[r + i] - mx));
      for (size_t i = 0; i < len_; ++i)
        out[0][r + i] = isLog ? beta_ * (x[r + i] - mx) - std::log(sum) : std::exp(beta_ * (x[r + i] - mx)) / sum;
    }
    return Status::ok();
  }

 private:
  float beta_ = 1;
  bool hasAxis_ = false;
  uint32_t axis_ = 0;
  size_t len_ = 0;
};

// LayerNorm over trailing axes: (x - mean) / sqrt(var + epsilon) * gamma + beta.
class Fp16LayerNorm final : public Fp16Kernel {
 public:
  using Fp16Kernel::Fp16Kernel;
  Status init(const OpParams& params) override {
    if (!params.has("axes")) return sdk::invalidParam("LayerNorm: axes is mandatory");
    axes_ = params.ints("axes", {});
    epsilon_ = params.f32("epsilon", 0.001f);
    return Status::ok();
  }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("LayerNorm", in, 1, 3, out, 1));
    const size_t rank = in[0].rank();
    std::vector<int64_t> sorted = axes_;
    std::sort(sorted.begin(), sorted.end());
    if (sorted.empty()) return sdk::invalidParam("LayerNorm: axes is empty");
    for (size_t i = 0; i < sorted.size(); ++i)
      if (sorted[i] != int64_t(rank - sorted.size() + i))
        return sdk::notSupported("LayerNorm: only trailing normalization axes are supported on HTP");
    len_ = 1;
    for (size_t d = rank - sorted.size(); d < rank; ++d) len_ *= in[0].dims[d];
    for (size_t i = 1; i < in.size(); ++i)
      if (in[i].numElements() != len_)
        return sdk::invalidTensor("LayerNorm: in[" + std::to_string(i) + "] needs " + std::to_string(len_) + " elements");
    return checkOutputDims("LayerNorm", out[0], in[0].dims);
  }
  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const std::vector<float>& x = *in[0];
    const float* gamma = in.size() > 1 && !in[1]->empty() ? in[1]->data() : nullptr;
    const float* beta = in.size() > 2 && !in[2]->empty() ? in[2]->data() : nullptr;
    for (size_t r = 0; len_ && r + len_ <= x.size(); r += len_) {
      float mean = 0, var = 0;
      for (size_t i = 0; i < len_; ++i) mean += x[r + i];
      mean /= float(len_);
      for (size_t i = 0; i < len_; ++i) var += (x[r + i] - mean) * (x[r + i] - mean);
      const float inv = 1.f / std::sqrt(var / float(len_) + epsilon_);
      for (size_t i = 0; i < len_; ++i)
        out[0][r + i] = (x[r + i] - mean) * inv * (gamma ? gamma[i] : 1.f) + (beta ? beta[i] : 0.f);
    }
    return Status::ok();
  }

 private:
  std::vector<int64_t> axes_;
  float epsilon_ = 0.001f;
  size_t len_ = 1;
};

}  // namespace

std::unique_ptr<Kernel> makeFp16Pool(const std::string& op) { return std::make_unique<Fp16Pool2d>(op); }
std::unique_ptr<Kernel> makeFp16Reduce(const std::string& op) { return std::make_unique<Fp16Reduce>(op); }
std::unique_ptr<Kernel> makeFp16Softmax(const std::string& op) { return std::make_unique<Fp16Softmax>(op); }
std::unique_ptr<Kernel> makeFp16LayerNorm(const std::string& op) { return std::make_unique<Fp16LayerNorm>(op); }

}  // namespace qnn::htp
