// fp16-mode Conv2d (grouped), DepthWiseConv2d, FullyConnected and MatMul:
// products summed in float32 from fp16 operands, bias added, the sum rounded
// to half once (fp16.h).
#include <algorithm>

#include "htp_sim/kernels/fp16.h"

namespace qnn::htp {
namespace {


// NHWC input, HWIO filter [fh, fw, cin/group, cout], optional bias [cout].
// DepthWiseConv2d is the group = channel_in case with filter [fh, fw, 1, cout].
class Fp16Conv2d final : public Fp16Kernel {
 public:
  using Fp16Kernel::Fp16Kernel;
  Status init(const OpParams& params) override {
    QNN_SDK_RETURN_IF_ERROR(sdk::readConvWindow(params, op_.c_str(), true, &win_));
    group_ = op_ == "DepthWiseConv2d" ? 0 : params.u32("group", 1);
    if (op_ != "DepthWiseConv2d" && group_ == 0) return sdk::invalidParam("Conv2d: group must be > 0");
    return Status::ok();
  }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 3, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (input)", in[0], 4));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (filter)", in[1], 4));
    sdk::ConvGeometry geo;
    QNN_SDK_RETURN_IF_ERROR(sdk::resolveConvGeometry(op, in[0], in[1], out[0], win_, group_, group_ == 0, &geo));
    batch_ = geo.batch, inH_ = geo.inH, inW_ = geo.inW, cin_ = geo.cin, fh_ = geo.fh, fw_ = geo.fw;
    cout_ = geo.cout, groups_ = geo.groups, outH_ = geo.outH, outW_ = geo.outW;
    if (in.size() == 3 && in[2].numElements() != cout_)
      return sdk::invalidTensor(op_ + ": in[2] (bias) needs " + std::to_string(cout_) + " elements");
    return Status::ok();
  }

  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const float* x = in[0]->data();
    const float* w = in[1]->data();
    const float* bias = in.size() == 3 && !in[2]->empty() ? in[2]->data() : nullptr;
    const size_t cinG = cin_ / groups_, coutG = cout_ / groups_;
    float* y = out[0].data();
    parallelChunks(size_t(batch_) * outH_, double(out[0].size()) * fh_ * fw_ * cinG, [&](size_t r0, size_t r1) {
      std::vector<float> acc(cout_);
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / size_t(outH_), oh = r % size_t(outH_);
        for (int64_t ow = 0; ow < outW_; ++ow) {
          for (uint32_t c = 0; c < cout_; ++c) acc[c] = bias ? bias[c] : 0.f;
          for (int64_t kh = 0; kh < fh_; ++kh) {
            const int64_t ih = int64_t(oh) * win_.strideH - win_.padTop + kh * win_.dilH;
            if (ih < 0 || ih >= inH_) continue;
            for (int64_t kw = 0; kw < fw_; ++kw) {
              const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
              if (iw < 0 || iw >= inW_) continue;
              const float* px = x + ((b * inH_ + size_t(ih)) * inW_ + size_t(iw)) * cin_;
              const float* pw = w + (size_t(kh) * fw_ + size_t(kw)) * cinG * cout_;
              for (size_t g = 0; g < groups_; ++g)
                for (size_t ci = 0; ci < cinG; ++ci) {
                  const float xv = px[g * cinG + ci];
                  const float* wr = pw + ci * cout_ + g * coutG;
                  float* a = acc.data() + g * coutG;
                  for (size_t co = 0; co < coutG; ++co) a[co] += xv * wr[co];
                }
            }
          }
          std::copy(acc.begin(), acc.end(), y + ((b * outH_ + oh) * size_t(outW_) + size_t(ow)) * cout_);
        }
      }
    });
    return Status::ok();
  }

 private:
  sdk::ConvWindow win_;
  uint32_t group_ = 1;  // 0: depthwise (one group per input channel)
  uint32_t groups_ = 1, batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0;
  int64_t outH_ = 0, outW_ = 0;
};

