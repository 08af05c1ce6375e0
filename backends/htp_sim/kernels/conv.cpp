// Quantized Conv2d (grouped) and DepthWiseConv2d on NHWC fixed-point tensors.
//  * Conv2d: im2col of the unsigned-shifted input in tiles of output pixels,
//    padded with the input zero point, then one QuantGemm per group (VNNI when
//    possible); the zero-point and bias terms are folded into a per-channel
//    addend at prepare.
//  * DepthWiseConv2d: a direct loop with int64 sums.
#include <algorithm>
#include <cstring>
#include <new>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/quant_gemm.h"
#include "htp_sim/kernels/weighted_output.h"

namespace qnn::htp {
namespace {

using Window = sdk::ConvWindow;
Status readWindow(const OpParams& params, const char* op, bool hasDilation, Window* w) {
  return sdk::readConvWindow(params, op, hasDilation, w);
}

Status checkConvTensors(const char* op, const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
  QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (input)", inputs[0], 4));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (filter)", inputs[1], 4));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "out[0]", outputs[0], 4));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (input)", inputs[0], kActivationTypes));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (filter)", inputs[1], kWeightTypes));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
  if (inputs.size() == 3) {
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (bias)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], kBiasTypes));
  }
  return Status::ok();
}

// The input as unsigned values (stored value + shift), borrowed when no shift
// or widening is needed, else converted into `buffer`.
template <typename TA>
const TA* unsignedView(const TensorView& x, const UnsignedInput& u, std::vector<TA>& buffer) {
  if (sizeof(TA) == 1 && x.dtype == DType::kUFixed8) return x.as<const TA>();
  if (sizeof(TA) == 2 && x.dtype == DType::kUFixed16) return x.as<const TA>();
  buffer.resize(x.numElements());
  loadShifted(x, 0, 1, buffer.size(), u.shift, buffer.data());
  return buffer.data();
}

