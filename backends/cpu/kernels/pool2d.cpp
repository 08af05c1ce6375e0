// PoolMax2d / PoolAvg2d on float32 NHWC: the CPU backend's fast path in front
// of the shared kernel (sdk/ops/pool.cpp), which validates every case and runs
// the others (integer max pooling, the 3-D and L2 pools). The shared kernel is
// built for the baseline ISA with trapping math, so its per-channel max loop
// stays scalar: ResNet-18's 3x3 stride-2 max pool took 0.6 ms there. Here a
// row of output pixels goes per call in explicit AVX-512 or AVX2 vectors
// (cpu_isa.h), or a portable loop. Results equal the shared kernel's: the window clipped to the
// input, max from -FLT_MAX with NaN inputs skipped (std::max(acc, x) keeps acc
// when x is NaN), averages summed in the same order and scaled by 1 / count;
// a window wholly in padding gives 0.
#include <algorithm>
#include <cfloat>

#if defined(__x86_64__)
#include "cpu/kernels/x86_simd.h"
#endif

#include "core/kernel_checks.h"
#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"
#include "cpu/kernels/pool_rows.h"

namespace qnn::cpu {
namespace {

// The window of output pixel (oh, ow) clipped to the input, [hLo, hHi) x
// [wLo, wHi), and the count an average divides by. A window wholly in padding
// writes the pixel's C outputs (0) to dst and returns false.
struct Window {
  int64_t hLo, hHi, wLo, wHi, count;
};

QNN_CPU_ALWAYS_INLINE bool windowAt(const PoolGeometry& g, int64_t oh, int64_t ow, float* dst, Window* w) {
  const int64_t h0 = oh * g.sh - g.padTop, w0 = ow * g.sw - g.padLeft;
  w->hLo = std::max<int64_t>(h0, 0), w->hHi = std::min(h0 + g.fh, g.inH);
  w->wLo = std::max<int64_t>(w0, 0), w->wHi = std::min(w0 + g.fw, g.inW);
  const int64_t valid = std::max<int64_t>(w->hHi - w->hLo, 0) * std::max<int64_t>(w->wHi - w->wLo, 0);
  if (valid == 0) {
    std::fill(dst, dst + g.channels, 0.f);
    return false;
  }
  w->count = g.countPad
                 ? (std::min(h0 + g.fh, g.inH + g.padBottom) - h0) * (std::min(w0 + g.fw, g.inW + g.padRight) - w0)
                 : valid;
  return true;
}

QNN_CPU_ALWAYS_INLINE void poolRowBody(const PoolGeometry& g, const float* image, float* out, int64_t oh) {
  constexpr int64_t kBlock = 16;
  const int64_t C = g.channels;
  for (int64_t ow = 0; ow < g.outW; ++ow) {
    float* dst = out + ow * C;
    Window win;
    if (!windowAt(g, oh, ow, dst, &win)) continue;
    const int64_t hLo = win.hLo, hHi = win.hHi, wLo = win.wLo, wHi = win.wHi, count = win.count;
    const float inv = 1.f / float(count);
    for (int64_t c0 = 0; c0 < C; c0 += kBlock) {
      const int64_t n = std::min(kBlock, C - c0);
      float acc[kBlock];
      for (int64_t j = 0; j < kBlock; ++j) acc[j] = g.isMax ? -FLT_MAX : 0.f;
      for (int64_t h = hLo; h < hHi; ++h)
        for (int64_t w = wLo; w < wHi; ++w) {
          const float* px = image + (h * g.inW + w) * C + c0;
          if (n == kBlock) {
            if (g.isMax)
              for (int64_t j = 0; j < kBlock; ++j) acc[j] = acc[j] < px[j] ? px[j] : acc[j];
            else
              for (int64_t j = 0; j < kBlock; ++j) acc[j] += px[j];
          } else {
            for (int64_t j = 0; j < n; ++j) acc[j] = g.isMax ? (acc[j] < px[j] ? px[j] : acc[j]) : acc[j] + px[j];
          }
        }
      if (g.isMax)
        for (int64_t j = 0; j < n; ++j) dst[c0 + j] = acc[j];
      else
        for (int64_t j = 0; j < n; ++j) dst[c0 + j] = acc[j] * inv;
    }
  }
}

#if defined(__x86_64__)
// The same row with explicit vectors (GCC leaves the 16-float block of the
// body above as scalar code): four 16-channel blocks per pass over a window
// while four are left, then one at a time, the last one masked.
// max(x, acc) returns acc when x is NaN or both are zeros: std::max(acc, x)
// exactly.
template <bool kMax>
QNN_CPU_TARGET_AVX512 QNN_CPU_ALWAYS_INLINE __m512 combine512(__m512 acc, __m512 x) {
  return kMax ? _mm512_max_ps(x, acc) : _mm512_add_ps(acc, x);
}

template <bool kMax>
QNN_CPU_TARGET_AVX512 QNN_CPU_ALWAYS_INLINE __m512 finish512(__m512 acc, __m512 inv) {
  return kMax ? acc : _mm512_mul_ps(acc, inv);
}

template <bool kMax>
QNN_CPU_TARGET_AVX512 void poolRowAvx512T(const PoolGeometry& g, const float* image, float* out, int64_t oh) {
  const int64_t C = g.channels;
  const __m512 init = _mm512_set1_ps(kMax ? -FLT_MAX : 0.f);
  for (int64_t ow = 0; ow < g.outW; ++ow) {
    float* dst = out + ow * C;
    Window win;
    if (!windowAt(g, oh, ow, dst, &win)) continue;
    const int64_t hLo = win.hLo, hHi = win.hHi, wLo = win.wLo, wHi = win.wHi, count = win.count;
    const __m512 inv = _mm512_set1_ps(1.f / float(count));
    int64_t c0 = 0;
    for (; c0 + 64 <= C; c0 += 64) {
      __m512 a0 = init, a1 = init, a2 = init, a3 = init;
      for (int64_t h = hLo; h < hHi; ++h) {
        const float* px = image + (h * g.inW + wLo) * C + c0;
        for (int64_t w = wLo; w < wHi; ++w, px += C) {
          a0 = combine512<kMax>(a0, _mm512_loadu_ps(px));
          a1 = combine512<kMax>(a1, _mm512_loadu_ps(px + 16));
          a2 = combine512<kMax>(a2, _mm512_loadu_ps(px + 32));
          a3 = combine512<kMax>(a3, _mm512_loadu_ps(px + 48));
        }
      }
      _mm512_storeu_ps(dst + c0, finish512<kMax>(a0, inv));
      _mm512_storeu_ps(dst + c0 + 16, finish512<kMax>(a1, inv));
      _mm512_storeu_ps(dst + c0 + 32, finish512<kMax>(a2, inv));
      _mm512_storeu_ps(dst + c0 + 48, finish512<kMax>(a3, inv));
    }
    for (; c0 < C; c0 += 16) {
      const __mmask16 m = C - c0 >= 16 ? __mmask16(0xFFFF) : __mmask16((1u << (C - c0)) - 1);
      __m512 acc = init;
      for (int64_t h = hLo; h < hHi; ++h) {
        const float* px = image + (h * g.inW + wLo) * C + c0;
        for (int64_t w = wLo; w < wHi; ++w, px += C) acc = combine512<kMax>(acc, _mm512_maskz_loadu_ps(m, px));
      }
      _mm512_mask_storeu_ps(dst + c0, m, finish512<kMax>(acc, inv));
    }
  }
}

QNN_CPU_TARGET_AVX512 void poolRowAvx512(const PoolGeometry& g, const float* image, float* out, int64_t oh) {
  if (g.isMax)
    poolRowAvx512T<true>(g, image, out, oh);
  else
    poolRowAvx512T<false>(g, image, out, oh);
}

// AVX2: eight channels per register, two registers per pass while 16 are left,
// then one, the last channels (under 8) scalar; the same combine as above.
template <bool kMax>
QNN_CPU_TARGET_AVX2 QNN_CPU_ALWAYS_INLINE __m256 combine256(__m256 acc, __m256 x) {
  return kMax ? _mm256_max_ps(x, acc) : _mm256_add_ps(acc, x);
}

template <bool kMax>
QNN_CPU_TARGET_AVX2 void poolRowAvx2T(const PoolGeometry& g, const float* image, float* out, int64_t oh) {
  const int64_t C = g.channels;
  const float initValue = kMax ? -FLT_MAX : 0.f;
  const __m256 init = _mm256_set1_ps(initValue);
  for (int64_t ow = 0; ow < g.outW; ++ow) {
    float* dst = out + ow * C;
    Window win;
    if (!windowAt(g, oh, ow, dst, &win)) continue;
    const int64_t hLo = win.hLo, hHi = win.hHi, wLo = win.wLo, wHi = win.wHi, count = win.count;
    const float invValue = 1.f / float(count);
    const __m256 inv = _mm256_set1_ps(invValue);
    int64_t c0 = 0;
    for (; c0 + 16 <= C; c0 += 16) {
      __m256 a0 = init, a1 = init;
      for (int64_t h = hLo; h < hHi; ++h) {
        const float* px = image + (h * g.inW + wLo) * C + c0;
        for (int64_t w = wLo; w < wHi; ++w, px += C) {
          a0 = combine256<kMax>(a0, _mm256_loadu_ps(px));
          a1 = combine256<kMax>(a1, _mm256_loadu_ps(px + 8));
        }
      }
      _mm256_storeu_ps(dst + c0, kMax ? a0 : _mm256_mul_ps(a0, inv));
      _mm256_storeu_ps(dst + c0 + 8, kMax ? a1 : _mm256_mul_ps(a1, inv));
    }
    for (; c0 + 8 <= C; c0 += 8) {
      __m256 acc = init;
      for (int64_t h = hLo; h < hHi; ++h) {
        const float* px = image + (h * g.inW + wLo) * C + c0;
        for (int64_t w = wLo; w < wHi; ++w, px += C) acc = combine256<kMax>(acc, _mm256_loadu_ps(px));
      }
      _mm256_storeu_ps(dst + c0, kMax ? acc : _mm256_mul_ps(acc, inv));
    }
    for (; c0 < C; ++c0) {
      float acc = initValue;
      for (int64_t h = hLo; h < hHi; ++h)
        for (int64_t w = wLo; w < wHi; ++w) {
          const float x = image[(h * g.inW + w) * C + c0];
          acc = kMax ? std::max(acc, x) : acc + x;
        }
      dst[c0] = kMax ? acc : acc * invValue;
    }
  }
}

QNN_CPU_TARGET_AVX2 void poolRowAvx2(const PoolGeometry& g, const float* image, float* out, int64_t oh) {
  if (g.isMax)
    poolRowAvx2T<true>(g, image, out, oh);
  else
    poolRowAvx2T<false>(g, image, out, oh);
}
#else
void poolRowAvx512(const PoolGeometry& g, const float* image, float* out, int64_t oh) { poolRowBody(g, image, out, oh); }
void poolRowAvx2(const PoolGeometry& g, const float* image, float* out, int64_t oh) { poolRowBody(g, image, out, oh); }
#endif
void poolRowPortable(const PoolGeometry& g, const float* image, float* out, int64_t oh) {
  poolRowBody(g, image, out, oh);
}

}  // namespace

void poolRow(const PoolGeometry& g, const float* image, float* out, int64_t oh) {
  using RowFn = void (*)(const PoolGeometry&, const float*, float*, int64_t);
  static const RowFn row = pickForIsa<RowFn>(poolRowAvx512, poolRowAvx2, poolRowPortable);
  row(g, image, out, oh);
}

namespace {

class Pool2dKernel final : public Kernel {
 public:
  Pool2dKernel(const std::string& opType, std::unique_ptr<Kernel> shared)
      : op_(opType), isMax_(opType == "PoolMax2d"), shared_(std::move(shared)) {}