// y[r, n] = sum_k x[r, k] * w[n, k] + bias[n]; w is [N, K].
class Fp16FullyConnected final : public Fp16Kernel {
 public:
  using Fp16Kernel::Fp16Kernel;
  Status init(const OpParams& params) override {
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "FullyConnected";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 3, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (weights)", in[1], 2));
    n_ = in[1].dims[0], k_ = in[1].dims[1];
    if (in.size() == 3 && in[2].numElements() != n_)
      return sdk::invalidTensor("FullyConnected: in[2] (bias) needs " + std::to_string(n_) + " elements");
    std::vector<uint32_t> outDims;
    QNN_SDK_RETURN_IF_ERROR(fullyConnectedShape(in[0], k_, n_, keepDims_, &rows_, &outDims));
    return checkOutputDims(op, out[0], outDims);
  }

  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const float* x = in[0]->data();
    const float* w = in[1]->data();
    const float* bias = in.size() == 3 && !in[2]->empty() ? in[2]->data() : nullptr;
    parallelChunks(rows_, double(rows_) * n_ * k_, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r)
        for (size_t n = 0; n < n_; ++n) {
          float acc = bias ? bias[n] : 0.f;
          for (size_t k = 0; k < k_; ++k) acc += x[r * k_ + k] * w[n * k_ + k];
          out[0][r * n_ + n] = acc;
        }
    });
    return Status::ok();
  }

 private:
  bool keepDims_ = false;
  size_t n_ = 0, k_ = 0, rows_ = 0;
};

// Batched [.., M, K] x [.., K, N] (+ bias [N]) with optional transposes and
// right-aligned broadcasting of the batch dims.
class Fp16MatMul final : public Fp16Kernel {
 public:
  using Fp16Kernel::Fp16Kernel;
  Status init(const OpParams& params) override {
    transA_ = params.b("transpose_in0", false);
    transB_ = params.b("transpose_in1", false);
    return Status::ok();
  }

 protected:
  Status shapePrepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "MatMul";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 3, out, 1));
    const auto& a = in[0].dims;
    const auto& b = in[1].dims;
    if (a.size() < 2 || b.size() < 2) return sdk::invalidTensor("MatMul: inputs need rank >= 2");
    m_ = transA_ ? a[a.size() - 1] : a[a.size() - 2];
    k_ = transA_ ? a[a.size() - 2] : a[a.size() - 1];
    const size_t kb = transB_ ? b[b.size() - 1] : b[b.size() - 2];
    n_ = transB_ ? b[b.size() - 2] : b[b.size() - 1];
    if (kb != k_)
      return sdk::invalidTensor("MatMul: inner dims differ: " + dimsToString(a) + " x " + dimsToString(b));
    if (in.size() == 3 && in[2].numElements() != n_)
      return sdk::invalidTensor("MatMul: in[2] (bias) needs " + std::to_string(n_) + " elements");
    std::vector<uint32_t> ba(a.begin(), a.end() - 2), bb(b.begin(), b.end() - 2), batch;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, ba, bb, &batch));
    // Batch index of each operand per output batch (broadcast over a [.., 1, 1] view).
    std::vector<uint32_t> outBatch = batch;
    aMap_ = broadcastIndexMap(ba, outBatch);
    bMap_ = broadcastIndexMap(bb, outBatch);
    batches_ = 1;
    for (uint32_t d : batch) batches_ *= d;
    std::vector<uint32_t> outDims = batch;
    outDims.push_back(uint32_t(m_));
    outDims.push_back(uint32_t(n_));
    return checkOutputDims(op, out[0], outDims);
  }

  Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                 const std::vector<TensorView>&) override {
    const float* bias = in.size() == 3 && !in[2]->empty() ? in[2]->data() : nullptr;
    parallelChunks(batches_ * m_, double(batches_) * m_ * n_ * k_, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const size_t bt = r / m_, i = r % m_;
        const float* a = in[0]->data() + (aMap_.empty() ? bt : aMap_[bt]) * m_ * k_;
        const float* b = in[1]->data() + (bMap_.empty() ? bt : bMap_[bt]) * k_ * n_;
        for (size_t j = 0; j < n_; ++j) {
          float acc = bias ? bias[j] : 0.f;
          for (size_t k = 0; k < k_; ++k)
            acc += (transA_ ? a[k * m_ + i] : a[i * k_ + k]) * (transB_ ? b[j * k_ + k] : b[k * n_ + j]);
          out[0][(bt * m_ + i) * n_ + j] = acc;
        }
      }
    });
    return Status::ok();
  }

 private:
  bool transA_ = false, transB_ = false;
  size_t m_ = 0, k_ = 0, n_ = 0, batches_ = 1;
  std::vector<uint32_t> aMap_, bMap_;
};

}  // namespace

std::unique_ptr<Kernel> makeFp16Conv2d(const std::string& op) { return std::make_unique<Fp16Conv2d>(op); }
std::unique_ptr<Kernel> makeFp16FullyConnected(const std::string& op) {
  return std::make_unique<Fp16FullyConnected>(op);
}
std::unique_ptr<Kernel> makeFp16MatMul(const std::string& op) { return std::make_unique<Fp16MatMul>(op); }

}  // namespace qnn::htp
