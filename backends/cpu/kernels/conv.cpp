// Conv2d, DepthWiseConv2d and TransposeConv2d on NHWC float32.
//  * Conv2d: 1x1 stride-1 unpadded convolutions are a GEMM straight over the
//    NHWC input; the rest go through im2col in L2-sized tiles of output
//    pixels + GEMM, each thread running whole tiles (7x7 maps: one tile, the
//    GEMM splits output channels). Filters (HWIO) are already a K x Cout
//    matrix, packed once when static; scratch is allocated at prepare.
//  * DepthWiseConv2d: a direct loop, vectorized over channels.
//  * TransposeConv2d: a direct gather loop over output pixels, vectorized over
//    output channels (not a hot op in the target models).
#include <algorithm>
#include <limits>
#include <cstring>
#include <new>

#include "core/large_buffer.h"
#include "cpu/kernels/conv_small_cin.h"
#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/depthwise.h"
#include "cpu/kernels/gemm.h"
#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"
#include "cpu/kernels/pool_rows.h"
#include "cpu/kernels/winograd.h"

namespace qnn::cpu {
namespace {

using Window = sdk::ConvWindow;
Status readWindow(const OpParams& params, const char* op, bool hasDilation, Window* w) {
  return sdk::readConvWindow(params, op, hasDilation, w);
}

// Input, filter, optional bias, one output: the checks common to all three ops.
Status checkConvTensors(const char* op, const std::vector<TensorView>& inputs,
                        const std::vector<TensorView>& outputs) {
  QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (input)", inputs[0], 4));
  QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (filter)", inputs[1], 4));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (input)", inputs[0], {DType::kFloat32}));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (filter)", inputs[1], {DType::kFloat32}));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
  if (inputs.size() == 3) {
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (bias)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], {DType::kFloat32}));
  }
  return Status::ok();
}

Status checkBias(const char* op, const std::vector<TensorView>& inputs, uint32_t cout) {
  if (inputs.size() == 3 && inputs[2].dims[0] != cout)
    return sdk::invalidTensor(std::string(op) + ": in[2] (bias) has " + std::to_string(inputs[2].dims[0]) +
                              " elements, expected channel_out = " + std::to_string(cout));
  return Status::ok();
}

const float* biasOf(const std::vector<TensorView>& inputs) {
  return inputs.size() == 3 ? inputs[2].as<const float>() : nullptr;
}