  Status init(const OpParams& params) override {
    QNN_SDK_RETURN_IF_ERROR(shared_->init(params));
    std::vector<int64_t> filter, stride, pad;
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_.c_str(), "filter_size", 2, 1, true, 1, 1, &filter));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_.c_str(), "stride", 2, 1, true, 1, 1, &stride));
    QNN_SDK_RETURN_IF_ERROR(sdk::readSpatialParam(params, op_.c_str(), "pad_amount", 2, 2, true, 0, 0, &pad));
    g_.fh = filter[0], g_.fw = filter[1], g_.sh = stride[0], g_.sw = stride[1];
    g_.padTop = pad[0], g_.padBottom = pad[1], g_.padLeft = pad[2], g_.padRight = pad[3];
    g_.isMax = isMax_;
    g_.countPad = params.b("count_pad_for_edges", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(shared_->prepare(inputs, outputs));  // every check, with its messages
    fast_ = inputs[0].dtype == DType::kFloat32;
    const auto& in = inputs[0].dims;
    const auto& out = outputs[0].dims;
    batch_ = in[0], outH_ = out[1];
    g_.inH = in[1], g_.inW = in[2], g_.channels = in[3], g_.outW = out[2];
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!fast_) return shared_->execute(inputs, outputs);
    const float* input = inputs[0].as<const float>();
    float* output = outputs[0].as<float>();
    const size_t imageFloats = size_t(g_.inH * g_.inW * g_.channels), rowFloats = size_t(g_.outW * g_.channels);
    parallelFor(size_t(batch_) * outH_, rowGrain(rowFloats * size_t(g_.fh * g_.fw)), [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r)
        poolRow(g_, input + (r / outH_) * imageFloats, output + r * rowFloats, int64_t(r % outH_));
    });
    return Status::ok();
  }

 private:
  std::string op_;
  bool isMax_;
  std::unique_ptr<Kernel> shared_;
  PoolGeometry g_{};
  size_t batch_ = 0, outH_ = 0;
  bool fast_ = false;
};

}  // namespace

std::unique_ptr<Kernel> makePool2d(const std::string& opType) {
  if (opType != "PoolMax2d" && opType != "PoolAvg2d") return nullptr;
  return std::make_unique<Pool2dKernel>(opType, makePool(opType));
}

}  // namespace qnn::cpu