// ---------------------------------------------------------------------------
class QuantConv2d final : public ClampFusingKernel {
 public:
  void fuseClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
  }
  Status init(const OpParams& params) override {
    QNN_SDK_RETURN_IF_ERROR(readWindow(params, "Conv2d", true, &win_));
    group_ = params.u32("group", 1);
    if (group_ == 0) return sdk::invalidParam("Conv2d: group must be > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Conv2d";
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors(op, inputs, outputs));
    sdk::ConvGeometry geo;
    QNN_SDK_RETURN_IF_ERROR(sdk::resolveConvGeometry(op, inputs[0], inputs[1], outputs[0], win_, group_, false, &geo));
    batch_ = geo.batch, inH_ = geo.inH, inW_ = geo.inW, cin_ = geo.cin, fh_ = geo.fh, fw_ = geo.fw;
    cout_ = geo.cout, cinG_ = geo.cinG, coutG_ = geo.coutG, outH_ = geo.outH, outW_ = geo.outW;

    Encoding ex;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0] (input)", inputs[0], &ex));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1] (filter)", inputs[1], 3, cout_, &wEnc_));
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op, ex, wEnc_, inputs.size() == 3 ? &inputs[2] : nullptr, outputs[0]));
    input_ = unsignedInput(inputs[0], ex);
    const int64_t zMax = input_.narrow ? 255 : 65535;
    if (input_.zeroPoint < 0 || input_.zeroPoint > zMax)
      return sdk::unsupportedDType("Conv2d: in[0] offset " + std::to_string(ex.offset) +
                                   " puts the zero point outside the stored range of " +
                                   sdk::dtypeName(inputs[0].dtype));
    kDim_ = size_t(fh_) * fw_ * cinG_;
    direct_ = fh_ == 1 && fw_ == 1 && win_.strideH == 1 && win_.strideW == 1 && win_.padTop == 0 &&
              win_.padBottom == 0 && win_.padLeft == 0 && win_.padRight == 0;
    planTiles();
    gemms_.assign(group_, QuantGemm{});
    staticWeights_ = inputs[1].data != nullptr;
    if (staticWeights_) packWeights(inputs[1]);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!staticWeights_) packWeights(inputs[1]);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    try {
      if (narrow_) runNarrow(inputs[0], outputs[0]);
      else runWide(inputs[0], outputs[0]);
    } catch (const std::bad_alloc&) {
      return {sdk::StatusCode::kOutOfMemory, "Conv2d: out of memory for im2col buffers"};
    }
    return Status::ok();
  }

 private:
  void packWeights(const TensorView& w) {
    const std::vector<int32_t> all = offsetWeightsChannelLast(w, wEnc_);
    std::vector<int32_t> b(kDim_ * coutG_);
    narrow_ = input_.narrow;
    for (uint32_t g = 0; g < group_; ++g) {
      for (size_t k = 0; k < kDim_; ++k)
        for (size_t j = 0; j < coutG_; ++j) b[k * coutG_ + j] = all[k * cout_ + g * coutG_ + j];
      narrow_ = gemms_[g].pack(b.data(), kDim_, coutG_, input_.narrow, true) && narrow_;
      out_.setZeroPointCorrection(input_.zeroPoint, gemms_[g].columnSums(), g * coutG_);
    }
    if (input_.narrow && !narrow_)  // some group cannot stay exact in int32: every group goes wide
      for (uint32_t g = 0; g < group_; ++g) {
        for (size_t k = 0; k < kDim_; ++k)
          for (size_t j = 0; j < coutG_; ++j) b[k * coutG_ + j] = all[k * cout_ + g * coutG_ + j];
        gemms_[g].pack(b.data(), kDim_, coutG_, false, true);
      }
  }

  // Work split: tiles of output pixels (the im2col block, sized to stay in L2
  // beside a panel of weights) x column chunks (only when there are too few
  // tiles to keep every thread busy, e.g. the 7x7 maps of ResNet's last stage).
  void planTiles() {
    const size_t pixels = size_t(outH_) * outW_, threads = hostThreads();
    constexpr size_t kTileBytes = size_t(1) << 18;
    const size_t target = std::clamp<size_t>(kTileBytes / std::max<size_t>(kDim_, 1), 16, 512);
    size_t tiles = (pixels + target - 1) / target;
    if (batch_ * group_ == 1 && tiles > 1) tiles = (tiles + threads - 1) / threads * threads;
    tileRows_ = std::min(pixels, ((pixels + tiles - 1) / tiles + 3) / 4 * 4);
    tilesPerImage_ = (pixels + tileRows_ - 1) / tileRows_;
    const size_t items = size_t(batch_) * tilesPerImage_ * group_;
    colChunk_ = coutG_;
    if (items < 2 * threads && threads > 1) {
      const size_t want = std::min<size_t>((coutG_ + 63) / 64, (2 * threads + items - 1) / items);
      const size_t align = QuantGemm::kPanelAlign;
      colChunk_ = std::max<size_t>(align, ((coutG_ + want - 1) / want + align - 1) / align * align);
    }
    colChunks_ = (coutG_ + colChunk_ - 1) / colChunk_;
  }

  // 8-bit input: VNNI GEMM per (tile, group, column chunk), requantized straight
  // into the output.
  void runNarrow(const TensorView& x, const TensorView& y) {
    std::vector<uint8_t> shifted;
    const uint8_t* src = unsignedView<uint8_t>(x, input_, shifted);
    const uint8_t pad = uint8_t(input_.zeroPoint);
    const size_t pixels = size_t(outH_) * outW_;
    const size_t items = size_t(batch_) * tilesPerImage_ * group_ * colChunks_;
    const double macs = double(batch_) * double(pixels) * double(kDim_) * double(cout_);
    parallelChunks(items, macs, [&](size_t i0, size_t i1) {
      // Scratch reused across executes: a fresh multi-100-KiB vector per call
      // would be a fresh mmap and page faults every time.
      thread_local std::vector<uint8_t> colsScratch;
      thread_local std::vector<int32_t> accScratch;
      std::vector<uint8_t>& cols = colsScratch;  // one TLS lookup, not one per use
      std::vector<int32_t>& acc = accScratch;
      // + kCopySlack: im2col's short row copies may write a few bytes past a row.
      if (!direct_ && cols.size() < tileRows_ * kDim_ + kCopySlack) cols.resize(tileRows_ * kDim_ + kCopySlack);
      if (acc.size() < tileRows_ * colChunk_) acc.resize(tileRows_ * colChunk_);
      size_t cachedKey = SIZE_MAX;
      for (size_t item = i0; item < i1; ++item) {
        const size_t chunk = item % colChunks_, key = item / colChunks_;
        const uint32_t g = uint32_t(key % group_);
        const size_t tile = (key / group_) % tilesPerImage_, b = key / group_ / tilesPerImage_;
        const size_t p0 = tile * tileRows_, rows = std::min(tileRows_, pixels - p0);
        const uint8_t* image = src + b * inH_ * inW_ * cin_;
        const uint8_t* a = image + p0 * cin_ + size_t(g) * cinG_;
        size_t lda = cin_;
        if (!direct_) {
          if (key != cachedKey)
            im2col(image, g, p0, rows, pad, cols.data(), x.numElements() - b * inH_ * inW_ * cin_);
          cachedKey = key;
          a = cols.data(), lda = kDim_;
        }
        const size_t col0 = chunk * colChunk_, ncols = std::min(colChunk_, coutG_ - col0);
        gemms_[g].multiplyColumns(a, rows, lda, col0, ncols, acc.data(), ncols);
        out_.storeRows(acc.data(), rows, ncols, ncols, size_t(g) * coutG_ + col0, y,
                       (b * pixels + p0) * cout_ + size_t(g) * coutG_ + col0, cout_);
      }
    });
  }

  // 16-bit input (or weights too large for exact int32 sums): int64 GEMM.
  void runWide(const TensorView& x, const TensorView& y) {
    std::vector<uint16_t> shifted;
    const uint16_t* src = unsignedView<uint16_t>(x, input_, shifted);
    const uint16_t pad = uint16_t(input_.zeroPoint);
    const size_t pixels = size_t(outH_) * outW_;
    const double macs = double(batch_) * double(pixels) * double(kDim_) * double(cout_);
    parallelChunks(size_t(batch_) * tilesPerImage_, macs, [&](size_t t0, size_t t1) {
      std::vector<uint16_t> cols(tileRows_ * kDim_);
      std::vector<int64_t> acc(tileRows_ * coutG_);
      std::vector<int64_t> row(coutG_);
      for (size_t t = t0; t < t1; ++t) {
        const size_t b = t / tilesPerImage_, p0 = (t % tilesPerImage_) * tileRows_;
        const uint16_t* image = src + b * inH_ * inW_ * cin_;
        const size_t rows = std::min(tileRows_, pixels - p0);
        for (uint32_t g = 0; g < group_; ++g) {
          im2col(image, g, p0, rows, pad, cols.data(), 0);
          gemms_[g].multiply(cols.data(), rows, kDim_, acc.data());
          for (size_t r = 0; r < rows; ++r) {
            const size_t outBase = (b * pixels + p0 + r) * cout_ + size_t(g) * coutG_;
            out_.finishRow(acc.data() + r * coutG_, coutG_, size_t(g) * coutG_, nullptr, row.data());
            storeInts(y, outBase, row.data(), coutG_);
          }
        }
      }
    });
  }

  // imageValuesLeft: values readable from image on (0: no over-reading; else
  // cols has kCopySlack spare bytes and rows of up to kCopySlack bytes are
  // copied as one fixed-size block, which may spill into the next row's
  // start before that row overwrites it).
  template <typename TA>
  void im2col(const TA* image, uint32_t g, size_t p0, size_t rows, TA pad, TA* cols, size_t imageValuesLeft) const {
    for (size_t r = 0; r < rows; ++r) {
      const int64_t oh = int64_t((p0 + r) / outW_), ow = int64_t((p0 + r) % outW_);
      TA* dst = cols + r * kDim_;
      const int64_t iw0 = ow * win_.strideW - win_.padLeft;
      // One copy per filter row when its taps are contiguous in the input (no
      // groups, no horizontal dilation, inside the image): small-channel
      // layers such as a 7x7 stem over RGB would otherwise copy 3 bytes at a time.
      const bool rowContiguous = cinG_ == cin_ && win_.dilW == 1 && iw0 >= 0 && iw0 + fw_ <= inW_;
      for (int64_t kh = 0; kh < fh_; ++kh) {
        const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
        if (rowContiguous && ih >= 0 && ih < inH_) {
          const size_t offset = (size_t(ih) * inW_ + size_t(iw0)) * cin_, span = size_t(fw_) * cin_;
          if (sizeof(TA) == 1 && span <= kCopySlack && offset + kCopySlack <= imageValuesLeft)
            std::memcpy(dst, image + offset, kCopySlack);  // a fixed-size copy: a few vector moves
          else
            std::copy(image + offset, image + offset + span, dst);
          dst += span;
          continue;
        }
        for (int64_t kw = 0; kw < fw_; ++kw, dst += cinG_) {
          const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
          if (ih < 0 || ih >= inH_ || iw < 0 || iw >= inW_) {
            std::fill(dst, dst + cinG_, pad);
          } else {
            const TA* s = image + (size_t(ih) * inW_ + size_t(iw)) * cin_ + size_t(g) * cinG_;
            std::copy(s, s + cinG_, dst);
          }
        }
      }
    }
  }

  static constexpr size_t kCopySlack = 32;
  Window win_;
  uint32_t group_ = 1;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, cinG_ = 0, coutG_ = 0;
  int64_t outH_ = 0, outW_ = 0;
  size_t kDim_ = 0, tileRows_ = 0, tilesPerImage_ = 1, colChunk_ = 0, colChunks_ = 1;
  bool direct_ = false;  // 1x1, stride 1, no padding: the input rows are the GEMM's A
  std::vector<Encoding> wEnc_;
  UnsignedInput input_;
  WeightedOutput out_;
  std::vector<QuantGemm> gemms_;
  bool staticWeights_ = false, narrow_ = true;
};