// ---------------------------------------------------------------------------
class Conv2dKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    QNN_SDK_RETURN_IF_ERROR(readWindow(params, "Conv2d", true, &win_));
    group_ = params.u32("group", 1);
    if (group_ == 0) return sdk::invalidParam("Conv2d: group must be > 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors("Conv2d", inputs, outputs));
    sdk::ConvGeometry geo;
    QNN_SDK_RETURN_IF_ERROR(
        sdk::resolveConvGeometry("Conv2d", inputs[0], inputs[1], outputs[0], win_, group_, false, &geo));
    batch_ = geo.batch, inH_ = geo.inH, inW_ = geo.inW, cin_ = geo.cin, fh_ = geo.fh, fw_ = geo.fw;
    cout_ = geo.cout, cinG_ = geo.cinG, coutG_ = geo.coutG, outH_ = geo.outH, outW_ = geo.outW;
    QNN_SDK_RETURN_IF_ERROR(checkBias("Conv2d", inputs, cout_));

    kDim_ = size_t(fh_) * fw_ * cinG_;
    direct1x1_ = fh_ == 1 && fw_ == 1 && win_.strideH == 1 && win_.strideW == 1 && win_.padTop == 0 &&
                 win_.padBottom == 0 && win_.padLeft == 0 && win_.padRight == 0;
    smallCin_ = !direct1x1_ && outH_ > 0 && outW_ > 0 && smallcin::supported(cin_, cout_, group_);
    winograd_ = !direct1x1_ && !smallCin_ && outH_ > 0 && outW_ > 0 &&
                winograd::worthwhile(fh_, fw_, win_.strideH, win_.strideW, win_.dilH, win_.dilW, group_, cin_, cout_,
                                     batch_, outH_, outW_);
    rowGemm_ = !smallCin_ && !winograd_ && useRowGemm();
    planIm2colTiles();
    try {
      if (winograd_)
        wino_.prepare(batch_, inH_, inW_, cin_, cout_, win_.padTop, win_.padLeft, outH_, outW_, workerThreads(),
                      winograd::chooseTile(cin_, cout_, outH_, outW_));
      packedFilter_.assign(smallCin_ || winograd_ ? 0 : group_ * gemm::packedBSize(kDim_, coutG_), 0.f);
      cols_ = sdk::allocateLargeArray<float>(direct1x1_ || rowGemm_ || smallCin_ || winograd_ ? 0
                                                                                             : numSlots_ * tileRows_ * kDim_);
      if (rowGemm_ || smallCin_) {
        paddedH_ = size_t(outH_ - 1) * win_.strideH + size_t(fh_ - 1) * win_.dilH + 1;
        paddedW_ = size_t(outW_ - 1) * win_.strideW + size_t(fw_ - 1) * win_.dilW + 1;
        padded_.assign(size_t(batch_) * paddedH_ * paddedW_ * cin_, 0.f);
      }
      if (rowGemm_) packedRows_.assign(size_t(fh_) * gemm::packedBSize(size_t(fw_) * cin_, cout_), 0.f);
    } catch (const std::bad_alloc&) {
      return {sdk::StatusCode::kOutOfMemory, "Conv2d: out of memory for filter/im2col buffers"};
    }
    filterPacked_ = smallCin_;  // the small-channel kernel reads the HWIO filter as it is
    if (inputs[1].data && !smallCin_) {
      packFilter(inputs[1].as<const float>());
      filterPacked_ = true;
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!filterPacked_) packFilter(inputs[1].as<const float>());
    const float* input = inputs[0].as<const float>();
    // With a residual after its own inputs, the bias is there when those were three.
    const float* bias = residualInput_ ? (residualInput_ == 3 ? inputs[2].as<const float>() : nullptr) : biasOf(inputs);
    const float* residual = residualInput_ ? inputs[residualInput_].as<const float>() : nullptr;
    float* output = outputs[0].as<float>();
    const size_t pixels = size_t(outH_) * outW_;
    const size_t packedSize = gemm::packedBSize(kDim_, coutG_);

    if (direct1x1_) {  // NHWC input rows are the GEMM's A rows
      for (uint32_t g = 0; g < group_; ++g)
        gemm::multiply(size_t(batch_) * pixels, coutG_, cinG_, input + g * cinG_, cin_, false,
                       packedFilter_.data() + g * packedSize, bias ? bias + g * coutG_ : nullptr,
                       output + g * coutG_, cout_, true, clampOrNull(), false, residual);
      return Status::ok();
    }
    if (rowGemm_) {
      runRowGemm(input, bias, output);
      return Status::ok();
    }
    if (smallCin_ && pooled_) {
      runSmallCinPooled(input, inputs[1].as<const float>(), bias, output);
      return Status::ok();
    }
    if (smallCin_) {
      runSmallCin(input, inputs[1].as<const float>(), bias, output);
      return Status::ok();
    }
    if (winograd_) {
      wino_.run(input, bias, output, clampOrNull());
      return Status::ok();
    }
    if (numSlots_ == 1) {  // few output pixels: one im2col tile, the GEMM splits the output channels
      for (size_t task = 0; task < size_t(batch_) * tilesPerImage_; ++task) runTile(inputs, outputs, task, 0, true);
      return Status::ok();
    }
    // Each slot works through every numSlots_-th tile in its own L2-sized
    // im2col buffer, so im2col and GEMM of a tile run back to back on one core.
    const size_t tasks = size_t(batch_) * tilesPerImage_;
    parallelFor(numSlots_, 1, [&](size_t s0, size_t s1) {
      for (size_t slot = s0; slot < s1; ++slot)
        for (size_t task = slot; task < tasks; task += numSlots_) runTile(inputs, outputs, task, slot, false);
    });
    return Status::ok();
  }

  // A clamp on every path; a residual on the 1x1 path only (one GEMM over all pixels, whose
  // store adds it); a following max pool on the small-channel path only (fuseMaxPool).
  bool supportsEpilogue(const sdk::Epilogue& e) const override {
    PoolGeometry g;
    if (e.inputScale || e.gelu || !e.strided.empty() || (e.residualInput && e.maxPool)) return false;
    if (e.residualInput && (!direct1x1_ || group_ != 1 || (*e.residualInput != 2 && *e.residualInput != 3)))
      return false;
    return !e.maxPool || poolGeometryOf(*e.maxPool, e.maxPoolOut, &g);
  }
  Status setEpilogue(const sdk::Epilogue& e) override {
    if (e.maxPool) QNN_SDK_RETURN_IF_ERROR(fuseMaxPool(*e.maxPool, e.maxPoolOut));
    if (e.clamp) clamp_ = {e.clamp->lo, e.clamp->hi}, clamped_ = true;
    residualInput_ = e.residualInput.value_or(0);
    return Status::ok();
  }

 private:
  const gemm::Clamp* clampOrNull() const { return clamped_ ? &clamp_ : nullptr; }
  size_t residualInput_ = 0;  // Epilogue::residualInput (0: none)

  // The geometry of a PoolMax2d (params `pool`, output `poolOut`) over this convolution's output
  // on the small-channel path; false when it does not qualify.
  bool poolGeometryOf(const OpParams& pool, const TensorView& poolOut, PoolGeometry* geometry) const {
    if (!smallCin_ || poolOut.dtype != DType::kFloat32 || poolOut.dims.size() != 4 || poolOut.dims[0] != batch_ ||
        poolOut.dims[3] != cout_)
      return false;
    std::vector<int64_t> filter, stride, pad;
    if (!sdk::readSpatialParam(pool, "PoolMax2d", "filter_size", 2, 1, true, 1, 1, &filter).isOk() ||
        !sdk::readSpatialParam(pool, "PoolMax2d", "stride", 2, 1, true, 1, 1, &stride).isOk() ||
        !sdk::readSpatialParam(pool, "PoolMax2d", "pad_amount", 2, 2, true, 0, 0, &pad).isOk())
      return false;
    PoolGeometry& g = *geometry;
    g = PoolGeometry{};
    g.inH = outH_, g.inW = outW_, g.channels = cout_, g.outW = poolOut.dims[2];
    g.fh = filter[0], g.fw = filter[1], g.sh = stride[0], g.sw = stride[1];
    g.padTop = pad[0], g.padBottom = pad[1], g.padLeft = pad[2], g.padRight = pad[3];
    g.isMax = true, g.countPad = false;
    return true;
  }

  // The small-channel path (an RGB stem) with the max pool after it: the convolution rows a band of
  // pool rows needs go to a per-thread buffer and are pooled from there while in L2, so the
  // convolution's output (3.2 MB for ResNet-18's stem) never goes to memory and back. A band's
  // first row may be computed by the band before it too (the pool windows overlap).
  Status fuseMaxPool(const OpParams& pool, const TensorView& poolOut) {
    PoolGeometry g;
    if (!poolGeometryOf(pool, poolOut, &g)) return sdk::notSupported("Conv2d: this max pool cannot be fused");
    pool_ = g;
    poolH_ = poolOut.dims[1];
    // Two bands per thread and image: few rows computed twice, a band's rows within L2.
    const size_t bands = std::max<size_t>(1, std::min<size_t>(poolH_, 2 * workerThreads()));
    poolRowsPerBand_ = (poolH_ + bands - 1) / bands;
    // A band's convolution rows, in the thread's scratch; reserved here per band for when that cannot grow.
    bandRowFloats_ = size_t((int64_t(poolRowsPerBand_) - 1) * pool_.sh + pool_.fh) * outW_ * cout_;
    try {
      bandRows_ = sdk::allocateLargeArray<float>(size_t(batch_) * ((poolH_ + poolRowsPerBand_ - 1) / poolRowsPerBand_) *
                                                 bandRowFloats_);
    } catch (const std::bad_alloc&) {
      return {sdk::StatusCode::kOutOfMemory, "Conv2d: no memory for the fused max pool's row bands"};
    }
    pooled_ = true;
    return Status::ok();
  }

  // Convolution rows [r0, r1) that pool rows [p0, p1) read (clipped to the image).
  std::pair<int64_t, int64_t> convRowsOf(int64_t p0, int64_t p1) const {
    const int64_t r0 = std::max<int64_t>(0, p0 * pool_.sh - pool_.padTop);
    const int64_t r1 = std::min<int64_t>(outH_, (p1 - 1) * pool_.sh - pool_.padTop + pool_.fh);
    return {r0, std::max(r0, r1)};
  }

  void runSmallCinPooled(const float* input, const float* filter, const float* bias, float* output) {
    padInput(input);
    const smallcin::Geometry geo{int64_t(cin_),    int64_t(cout_),   int64_t(fh_),        int64_t(fw_),
                                 win_.strideH,     win_.strideW,     win_.dilH,           win_.dilW,
                                 int64_t(paddedW_), int64_t(outW_)};
    const size_t imageFloats = paddedH_ * paddedW_ * cin_, convRow = size_t(outW_) * cout_;
    const size_t poolRowFloats = size_t(pool_.outW) * cout_;
    const size_t bandsPerImage = (poolH_ + poolRowsPerBand_ - 1) / poolRowsPerBand_;
    parallelFor(size_t(batch_) * bandsPerImage, 1, [&](size_t b0, size_t b1) {
      float* scratch = threadScratch(bandRowFloats_);
      for (size_t band = b0; band < b1; ++band) {
        float* rows = scratch ? scratch : bandRows_.get() + band * bandRowFloats_;
        const size_t b = band / bandsPerImage;
        const int64_t p0 = int64_t(band % bandsPerImage * poolRowsPerBand_);
        const int64_t p1 = std::min<int64_t>(int64_t(poolH_), p0 + int64_t(poolRowsPerBand_));
        const auto [r0, r1] = convRowsOf(p0, p1);
        for (int64_t r = r0; r < r1; ++r)
          smallcin::convolveRow(geo, padded_.data() + b * imageFloats, filter, bias,
                                rows + size_t(r - r0) * convRow, r, clamped_, clamp_.lo, clamp_.hi);
        // The band's rows as an image whose row 0 is convolution row r0.
        PoolGeometry g = pool_;
        g.inH = r1 - r0, g.padTop = pool_.padTop + r0;
        for (int64_t p = p0; p < p1; ++p) poolRow(g, rows, output + (b * poolH_ + size_t(p)) * poolRowFloats, p);
      }
    });
  }

  // Tiles of output pixels for the im2col path. A tile's im2col rows should
  // fit in L2 next to the filter, yet span at least one GEMM row block (84
  // rows) so the filter is streamed once per block, not once per few rows.
  // Tile counts round up to a multiple of the thread count so the threads
  // get equal shares; with fewer pixels than threads x 84 there is one tile
  // and the GEMM parallelizes over output channels instead.
  void planIm2colTiles() {
    tileRows_ = tilesPerImage_ = 0, numSlots_ = 1;
    if (direct1x1_ || rowGemm_ || smallCin_ || winograd_) return;
    constexpr size_t kTileFloats = size_t(128) << 10;  // 512 KiB of im2col rows
    constexpr size_t kMinTileRows = 84;
    const size_t pixels = size_t(outH_) * outW_;
    const size_t threads = std::max<size_t>(1, workerThreads());
    size_t tiles = std::max<size_t>(1, (pixels * std::max<size_t>(kDim_, 1) + kTileFloats - 1) / kTileFloats);
    tiles = std::min(tiles, std::max<size_t>(1, pixels / kMinTileRows));
    if (threads > 1 && size_t(batch_) * pixels >= threads * kMinTileRows) {
      tiles = std::max(tiles, (threads + batch_ - 1) / batch_);
      while ((size_t(batch_) * tiles) % threads != 0 && tiles < pixels) ++tiles;
      numSlots_ = threads;
    } else if (threads > 1) {
      tiles = 1;
    }
    tilesPerImage_ = tiles;
    tileRows_ = (pixels + tiles - 1) / tiles;
  }

  // Task = (image, pixel tile): im2col of the tile per group into the slot's
  // buffer, then its GEMM.
  void runTile(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs, size_t task,
               size_t slot, bool parallel) {
    const size_t pixels = size_t(outH_) * outW_;
    const size_t b = task / tilesPerImage_, p0 = (task % tilesPerImage_) * tileRows_;
    if (p0 >= pixels) return;
    const size_t rows = std::min(tileRows_, pixels - p0);
    const float* image = inputs[0].as<const float>() + b * inH_ * inW_ * cin_;
    float* outTile = outputs[0].as<float>() + (b * pixels + p0) * cout_;
    const float* bias = biasOf(inputs);
    float* cols = threadScratch(tileRows_ * kDim_);  // hot in this core's cache (kernel_util.h)
    if (!cols) cols = cols_.get() + slot * tileRows_ * kDim_;
    const size_t packedSize = gemm::packedBSize(kDim_, coutG_);
    for (uint32_t g = 0; g < group_; ++g) {
      im2col(image, g, p0, rows, cols, parallel);
      gemm::multiply(rows, coutG_, kDim_, cols, kDim_, false, packedFilter_.data() + g * packedSize,
                     bias ? bias + g * coutG_ : nullptr, outTile + g * coutG_, cout_, parallel, clampOrNull());
    }
  }

  void packFilter(const float* filter) {
    if (winograd_) {
      wino_.setFilter(filter);
      return;
    }
    const size_t packedSize = gemm::packedBSize(kDim_, coutG_);
    if (rowGemm_) {  // one K x N matrix per filter row kh: its fw * cin rows of the HWIO filter
      const size_t rowK = size_t(fw_) * cin_, rowSize = gemm::packedBSize(rowK, cout_);
      for (uint32_t kh = 0; kh < fh_; ++kh)
        gemm::packB(filter + kh * rowK * cout_, cout_, false, rowK, cout_, packedRows_.data() + kh * rowSize);
      return;
    }
    for (uint32_t g = 0; g < group_; ++g)
      gemm::packB(filter + g * coutG_, cout_, false, kDim_, coutG_, packedFilter_.data() + g * packedSize);
  }

  // The row-GEMM path (no im2col): the input is copied once into a zero-padded
  // image; then, with one group and no horizontal dilation, the receptive
  // fields of an output row's pixels under filter row kh are windows of fw *
  // cin floats, strideW * cin apart, of one padded input row. So each output
  // row is fh accumulating GEMMs reading the padded image in place (M = outW,
  // K = fw * cin), its C row block staying in L1 across them. Measured against
  // im2col on ResNet-18's layers (bench_gemm_conv), it wins for stride 1 with
  // rows of 28 pixels or more and windows long enough for the GEMM (fw * cin
  // >= 64): 56x56x64 3x3 1.51 -> 1.30 ms on one thread. Strided and 14-wide
  // layers ran 5-15 % slower, so they, the 3-channel stems and the 7x7 maps
  // keep im2col.
  bool useRowGemm() const {
    const size_t rowK = size_t(fw_) * cin_;
    return !direct1x1_ && group_ == 1 && win_.dilW == 1 && win_.strideW == 1 && rowK >= 64 && outW_ >= 28 &&
           cin_ % 1024 != 0;
  }

  // The input copied into padded_ (every image), zeros where the window
  // reaches past it: padded (y, x) = input (y - padTop, x - padLeft).
  void padInput(const float* input) {
    const size_t rowFloats = paddedW_ * cin_;
    const int64_t padTop = win_.padTop, padLeft = win_.padLeft;
    parallelFor(size_t(batch_) * paddedH_, rowGrain(rowFloats), [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        float* dst = padded_.data() + r * rowFloats;
        const int64_t iy = int64_t(r % paddedH_) - padTop;
        if (iy < 0 || iy >= int64_t(inH_)) {
          std::fill(dst, dst + rowFloats, 0.f);
          continue;
        }
        const float* src = input + ((r / paddedH_) * inH_ + size_t(iy)) * inW_ * cin_;
        // padded column x holds input column x - padLeft
        const int64_t x0 = std::min<int64_t>(padLeft, int64_t(paddedW_));
        const int64_t x1 = std::clamp<int64_t>(padLeft + int64_t(inW_), x0, int64_t(paddedW_));
        std::fill(dst, dst + x0 * cin_, 0.f);
        std::memcpy(dst + x0 * cin_, src + (x0 - padLeft) * cin_, size_t(x1 - x0) * cin_ * sizeof(float));
        std::fill(dst + x1 * cin_, dst + rowFloats, 0.f);
      }
    });
  }

  void runRowGemm(const float* input, const float* bias, float* output) {
    padInput(input);
    const size_t rowFloats = paddedW_ * cin_;
    const size_t rowK = size_t(fw_) * cin_, rowSize = gemm::packedBSize(rowK, cout_);
    const size_t lda = size_t(win_.strideW) * cin_;
    parallelFor(size_t(batch_) * outH_, 1, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / outH_, oh = r % outH_;
        float* out = output + r * outW_ * cout_;
        for (uint32_t kh = 0; kh < fh_; ++kh) {
          const float* a = padded_.data() + (b * paddedH_ + oh * win_.strideH + kh * win_.dilH) * rowFloats;
          gemm::multiply(outW_, cout_, rowK, a, lda, false, packedRows_.data() + kh * rowSize,
                         kh == 0 ? bias : nullptr, out, cout_, false, kh + 1 == fh_ ? clampOrNull() : nullptr,
                         kh > 0);
        }
      }
    });
  }

  // 1-4 input channels (RGB stems): conv_small_cin.cpp's direct kernel per
  // output row over the padded input.
  void runSmallCin(const float* input, const float* filter, const float* bias, float* output) {
    padInput(input);
    const smallcin::Geometry geo{int64_t(cin_),    int64_t(cout_),   int64_t(fh_),        int64_t(fw_),
                                 win_.strideH,     win_.strideW,     win_.dilH,           win_.dilW,
                                 int64_t(paddedW_), int64_t(outW_)};
    const size_t imageFloats = paddedH_ * paddedW_ * cin_;
    parallelFor(size_t(batch_) * outH_, 1, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r)
        smallcin::convolveRow(geo, padded_.data() + (r / outH_) * imageFloats, filter, bias,
                              output + r * outW_ * cout_, int64_t(r % outH_), clamped_, clamp_.lo, clamp_.hi);
    });
  }

  // Row r of cols = the receptive field of output pixel p0 + r, ordered
  // (kh, kw, ci) like the HWIO filter's rows; padding reads as zero. With one
  // group and no horizontal dilation a filter row's in-bounds taps are one
  // contiguous run of the input row (one copy instead of fw small ones: the
  // 3-channel stem would otherwise copy 12 bytes at a time).
  void im2col(const float* image, uint32_t g, size_t p0, size_t rows, float* cols, bool parallel) {
    const bool contiguousTaps = group_ == 1 && win_.dilW == 1;
    const size_t rowLen = size_t(fw_) * cinG_;
    auto fill = [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const int64_t oh = int64_t((p0 + r) / outW_), ow = int64_t((p0 + r) % outW_);
        const int64_t iw0 = ow * win_.strideW - win_.padLeft;
        float* dst = cols + r * kDim_;
        for (uint32_t kh = 0; kh < fh_; ++kh, dst += rowLen) {
          const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
          if (ih < 0 || ih >= inH_) {
            std::fill(dst, dst + rowLen, 0.f);
            continue;
          }
          const float* inRow = image + size_t(ih) * inW_ * cin_ + g * cinG_;
          if (contiguousTaps) {
            const int64_t kwLo = std::clamp<int64_t>(-iw0, 0, fw_);
            const int64_t kwHi = std::clamp<int64_t>(int64_t(inW_) - iw0, kwLo, fw_);
            std::fill(dst, dst + kwLo * cinG_, 0.f);
            if (kwHi > kwLo)
              std::memcpy(dst + kwLo * cinG_, inRow + (iw0 + kwLo) * cin_, size_t(kwHi - kwLo) * cinG_ * sizeof(float));
            std::fill(dst + kwHi * cinG_, dst + rowLen, 0.f);
            continue;
          }
          for (uint32_t kw = 0; kw < fw_; ++kw) {
            const int64_t iw = iw0 + kw * win_.dilW;
            float* tap = dst + size_t(kw) * cinG_;
            if (iw < 0 || iw >= inW_) std::fill(tap, tap + cinG_, 0.f);
            else std::memcpy(tap, inRow + size_t(iw) * cin_, cinG_ * sizeof(float));
          }
        }
      }
    };
    if (parallel) parallelFor(rows, 64, fill);
    else fill(0, rows);
  }

  Window win_;
  uint32_t group_ = 1;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, cinG_ = 0, coutG_ = 0;
  int64_t outH_ = 0, outW_ = 0;
  size_t kDim_ = 0, tileRows_ = 0, tilesPerImage_ = 0, numSlots_ = 1;
  bool direct1x1_ = false, filterPacked_ = false, clamped_ = false, rowGemm_ = false, smallCin_ = false;
  bool winograd_ = false;  // 3x3 stride 1: winograd.cpp's F(2x2, 3x3) or F(4x4, 3x3)
  winograd::Conv3x3 wino_;
  gemm::Clamp clamp_{0.f, 0.f};
  bool pooled_ = false;  // a PoolMax2d folded in (Epilogue::maxPool): out[0] is the pool's
  PoolGeometry pool_{};
  size_t poolH_ = 0, poolRowsPerBand_ = 1, bandRowFloats_ = 0;
  sdk::LargeArray<float> bandRows_;  // per band, where its rows go when the thread's scratch cannot grow
  size_t paddedH_ = 0, paddedW_ = 0;
  sdk::LargeVector<float> packedFilter_;
  sdk::LargeArray<float> cols_;  // per slot, where a tile's im2col rows go when the thread's scratch cannot grow
  std::vector<float> padded_, packedRows_;  // the row-GEMM path's padded input and per-kh packed filter
};

