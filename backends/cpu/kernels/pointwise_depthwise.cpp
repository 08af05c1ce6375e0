#include "cpu/kernels/pointwise_depthwise.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <limits>
#include <new>

#include "core/kernel_checks.h"
#include "core/large_buffer.h"
#include "cpu/kernels/depthwise.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

// A band's 1x1 output (the depthwise input rows it needs) within half of L2.
constexpr size_t kBandBytes = size_t(512) << 10;
// Below this the 1x1 output stays in L2 unfused, and fusing only adds the
// rows recomputed at band edges.
constexpr size_t kMinMidBytes = size_t(1) << 20;

class PointwiseDepthwiseKernel final : public Kernel {
 public:
  // The pair is checked by makePointwiseDepthwise; these never fail.
  Status init(const OpParams&) override { return Status::ok(); }
  Status prepare(const std::vector<TensorView>&, const std::vector<TensorView>&) override { return Status::ok(); }

  // inputs: x, w1, [b1], w2, [b2]; weights were taken at construction.
  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const Operands ops{inputs[0].as<const float>(), hasBias1_ ? inputs[2].as<const float>() : nullptr,
                       inputs[w2Index_].as<const float>(),
                       hasBias2_ ? inputs[w2Index_ + 1].as<const float>() : nullptr, outputs[0].as<float>()};
    // A band takes the rows it shares with the band its thread ran just
    // before, if that was the previous band of this execute, from the buffer
    // (moved to its front) instead of computing them again. The pool gives
    // each thread a contiguous range of bands, in order, so that is the
    // common case; a band taken from another thread's range recomputes them.
    // (One range per thread fixed up front lost the pool's balancing: the
    // 2-thread blocks 2-3 went from 1.75x to 1.45x of 1 thread.)
    const uint64_t execution = gExecutions.fetch_add(1) + 1;
    parallelFor(size_t(batch_) * bandsPerImage_, 1, [&](size_t b0, size_t b1) {
      float* scratch = threadScratch(scratchFloats_);  // hot in this core's cache (kernel_util.h)
      HeldRows& held = tHeldRows;
      if (held.kernel != this || held.execution != execution) held = {this, execution};
      for (size_t band = b0; band < b1; ++band)
        runBand(band, ops, scratch ? scratch : reserved_.get() + band * scratchFloats_, &held);
    });
    return Status::ok();
  }

  // Set up from the two nodes; false when the pair does not qualify.
  bool setUp(const OpParams& pw, const std::vector<TensorView>& pwIn, const gemm::Clamp* clamp1, const OpParams& dw,
             const std::vector<TensorView>& dwIn, const TensorView& out, const gemm::Clamp* clamp2) {
    if (pwIn.size() < 2 || pwIn.size() > 3 || dwIn.size() < 2 || dwIn.size() > 3) return false;
    for (const auto* list : {&pwIn, &dwIn})
      for (const TensorView& t : *list)
        if (t.dtype != DType::kFloat32) return false;
    if (out.dtype != DType::kFloat32 || pwIn[0].dims.size() != 4 || pwIn[1].dims.size() != 4 ||
        dwIn[0].dims.size() != 4 || dwIn[1].dims.size() != 4)
      return false;
    for (size_t i = 1; i < pwIn.size(); ++i)
      if (!pwIn[i].data) return false;
    for (size_t i = 1; i < dwIn.size(); ++i)
      if (!dwIn[i].data) return false;

    sdk::ConvWindow pwWin, dwWin;
    if (!sdk::readConvWindow(pw, "Conv2d", true, &pwWin).isOk() ||
        !sdk::readConvWindow(dw, "DepthWiseConv2d", true, &dwWin).isOk())
      return false;
    if (pw.u32("group", 1) != 1 || pwWin.strideH != 1 || pwWin.strideW != 1 || pwWin.padTop != 0 ||
        pwWin.padBottom != 0 || pwWin.padLeft != 0 || pwWin.padRight != 0)
      return false;
    sdk::ConvGeometry pg, dg;
    if (!sdk::resolveConvGeometry("Conv2d", pwIn[0], pwIn[1], dwIn[0], pwWin, 1, false, &pg).isOk() ||
        !sdk::resolveConvGeometry("DepthWiseConv2d", dwIn[0], dwIn[1], out, dwWin, 0, true, &dg).isOk())
      return false;
    if (pg.fh != 1 || pg.fw != 1 || dg.coutG != 1 || dg.cin != pg.cout || dg.outH <= 0 || dg.outW <= 0) return false;
    if (pwIn.size() == 3 && pwIn[2].dims != std::vector<uint32_t>{pg.cout}) return false;
    if (dwIn.size() == 3 && dwIn[2].dims != std::vector<uint32_t>{dg.cout}) return false;
    const size_t midRowBytes = size_t(dg.inW) * dg.cin * sizeof(float);
    if (midRowBytes * dg.inH * dg.batch < kMinMidBytes) return false;

    batch_ = dg.batch, inH_ = dg.inH, inW_ = dg.inW, cin_ = pg.cin, cmid_ = pg.cout;
    outH_ = dg.outH, outW_ = dg.outW, strideH_ = dwWin.strideH, padTop_ = dwWin.padTop;
    reachH_ = int64_t(dg.fh - 1) * dwWin.dilH + 1;
    geo_ = {int64_t(dg.inH), int64_t(dg.inW), int64_t(dg.cin), int64_t(dg.fh), int64_t(dg.fw), dwWin.strideH,
            dwWin.strideW, dwWin.dilH, dwWin.dilW, dwWin.padTop, dwWin.padLeft, dg.outW};
    // Output rows per band: as many as keep the band's input rows within kBandBytes.
    const int64_t rowsFit = int64_t(std::max<size_t>(1, kBandBytes / midRowBytes));
    rowsPerBand_ = std::max<int64_t>(1, (rowsFit - reachH_) / strideH_ + 1);
    rowsPerBand_ = std::min(rowsPerBand_, outH_);
    bandsPerImage_ = size_t((outH_ + rowsPerBand_ - 1) / rowsPerBand_);
    // The bands split the rows evenly, their count a multiple of the threads' (one image): the
    // pool hands each thread a contiguous range of bands, so unequal bands are unequal shares
    // (MobileNetV2's second block went 11 bands of 5 rows and one of 1: 30 rows against 26).
    const size_t threads = workerThreads();
    if (threads > 1 && batch_ == 1)
      bandsPerImage_ = std::min<size_t>(size_t(outH_), (bandsPerImage_ + threads - 1) / threads * threads);
    rowsPerBand_ = (outH_ + int64_t(bandsPerImage_) - 1) / int64_t(bandsPerImage_);  // the largest band
    const int64_t bandInRows = std::min<int64_t>(inH_, (rowsPerBand_ - 1) * strideH_ + reachH_);
    scratchFloats_ = size_t(std::max<int64_t>(bandInRows, 1)) * inW_ * cmid_;
    reserved_ = sdk::allocateLargeArray<float>(batch_ * bandsPerImage_ * scratchFloats_);

    packedW1_.assign(gemm::packedBSize(cin_, cmid_), 0.f);
    gemm::packB(pwIn[1].as<const float>(), cmid_, false, cin_, cmid_, packedW1_.data());
    hasBias1_ = pwIn.size() == 3, hasBias2_ = dwIn.size() == 3;
    w2Index_ = pwIn.size();
    if (clamp1) clamp1_ = *clamp1, hasClamp1_ = true;
    if (clamp2) clamp2_ = *clamp2, hasClamp2_ = true;
    return true;
  }

 private:
  struct Operands {
    const float* x;
    const float* bias1;
    const float* w2;
    const float* bias2;
    float* out;
  };

  // The 1x1 output rows [rs, re) of image `image` at the front of `buffer`
  // after a band of execute `execution` (numbered across all these kernels
  // in the process, so a kernel rebuilt at the same address never matches
  // its predecessor's rows): what the next band the same thread runs may
  // reuse (kernel_util.h's threadScratch is the buffer, so the rows stay
  // only while no other kernel ran between).
  struct HeldRows {
    const PointwiseDepthwiseKernel* kernel = nullptr;
    uint64_t execution = 0;
    const float* buffer = nullptr;
    size_t image = 0;
    int64_t rs = 0, re = 0;
  };
  static thread_local HeldRows tHeldRows;
  static std::atomic<uint64_t> gExecutions;

  void runBand(size_t band, const Operands& op, float* mid, HeldRows* held) const {
    const size_t b = band / bandsPerImage_;
    const int64_t bi = int64_t(band % bandsPerImage_), bands = int64_t(bandsPerImage_);
    const int64_t ohA = bi * outH_ / bands, ohB = (bi + 1) * outH_ / bands;
    // The input rows [rs, re) the band's outputs reach, clipped to the image.
    const int64_t rs = std::max<int64_t>(0, ohA * strideH_ - padTop_);
    const int64_t re = std::clamp<int64_t>((ohB - 1) * strideH_ - padTop_ + reachH_, rs, inH_);
    // Rows the previous band of this run computed into the same buffer are
    // moved to the front (a memmove from L2 costs a quarter of computing a
    // row again: MobileNetV2 recomputed 7-16 % of its expansions).
    const size_t rowFloats = inW_ * cmid_;
    int64_t from = rs;
    if (held->buffer == mid && held->image == b && held->rs <= rs && held->re > rs && held->re <= re) {
      std::memmove(mid, mid + size_t(rs - held->rs) * rowFloats, size_t(held->re - rs) * rowFloats * sizeof(float));
      from = held->re;
    }
    if (re > from)
      gemm::multiply(size_t(re - from) * inW_, cmid_, cin_, op.x + (b * inH_ + size_t(from)) * inW_ * cin_, cin_,
                     false, packedW1_.data(), op.bias1, mid + size_t(from - rs) * rowFloats, cmid_, false,
                     hasClamp1_ ? &clamp1_ : nullptr);
    held->buffer = mid, held->image = b, held->rs = rs, held->re = re;
    // The band buffer as the image: its row 0 is input row rs, output row ohA is row 0.
    depthwise::Geometry g = geo_;
    g.inH = re - rs;
    g.padTop = padTop_ + rs - ohA * strideH_;
    const float lo = hasClamp2_ ? clamp2_.lo : 0.f, hi = hasClamp2_ ? clamp2_.hi : 0.f;
    for (int64_t oh = ohA; oh < ohB;) {
      float* out = op.out + ((b * size_t(outH_)) + size_t(oh)) * outW_ * cmid_;
      if (oh + 1 < ohB) {  // two rows share their input rows
        depthwise::convolveRowPair(g, mid, op.w2, op.bias2, out, oh - ohA, hasClamp2_, lo, hi);
        oh += 2;
      } else {
        depthwise::convolveRow(g, mid, op.w2, op.bias2, out, oh - ohA, hasClamp2_, lo, hi);
        ++oh;
      }
    }
  }

  size_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, cmid_ = 0, bandsPerImage_ = 0, scratchFloats_ = 0;
  int64_t outH_ = 0, outW_ = 0, strideH_ = 1, padTop_ = 0, reachH_ = 1, rowsPerBand_ = 1;
  depthwise::Geometry geo_;
  sdk::LargeArray<float> reserved_;  // per band, its rows when the thread's scratch cannot grow
  sdk::LargeVector<float> packedW1_;  // packed once: the engine rebuilds the step when the weights change
  size_t w2Index_ = 2;
  bool hasBias1_ = false, hasBias2_ = false;
  gemm::Clamp clamp1_{0.f, 0.f}, clamp2_{0.f, 0.f};
  bool hasClamp1_ = false, hasClamp2_ = false;
};

thread_local PointwiseDepthwiseKernel::HeldRows PointwiseDepthwiseKernel::tHeldRows;
std::atomic<uint64_t> PointwiseDepthwiseKernel::gExecutions{0};

}  // namespace

std::unique_ptr<Kernel> makePointwiseDepthwise(const OpParams& pw, const std::vector<TensorView>& pwInputs,
                                               const gemm::Clamp* clamp1, const OpParams& dw,
                                               const std::vector<TensorView>& dwInputs, const TensorView& out,
                                               const gemm::Clamp* clamp2) {
  try {
    auto kernel = std::make_unique<PointwiseDepthwiseKernel>();
    if (!kernel->setUp(pw, pwInputs, clamp1, dw, dwInputs, out, clamp2)) return nullptr;
    return kernel;
  } catch (const std::bad_alloc&) {
    return nullptr;  // no memory for the packed weights or band rows: the two ops stay separate
  }
}

}  // namespace qnn::cpu