// acc[c] += (x[c] + offset) * w[c]: the depthwise inner loop, vectorized per ISA. One clone set per
// stored type (clang does not clone function templates): the body is inlined into each.
template <typename T>
__attribute__((always_inline)) inline void accumulateTapBody(const T* __restrict x, const int32_t* __restrict w,
                                                             int32_t offset, size_t n, int32_t* __restrict acc) {
  for (size_t c = 0; c < n; ++c) acc[c] += (int32_t(x[c]) + offset) * w[c];
}
__attribute__((target_clones("avx512f", "avx2", "default"))) void accumulateTap(const uint8_t* __restrict x,
                                                                               const int32_t* __restrict w,
                                                                               int32_t offset, size_t n,
                                                                               int32_t* __restrict acc) {
  accumulateTapBody(x, w, offset, n, acc);
}
__attribute__((target_clones("avx512f", "avx2", "default"))) void accumulateTap(const int8_t* __restrict x,
                                                                               const int32_t* __restrict w,
                                                                               int32_t offset, size_t n,
                                                                               int32_t* __restrict acc) {
  accumulateTapBody(x, w, offset, n, acc);
}

// ---------------------------------------------------------------------------
class QuantDepthWiseConv2d final : public ClampFusingKernel {
 public:
  void fuseClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
  }
  Status init(const OpParams& params) override { return readWindow(params, "DepthWiseConv2d", true, &win_); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "DepthWiseConv2d";
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors(op, inputs, outputs));
    sdk::ConvGeometry geo;
    QNN_SDK_RETURN_IF_ERROR(sdk::resolveConvGeometry(op, inputs[0], inputs[1], outputs[0], win_, 0, true, &geo));
    batch_ = geo.batch, inH_ = geo.inH, inW_ = geo.inW, cin_ = geo.cin, fh_ = geo.fh, fw_ = geo.fw;
    cout_ = geo.cout, mult_ = geo.coutG, outH_ = geo.outH, outW_ = geo.outW;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0] (input)", inputs[0], &ex_));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1] (filter)", inputs[1], 3, cout_, &wEnc_));
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op, ex_, wEnc_, inputs.size() == 3 ? &inputs[2] : nullptr, outputs[0]));
    staticWeights_ = inputs[1].data != nullptr;
    if (staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], wEnc_);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!staticWeights_) weights_ = offsetWeightsChannelLast(inputs[1], wEnc_);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    if (int32Exact()) {
      if (inputs[0].dtype == DType::kUFixed8) return runInt32<uint8_t>(inputs[0], outputs[0]);
      if (inputs[0].dtype == DType::kSFixed8) return runInt32<int8_t>(inputs[0], outputs[0]);
    }
    const std::vector<int32_t> x = loadAll(inputs[0]);
    std::vector<int64_t> acc(cout_), row(cout_);
    for (uint32_t b = 0; b < batch_; ++b)
      for (int64_t oh = 0; oh < outH_; ++oh)
        for (int64_t ow = 0; ow < outW_; ++ow) {
          std::fill(acc.begin(), acc.end(), 0);
          for (int64_t kh = 0; kh < fh_; ++kh) {
            const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
            if (ih < 0 || ih >= inH_) continue;
            for (int64_t kw = 0; kw < fw_; ++kw) {
              const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
              if (iw < 0 || iw >= inW_) continue;
              const int32_t* px = x.data() + ((size_t(b) * inH_ + ih) * inW_ + iw) * cin_;
              const int32_t* w = weights_.data() + (size_t(kh) * fw_ + kw) * cout_;
              for (uint32_t o = 0; o < cout_; ++o) acc[o] += int64_t(px[o / mult_] + ex_.offset) * w[o];
            }
          }
          const size_t base = ((size_t(b) * outH_ + oh) * outW_ + ow) * cout_;
          out_.finishRow(acc.data(), cout_, 0, nullptr, row.data());
          storeInts(outputs[0], base, row.data(), cout_);
        }
    return Status::ok();
  }

 private:
  // 8-bit input: every tap's (x + offset) * w' is below 2^16 in magnitude, so
  // int32 sums are exact when taps * 255 * max|w'| < 2^31.
  bool int32Exact() const {
    int64_t maxAbs = 1;
    for (int32_t w : weights_) maxAbs = std::max<int64_t>(maxAbs, w < 0 ? -int64_t(w) : w);
    return int64_t(fh_) * fw_ * 255 * maxAbs < (int64_t(1) << 31);
  }

  // Rows of output pixels on the worker pool; per pixel one int32 accumulator
  // per channel, channels innermost (vectorized), requantized by storeRows.
  template <typename T>
  Status runInt32(const TensorView& x, const TensorView& y) {
    const T* src = x.as<const T>();
    const int32_t offset = ex_.offset;
    const size_t rows = size_t(batch_) * size_t(outH_);
    const double work = double(rows) * double(outW_) * double(cout_) * fh_ * fw_;
    parallelChunks(rows, work, [&](size_t r0, size_t r1) {
      std::vector<int32_t> acc(cout_);
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / size_t(outH_);
        const int64_t oh = int64_t(r % size_t(outH_));
        for (int64_t ow = 0; ow < outW_; ++ow) {
          std::fill(acc.begin(), acc.end(), 0);
          for (int64_t kh = 0; kh < fh_; ++kh) {
            const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
            if (ih < 0 || ih >= inH_) continue;  // padding is real 0: (zero point + offset) * w = 0
            for (int64_t kw = 0; kw < fw_; ++kw) {
              const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
              if (iw < 0 || iw >= inW_) continue;
              const T* px = src + ((b * inH_ + size_t(ih)) * inW_ + size_t(iw)) * cin_;
              const int32_t* w = weights_.data() + (size_t(kh) * fw_ + size_t(kw)) * cout_;
              if (mult_ == 1) accumulateTap(px, w, offset, cout_, acc.data());
              else
                for (uint32_t o = 0; o < cout_; ++o) acc[o] += (int32_t(px[o / mult_]) + offset) * w[o];
            }
          }
          out_.storeRows(acc.data(), 1, cout_, cout_, 0, y, ((b * outH_ + size_t(oh)) * outW_ + size_t(ow)) * cout_,
                         cout_);
        }
      }
    });
    return Status::ok();
  }

  Window win_;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, mult_ = 1;
  int64_t outH_ = 0, outW_ = 0;
  Encoding ex_;
  std::vector<Encoding> wEnc_;
  std::vector<int32_t> weights_;
  WeightedOutput out_;
  bool staticWeights_ = false;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantConv2d(const std::string&) { return std::make_unique<QuantConv2d>(); }
std::unique_ptr<Kernel> makeQuantDepthWiseConv2d(const std::string&) {
  return std::make_unique<QuantDepthWiseConv2d>();
}

}  // namespace qnn::htp