// ---------------------------------------------------------------------------
// Filters up to 8x8 take the register-blocked path of depthwisePixel.
constexpr size_t kMaxTaps = 64;

// out[c] = bias[c] + sum over taps of pixel[t][c] * weight[t][c], 16 channels
// at a time so the accumulators stay in registers across all taps (compiled
// for AVX2 and the portable baseline; the multiplier > 1 path only).
QNN_CPU_ALWAYS_INLINE void depthwisePixelBody(const float* const* taps, const float* const* weights, size_t numTaps,
                                              const float* bias, float* out, size_t channels, float lo, float hi) {
  constexpr size_t kBlock = 16;
  size_t c = 0;
  for (; c + kBlock <= channels; c += kBlock) {
    float acc[kBlock];
    for (size_t j = 0; j < kBlock; ++j) acc[j] = bias ? bias[c + j] : 0.f;
    for (size_t t = 0; t < numTaps; ++t) {
      const float* px = taps[t] + c;
      const float* w = weights[t] + c;
      for (size_t j = 0; j < kBlock; ++j) acc[j] += px[j] * w[j];
    }
    for (size_t j = 0; j < kBlock; ++j) out[c + j] = std::min(std::max(acc[j], lo), hi);
  }
  for (; c < channels; ++c) {
    float acc = bias ? bias[c] : 0.f;
    for (size_t t = 0; t < numTaps; ++t) acc += taps[t][c] * weights[t][c];
    out[c] = std::min(std::max(acc, lo), hi);
  }
}
using DepthwisePixelFn = void (*)(const float* const*, const float* const*, size_t, const float*, float*, size_t,
                                  float, float);
QNN_CPU_TARGET_AVX2 void depthwisePixelAvx2(const float* const* taps, const float* const* weights, size_t numTaps,
                                            const float* bias, float* out, size_t channels, float lo, float hi) {
  depthwisePixelBody(taps, weights, numTaps, bias, out, channels, lo, hi);
}
void depthwisePixelPortable(const float* const* taps, const float* const* weights, size_t numTaps, const float* bias,
                            float* out, size_t channels, float lo, float hi) {
  depthwisePixelBody(taps, weights, numTaps, bias, out, channels, lo, hi);
}
void depthwisePixel(const float* const* taps, const float* const* weights, size_t numTaps, const float* bias,
                    float* out, size_t channels, float lo, float hi) {
  static const DepthwisePixelFn fn =
      pickForIsa<DepthwisePixelFn>(depthwisePixelAvx2, depthwisePixelAvx2, depthwisePixelPortable);
  fn(taps, weights, numTaps, bias, out, channels, lo, hi);
}

class DepthWiseConv2dKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override { return readWindow(params, "DepthWiseConv2d", true, &win_); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "DepthWiseConv2d";
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors(op, inputs, outputs));
    sdk::ConvGeometry geo;
    QNN_SDK_RETURN_IF_ERROR(sdk::resolveConvGeometry(op, inputs[0], inputs[1], outputs[0], win_, 0, true, &geo));
    batch_ = geo.batch, inH_ = geo.inH, inW_ = geo.inW, cin_ = geo.cin, fh_ = geo.fh, fw_ = geo.fw;
    cout_ = geo.cout, multiplier_ = geo.coutG, outH_ = geo.outH, outW_ = geo.outW;
    rowGeo_ = {int64_t(inH_), int64_t(inW_), int64_t(cin_), int64_t(fh_), int64_t(fw_), win_.strideH, win_.strideW,
               win_.dilH, win_.dilW, win_.padTop, win_.padLeft, outW_};
    return checkBias(op, inputs, cout_);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* input = inputs[0].as<const float>();
    const float* filter = inputs[1].as<const float>();
    const float* bias = biasOf(inputs);
    float* output = outputs[0].as<float>();
    if (multiplier_ == 1) {  // the common case: depthwise.cpp's row kernels
      const size_t rows = size_t(batch_) * outH_;
      parallelFor(rows, rowGrain(size_t(outW_) * cout_ * fh_ * fw_), [&](size_t r0, size_t r1) {
        for (size_t r = r0; r < r1;) {
          const float* image = input + (r / outH_) * inH_ * inW_ * cin_;
          if (r + 1 < r1 && (r + 1) % outH_ != 0) {  // two rows of one image share their input rows
            depthwise::convolveRowPair(rowGeo_, image, filter, bias, output + r * outW_ * cout_, int64_t(r % outH_),
                                       clamped_, lo_, hi_);
            r += 2;
          } else {
            depthwise::convolveRow(rowGeo_, image, filter, bias, output + r * outW_ * cout_, int64_t(r % outH_),
                                   clamped_, lo_, hi_);
            ++r;
          }
        }
      });
      return Status::ok();
    }
    const bool gatherTaps = multiplier_ == 1 && size_t(fh_) * fw_ <= kMaxTaps;
    parallelFor(size_t(batch_) * outH_, rowGrain(size_t(outW_) * cout_ * fh_ * fw_), [&](size_t r0, size_t r1) {
      const float* taps[kMaxTaps];
      const float* weights[kMaxTaps];
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / outH_;
        const int64_t oh = int64_t(r % outH_);
        const float* image = input + b * inH_ * inW_ * cin_;
        for (int64_t ow = 0; ow < outW_; ++ow) {
          float* out = output + (r * outW_ + ow) * cout_;
          if (!gatherTaps) {
            if (bias) std::memcpy(out, bias, cout_ * sizeof(float));
            else std::fill(out, out + cout_, 0.f);
          }
          size_t numTaps = 0;
          for (uint32_t kh = 0; kh < fh_; ++kh) {
            const int64_t ih = oh * win_.strideH - win_.padTop + kh * win_.dilH;
            if (ih < 0 || ih >= inH_) continue;
            for (uint32_t kw = 0; kw < fw_; ++kw) {
              const int64_t iw = ow * win_.strideW - win_.padLeft + kw * win_.dilW;
              if (iw < 0 || iw >= inW_) continue;
              const float* px = image + (size_t(ih) * inW_ + size_t(iw)) * cin_;
              const float* w = filter + (size_t(kh) * fw_ + kw) * cout_;
              if (gatherTaps) {
                taps[numTaps] = px, weights[numTaps] = w, ++numTaps;
              } else {  // output channel c reads input channel c / multiplier (TF order)
                for (uint32_t c = 0; c < cout_; ++c) out[c] += px[c / multiplier_] * w[c];
              }
            }
          }
          if (gatherTaps) {
            depthwisePixel(taps, weights, numTaps, bias, out, cout_, lo_, hi_);
          } else if (clamped_) {
            for (uint32_t c = 0; c < cout_; ++c) out[c] = std::min(std::max(out[c], lo_), hi_);
          }
        }
      }
    });
    return Status::ok();
  }

  bool supportsEpilogue(const sdk::Epilogue& e) const override {
    return !e.residualInput && !e.maxPool && !e.inputScale && !e.gelu && e.strided.empty();
  }
  Status setEpilogue(const sdk::Epilogue& e) override {
    if (e.clamp) lo_ = e.clamp->lo, hi_ = e.clamp->hi, clamped_ = true;
    return Status::ok();
  }

 private:
  Window win_;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, multiplier_ = 1;
  int64_t outH_ = 0, outW_ = 0;
  depthwise::Geometry rowGeo_;
  bool clamped_ = false;  // a fused activation: outputs clamped into [lo_, hi_]
  float lo_ = -std::numeric_limits<float>::infinity(), hi_ = std::numeric_limits<float>::infinity();
};

// ---------------------------------------------------------------------------
class TransposeConv2dKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    const char* op = "TransposeConv2d";
    QNN_SDK_RETURN_IF_ERROR(readWindow(params, op, false, &win_));
    group_ = params.u32("group", 1);
    if (group_ == 0) return sdk::invalidParam("TransposeConv2d: group must be > 0");
    std::vector<int64_t> outPad;
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "output_padding", {2}, false, {0, 0}, &outPad));
    if (outPad[0] >= win_.strideH || outPad[1] >= win_.strideW)
      return sdk::invalidParam("TransposeConv2d: output_padding must be < stride");
    outPadH_ = outPad[0], outPadW_ = outPad[1];
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "TransposeConv2d";
    QNN_SDK_RETURN_IF_ERROR(checkConvTensors(op, inputs, outputs));
    const auto& in = inputs[0].dims;
    const auto& f = inputs[1].dims;
    batch_ = in[0], inH_ = in[1], inW_ = in[2], cin_ = in[3];
    fh_ = f[0], fw_ = f[1], coutG_ = f[3];
    if (f[2] != cin_ || cin_ % group_ != 0)
      return sdk::invalidTensor(std::string(op) + ": in[1] (filter) dims " + dimsToString(f) +
                                " need dim 2 = channel_in = " + std::to_string(cin_) +
                                ", a multiple of group " + std::to_string(group_));
    cinG_ = cin_ / group_, cout_ = coutG_ * group_;
    QNN_SDK_RETURN_IF_ERROR(checkBias(op, inputs, cout_));
    outH_ = win_.strideH * (int64_t(inH_) - 1) + fh_ - win_.padTop - win_.padBottom + outPadH_;
    outW_ = win_.strideW * (int64_t(inW_) - 1) + fw_ - win_.padLeft - win_.padRight + outPadW_;
    if (inH_ == 0 || inW_ == 0 || outH_ <= 0 || outW_ <= 0)
      return sdk::invalidTensor(std::string(op) + ": padding leaves no output for input " + dimsToString(in));
    return checkOutputDims(op, outputs[0], {in[0], uint32_t(outH_), uint32_t(outW_), cout_});
  }

  // out[oh, ow, g*CoutG + o] = bias + sum over taps with oh = ih*s - padTop + kh
  // (same for w) of in[ih, iw, g*CinG + ci] * W[kh, kw, g*CinG + ci, o].
  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* input = inputs[0].as<const float>();
    const float* filter = inputs[1].as<const float>();
    const float* bias = biasOf(inputs);
    float* output = outputs[0].as<float>();
    parallelFor(size_t(batch_) * outH_, 1, [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const size_t b = r / outH_;
        const int64_t oh = int64_t(r % outH_);
        const float* image = input + b * inH_ * inW_ * cin_;
        for (int64_t ow = 0; ow < outW_; ++ow) {
          float* __restrict out = output + (r * outW_ + ow) * cout_;
          if (bias) std::memcpy(out, bias, cout_ * sizeof(float));
          else std::fill(out, out + cout_, 0.f);
          for (uint32_t kh = 0; kh < fh_; ++kh) {
            const int64_t ihScaled = oh + win_.padTop - kh;
            if (ihScaled < 0 || ihScaled % win_.strideH != 0 || ihScaled / win_.strideH >= inH_) continue;
            const int64_t ih = ihScaled / win_.strideH;
            for (uint32_t kw = 0; kw < fw_; ++kw) {
              const int64_t iwScaled = ow + win_.padLeft - kw;
              if (iwScaled < 0 || iwScaled % win_.strideW != 0 || iwScaled / win_.strideW >= inW_) continue;
              const int64_t iw = iwScaled / win_.strideW;
              const float* px = image + (size_t(ih) * inW_ + size_t(iw)) * cin_;
              const float* taps = filter + (size_t(kh) * fw_ + kw) * cin_ * coutG_;
              for (uint32_t g = 0; g < group_; ++g) {
                float* __restrict outG = out + g * coutG_;
                for (uint32_t ci = g * cinG_; ci < (g + 1) * cinG_; ++ci) {
                  const float x = px[ci];
                  const float* __restrict w = taps + size_t(ci) * coutG_;
                  for (uint32_t o = 0; o < coutG_; ++o) outG[o] += x * w[o];
                }
              }
            }
          }
        }
      }
    });
    return Status::ok();
  }

 private:
  Window win_;
  uint32_t group_ = 1;
  int64_t outPadH_ = 0, outPadW_ = 0;
  uint32_t batch_ = 0, inH_ = 0, inW_ = 0, cin_ = 0, fh_ = 0, fw_ = 0, cout_ = 0, cinG_ = 0, coutG_ = 0;
  int64_t outH_ = 0, outW_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeConv2d(const std::string& opType) {
  return opType == "Conv2d" ? std::make_unique<Conv2dKernel>() : nullptr;
}
std::unique_ptr<Kernel> makeDepthWiseConv2d(const std::string& opType) {
  return opType == "DepthWiseConv2d" ? std::make_unique<DepthWiseConv2dKernel>() : nullptr;
}
std::unique_ptr<Kernel> makeTransposeConv2d(const std::string& opType) {
  return opType == "TransposeConv2d" ? std::make_unique<TransposeConv2dKernel>() : nullptr;
}

}  // namespace qnn::cpu
