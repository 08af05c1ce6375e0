// Quantized FullyConnected and MatMul: QuantGemm over the unsigned-shifted
// input rows, zero-point and bias terms folded per output column (see
// weighted_output.h for the formula).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <type_traits>

// GCC 12 reports its own AVX-512 intrinsic headers as maybe-uninitialized (false positives).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/quant_gemm.h"
#include "htp_sim/kernels/weighted_output.h"

namespace qnn::htp {
namespace {

// Converts rows x k stored values (element (r, c) at src index r*rs + c*cs) to
// unsigned values in dst.
template <typename TA>
void unsignedRows(const TensorView& t, size_t base, size_t rows, size_t k, size_t rs, size_t cs, int32_t shift,
                  TA* dst) {
  for (size_t r = 0; r < rows; ++r) loadShifted(t, base + r * rs, cs, k, shift, dst + r * k);
}

// Packs B (k x n, element (kk, j) = values[kk*ks + j*ns]) narrow if possible;
// returns whether the narrow path is exact.
bool packNarrowOrWide(QuantGemm& g, const int32_t* values, size_t k, size_t n, size_t ks, size_t ns, bool narrowA) {
  std::vector<int32_t> b(k * n);
  for (size_t kk = 0; kk < k; ++kk)
    for (size_t j = 0; j < n; ++j) b[kk * n + j] = values[kk * ks + j * ns];
  if (g.pack(b.data(), k, n, narrowA, true)) return narrowA;
  g.pack(b.data(), k, n, false, true);
  return false;
}

// Multiplies rows of unsigned A (narrow or wide) and writes finished outputs.
template <typename TA, typename TAcc>
void multiplyAndFinish(const QuantGemm& g, const TensorView& x, size_t xBase, size_t rows, size_t k, size_t rs,
                       size_t cs, const UnsignedInput& u, const WeightedOutput& out, const TensorView& y,
                       size_t yBase) {
  // Per-thread scratch, kept between executes (no allocation per call once grown).
  thread_local std::vector<TA> a;
  thread_local std::vector<TAcc> acc;
  thread_local std::vector<int64_t> correction, row;
  a.resize(rows * k);
  unsignedRows(x, xBase, rows, k, rs, cs, u.shift, a.data());
  const size_t n = g.n();
  acc.resize(rows * n);
  g.multiply(a.data(), rows, k, acc.data());
  correction.resize(n), row.resize(n);
  for (size_t j = 0; j < n; ++j) correction[j] = -u.zeroPoint * g.columnSums()[j];
  for (size_t r = 0; r < rows; ++r) {
    out.finishRow(acc.data() + r * n, n, 0, correction.data(), row.data());
    storeInts(y, yBase + r * n, row.data(), n);
  }
}

// acc[r * ldc + j] = sum_kk a[r * k + kk] * b(kk, j) exactly, b(kk, j) the stored value at
// b[kk * n + j] (or b[j * k + kk] with transB): the integers QuantGemm would sum, without
// packing B (a dynamic B, as attention's K^T and V, is new at every execute). 8-bit B
// sums blocks of 64 products in int32 (|a b| < 2^24), then int64.
template <typename TA, typename TB>
void directProduct(const TA* a, size_t rows, size_t k, const TB* b, size_t n, bool transB, int64_t* acc,
                   size_t ldc) {
  using Part = std::conditional_t<sizeof(TB) == 1, int32_t, int64_t>;
  constexpr size_t kBlock = sizeof(TB) == 1 ? 64 : size_t(1) << 40;
  thread_local std::vector<Part> part;
  for (size_t r = 0; r < rows; ++r) {
    const TA* x = a + r * k;
    int64_t* out = acc + r * ldc;
    if (!transB) {
      std::fill(out, out + n, int64_t(0));
      part.resize(n);
      for (size_t k0 = 0; k0 < k; k0 += kBlock) {
        const size_t k1 = std::min(k, k0 + kBlock);
        Part* __restrict p = part.data();
        std::fill(p, p + n, Part(0));
        for (size_t kk = k0; kk < k1; ++kk) {
          const Part av = Part(x[kk]);
          const TB* __restrict row = b + kk * n;
          for (size_t j = 0; j < n; ++j) p[j] += av * Part(row[j]);
        }
        for (size_t j = 0; j < n; ++j) out[j] += int64_t(p[j]);
      }
    } else {
      for (size_t j = 0; j < n; ++j) {
        const TB* __restrict col = b + j * k;
        int64_t sum = 0;
        for (size_t k0 = 0; k0 < k; k0 += kBlock) {
          const size_t k1 = std::min(k, k0 + kBlock);
          Part p = 0;
          for (size_t kk = k0; kk < k1; ++kk) p += Part(x[kk]) * Part(col[kk]);
          sum += int64_t(p);
        }
        out[j] = sum;
      }
    }
  }
}

// sums[j] = sum_kk b(kk, j), b as in directProduct.
template <typename TB>
void columnSums(const TB* b, size_t k, size_t n, bool transB, int64_t* sums) {
  std::fill(sums, sums + n, int64_t(0));
  for (size_t kk = 0; kk < k && !transB; ++kk)
    for (size_t j = 0; j < n; ++j) sums[j] += b[kk * n + j];
  for (size_t j = 0; j < n && transB; ++j) {
    int64_t s = 0;
    for (size_t kk = 0; kk < k; ++kk) s += b[j * k + kk];
    sums[j] = s;
  }
}

// out[i] += v[i] for the lanes set, v's 16 int32 widened to int64.
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline void addInt32sToInt64s(__m512i v, __mmask16 lanes,
                                                                                   int64_t* out) {
  const __mmask8 lo = __mmask8(lanes), hi = __mmask8(lanes >> 8);
  const __m512i v0 = _mm512_cvtepi32_epi64(_mm512_castsi512_si256(v));
  const __m512i v1 = _mm512_cvtepi32_epi64(_mm512_extracti64x4_epi64(v, 1));
  _mm512_mask_storeu_epi64(out, lo, _mm512_add_epi64(_mm512_maskz_loadu_epi64(lo, out), v0));
  _mm512_mask_storeu_epi64(out + 8, hi, _mm512_add_epi64(_mm512_maskz_loadu_epi64(hi, out + 8), v1));
}

// acc + the int16 pair products of a and b summed per int32 lane (vpdpwssd: madd_epi16 and add in one,
// the same wrapping sums), acc kept in its register (see quant_gemm.cpp's dpbusd).
__attribute__((target("avx512f,avx512vnni"))) inline __m512i dpwssd(__m512i acc, __m512i a, __m512i b) {
  asm("vpdpwssd %2, %1, %0" : "+v"(acc) : "v"(a), "v"(b));
  return acc;
}

// 16-bit A rows times 8-bit B (not transposed) and B's column sums on AVX-512: 16 columns at a time
// for up to 4 rows, two rows of B interleaved into int16 pairs (column j in int32 lane j) times the pair
// of A - 32768 (vpdpwssd), the int32 partial sums of blocks of 64 products (|(a - 32768) b| < 2^23)
// in registers, flushed into int64; then 32768 times the column sums added back. The same integers
// as directProduct and columnSums.
template <int kRows, typename TB>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) inline void bytesBlockAvx512(
    const int16_t* ac, size_t kp, size_t k, const TB* b, size_t n, size_t j, __mmask16 lanes, int64_t* acc,
    size_t ldc, int64_t* colSums) {
  constexpr size_t kBlock = 64;
  const __m512i ones = _mm512_set1_epi16(1);
  for (size_t k0 = 0; k0 < k; k0 += kBlock) {
    const size_t k1 = std::min(k, k0 + kBlock);
    __m512i p[kRows];
    for (int r = 0; r < kRows; ++r) p[r] = _mm512_setzero_si512();
    __m512i s = _mm512_setzero_si512();
    for (size_t kk = k0; kk < k1; kk += 2) {
      const __m128i r0 = _mm_maskz_loadu_epi8(lanes, b + kk * n + j);
      const __m128i r1 = kk + 1 < k ? _mm_maskz_loadu_epi8(lanes, b + (kk + 1) * n + j) : _mm_setzero_si128();
      const __m256i raw = _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_unpacklo_epi8(r0, r1)),
                                                  _mm_unpackhi_epi8(r0, r1), 1);
      const __m512i bv = std::is_signed_v<TB> ? _mm512_cvtepi8_epi16(raw) : _mm512_cvtepu8_epi16(raw);
      for (int r = 0; r < kRows; ++r) {
        int32_t pair;
        std::memcpy(&pair, ac + size_t(r) * kp + kk, 4);
        p[r] = dpwssd(p[r], _mm512_set1_epi32(pair), bv);
      }
      if (colSums) s = dpwssd(s, ones, bv);
    }
    for (int r = 0; r < kRows; ++r) addInt32sToInt64s(p[r], lanes, acc + size_t(r) * ldc + j);
    if (colSums) addInt32sToInt64s(s, lanes, colSums + j);
  }
}

template <typename TB>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void bytesProductAndSumsAvx512(
    const uint16_t* a, size_t rows, size_t k, const TB* b, size_t n, int64_t* acc, size_t ldc, int64_t* colSums) {
  static_assert(sizeof(TB) == 1);
  for (size_t r = 0; r < rows; ++r) std::fill(acc + r * ldc, acc + r * ldc + n, int64_t(0));
  std::fill(colSums, colSums + n, int64_t(0));
  if (rows == 0) return columnSums(b, k, n, false, colSums);
  const size_t kp = (k + 1) / 2 * 2;
  thread_local std::vector<int16_t> centered;  // per row: k values A - 32768, a zero to an even count
  centered.assign(rows * kp, 0);
  int16_t* const ac = centered.data();
  for (size_t r = 0; r < rows; ++r)
    for (size_t kk = 0; kk < k; ++kk) ac[r * kp + kk] = int16_t(int32_t(a[r * k + kk]) - 32768);
  for (size_t j = 0; j < n; j += 16) {
    const __mmask16 lanes = n - j >= 16 ? __mmask16(0xffff) : __mmask16((1u << (n - j)) - 1);
    for (size_t r0 = 0; r0 < rows; r0 += 4) {
      const int16_t* x = ac + r0 * kp;
      int64_t* out = acc + r0 * ldc;
      int64_t* sums = r0 == 0 ? colSums : nullptr;
      switch (std::min<size_t>(4, rows - r0)) {
        case 1: bytesBlockAvx512<1>(x, kp, k, b, n, j, lanes, out, ldc, sums); break;
        case 2: bytesBlockAvx512<2>(x, kp, k, b, n, j, lanes, out, ldc, sums); break;
        case 3: bytesBlockAvx512<3>(x, kp, k, b, n, j, lanes, out, ldc, sums); break;
        default: bytesBlockAvx512<4>(x, kp, k, b, n, j, lanes, out, ldc, sums); break;
      }
    }
  }
  for (size_t r = 0; r < rows; ++r)
    for (size_t j = 0; j < n; ++j) acc[r * ldc + j] += 32768 * colSums[j];
}

// `count` (<= 32) stored 8-bit values from p as int16, zeros after them.
template <typename TB>
__attribute__((target("avx512f,avx512bw,avx512vl"))) inline __m512i int16Chunk(const TB* p, size_t count) {
  const __mmask32 m = count == 32 ? __mmask32(0xffffffffu) : __mmask32((1u << count) - 1);
  const __m256i raw = _mm256_maskz_loadu_epi8(m, p);
  return std::is_signed_v<TB> ? _mm512_cvtepi8_epi16(raw) : _mm512_cvtepu8_epi16(raw);
}

// Transposes 16 vectors of 16 int32 lanes: out[p] lane c = in[c] lane p.
__attribute__((target("avx512f"))) inline void transpose16x16(__m512i* v) {
  __m512i t[16];
  for (int i = 0; i < 16; i += 2) {
    t[i] = _mm512_unpacklo_epi32(v[i], v[i + 1]);
    t[i + 1] = _mm512_unpackhi_epi32(v[i], v[i + 1]);
  }
  for (int i = 0; i < 16; i += 4)
    for (int h = 0; h < 2; ++h) {
      v[i + 2 * h] = _mm512_unpacklo_epi64(t[i + h], t[i + 2 + h]);
      v[i + 2 * h + 1] = _mm512_unpackhi_epi64(t[i + h], t[i + 2 + h]);
    }
  // 128-bit block L of v[4g + q] now holds lanes 4L + q of in[4g .. 4g + 3]: a 4 x 4 transpose of the
  // blocks of v[q], v[4 + q], v[8 + q], v[12 + q] gives out[4L + q].
  for (int q = 0; q < 4; ++q) {
    const __m512i a = _mm512_shuffle_i32x4(v[q], v[4 + q], _MM_SHUFFLE(2, 0, 2, 0));
    const __m512i b = _mm512_shuffle_i32x4(v[q], v[4 + q], _MM_SHUFFLE(3, 1, 3, 1));
    const __m512i c = _mm512_shuffle_i32x4(v[8 + q], v[12 + q], _MM_SHUFFLE(2, 0, 2, 0));
    const __m512i d = _mm512_shuffle_i32x4(v[8 + q], v[12 + q], _MM_SHUFFLE(3, 1, 3, 1));
    t[q] = _mm512_shuffle_i32x4(a, c, _MM_SHUFFLE(2, 0, 2, 0));
    t[4 + q] = _mm512_shuffle_i32x4(b, d, _MM_SHUFFLE(2, 0, 2, 0));
    t[8 + q] = _mm512_shuffle_i32x4(a, c, _MM_SHUFFLE(3, 1, 3, 1));
    t[12 + q] = _mm512_shuffle_i32x4(b, d, _MM_SHUFFLE(3, 1, 3, 1));
  }
  for (int i = 0; i < 16; ++i) v[i] = t[i];
}

// The same with B transposed (column j's k values at b + j * k: attention's K read in its cache layout):
// 16 columns at a time, each 32 values of k as int16 (one vector per column), transposed so that
// vector p holds the pair (2p, 2p + 1) of every column; then A - 32768 as int16 pairs times those
// pairs (vpdpwssd) sum 16 columns per instruction, and 32768 times the column's sum is added back.
// Per block of 64 products every partial sum stays below 64 * 32768 * 255 < 2^31 in magnitude, then int64.
template <typename TB>
__attribute__((target("avx512f,avx512bw,avx512vl,avx512vnni"))) void bytesProductAndSumsTransAvx512(
    const uint16_t* a, size_t rows, size_t k, const TB* b, size_t n, int64_t* acc, size_t ldc, int64_t* colSums) {
  static_assert(sizeof(TB) == 1);
  constexpr size_t kRows = 4;
  const size_t chunks = (k + 31) / 32;
  thread_local std::vector<int16_t> centered;  // per row: k values A - 32768, zeros to a multiple of 32
  centered.assign(rows * chunks * 32, 0);
  int16_t* const ac = centered.data();  // once: thread_local access is a call in a shared library
  for (size_t r = 0; r < rows; ++r)
    for (size_t kk = 0; kk < k; ++kk) ac[r * chunks * 32 + kk] = int16_t(int32_t(a[r * k + kk]) - 32768);
  for (size_t r = 0; r < rows; ++r) std::fill(acc + r * ldc, acc + r * ldc + n, int64_t(0));
  std::fill(colSums, colSums + n, int64_t(0));
  const __m512i ones = _mm512_set1_epi16(1);
  for (size_t j0 = 0; j0 < n; j0 += 16) {
    const size_t cols = std::min<size_t>(16, n - j0);
    const __mmask16 lanes = cols == 16 ? __mmask16(0xffff) : __mmask16((1u << cols) - 1);
    for (size_t c0 = 0; c0 < chunks; c0 += 2) {  // blocks of 64 products
      const size_t c1 = std::min(chunks, c0 + 2);
      __m512i pairs[2][16];
      for (size_t ch = c0; ch < c1; ++ch) {
        __m512i* v = pairs[ch - c0];
        for (size_t c = 0; c < 16; ++c)
          v[c] = c < cols ? int16Chunk(b + (j0 + c) * k + ch * 32, std::min<size_t>(32, k - ch * 32))
                          : _mm512_setzero_si512();
        transpose16x16(v);
      }
      __m512i s = _mm512_setzero_si512();
      for (size_t ch = c0; ch < c1; ++ch)
        for (int q = 0; q < 16; ++q) s = dpwssd(s, ones, pairs[ch - c0][q]);
      addInt32sToInt64s(s, lanes, colSums + j0);
      for (size_t r0 = 0; r0 < rows; r0 += kRows) {
        const size_t nr = std::min(kRows, rows - r0);
        __m512i sum[kRows];
        for (size_t r = 0; r < kRows; ++r) sum[r] = _mm512_setzero_si512();
        for (size_t ch = c0; ch < c1; ++ch)
          for (int q = 0; q < 16; ++q)
            for (size_t r = 0; r < nr; ++r) {
              int32_t pair;
              std::memcpy(&pair, ac + ((r0 + r) * chunks + ch) * 32 + 2 * q, 4);
              sum[r] = dpwssd(sum[r], _mm512_set1_epi32(pair), pairs[ch - c0][q]);
            }
        for (size_t r = 0; r < nr; ++r) addInt32sToInt64s(sum[r], lanes, acc + (r0 + r) * ldc + j0);
      }
    }
  }
  for (size_t r = 0; r < rows; ++r)
    for (size_t j = 0; j < n; ++j) acc[r * ldc + j] += 32768 * colSums[j];
}

template <typename TA, typename TB>
void directProductAndSums(const TA* a, size_t rows, size_t k, const TB* b, size_t n, bool transB, int64_t* acc,
                          size_t ldc, int64_t* colSums) {
  if constexpr (std::is_same_v<TA, uint16_t> && sizeof(TB) == 1) {
    if (!transB && vnniAvailable()) return bytesProductAndSumsAvx512(a, rows, k, b, n, acc, ldc, colSums);
    if (transB && vnniAvailable()) return bytesProductAndSumsTransAvx512(a, rows, k, b, n, acc, ldc, colSums);
  }
  directProduct(a, rows, k, b, n, transB, acc, ldc);
  columnSums(b, k, n, transB, colSums);
}

// directProduct and columnSums of the stored values of b from element `base` on.
template <typename TA>
void directProductTyped(const TA* a, size_t rows, size_t k, const TensorView& b, size_t base, size_t n, bool transB,
                        int64_t* acc, size_t ldc, int64_t* colSums) {
  switch (b.dtype) {
    case DType::kUFixed8:
      directProductAndSums(a, rows, k, b.as<const uint8_t>() + base, n, transB, acc, ldc, colSums);
      break;
    case DType::kSFixed8:
      directProductAndSums(a, rows, k, b.as<const int8_t>() + base, n, transB, acc, ldc, colSums);
      break;
    case DType::kUFixed16:
      directProductAndSums(a, rows, k, b.as<const uint16_t>() + base, n, transB, acc, ldc, colSums);
      break;
    default: directProductAndSums(a, rows, k, b.as<const int16_t>() + base, n, transB, acc, ldc, colSums); break;
  }
}

Status checkWeighted(const char* op, const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs,
                     std::initializer_list<DType> in1Types) {
  QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1]", inputs[1], in1Types));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
  if (inputs.size() == 3) {
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[2] (bias)", inputs[2], 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[2] (bias)", inputs[2], kBiasTypes));
  }
  return Status::ok();
}

// A weight quantized per input channel (axis 1 of [n, k], k scales: ONNX
// Runtime's MatMul with a 1-D per-channel weight, sent as FullyConnected with
// units = 1): no per-output multiplier can fold a scale that varies along the
// sum, so the op is computed by its definition on real values,
//   y[r][j] = s_x (x[r][kk] + o_x) * s_w[kk] (w[j][kk] + o_w[kk]) summed in double, + bias[j],
// then clamped by a fused activation and quantized once (round half away from
// zero, saturate) into the output encoding (docs/htp-fixed-point.md).
class InputChannelFullyConnected {
 public:
  static bool applies(const TensorView& w) {
    return w.quant.kind == QuantInfo::Kind::kAxisScaleOffset && w.quant.axis == 1;
  }
  void setClamp(double lo, double hi) { clampMin_ = lo, clampMax_ = hi; }

  Status prepare(const char* op, const std::vector<TensorView>& in, const TensorView& out, size_t n, size_t k,
                 size_t rows) {
    n_ = n, k_ = k, rows_ = rows;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", in[0], &ex_));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1] (weights)", in[1], 1, uint32_t(k), &wEnc_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", out, &eo_));
    hasBias_ = in.size() == 3;
    if (hasBias_) QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[2] (bias)", in[2], 0, uint32_t(n), &bEnc_));
    staticW_ = in[1].data != nullptr;
    staticB_ = hasBias_ && in[2].data != nullptr;
    if (staticW_) readWeights(in[1]);
    if (staticB_) readBias(in[2]);
    return Status::ok();
  }

  void execute(const std::vector<TensorView>& in, const TensorView& out) {
    if (!staticW_) readWeights(in[1]);
    if (hasBias_ && !staticB_) readBias(in[2]);
    const fx::QuantRange range = rangeOf(out);
    std::vector<double> x(k_);
    for (size_t r = 0; r < rows_; ++r) {
      for (size_t kk = 0; kk < k_; ++kk)
        x[kk] = double(ex_.scale) * double(loadInt(in[0], r * k_ + kk) + ex_.offset);
      for (size_t j = 0; j < n_; ++j) {
        double acc = hasBias_ ? bias_[j] : 0.0;
        for (size_t kk = 0; kk < k_; ++kk) acc += x[kk] * w_[j * k_ + kk];
        acc = std::min(std::max(acc, clampMin_), clampMax_);
        storeInt(out, r * n_ + j, fx::quantizeValue(acc, eo_.scale, eo_.offset, range));
      }
    }
  }

 private:
  void readWeights(const TensorView& w) {
    w_.resize(n_ * k_);
    for (size_t j = 0; j < n_; ++j)
      for (size_t kk = 0; kk < k_; ++kk)
        w_[j * k_ + kk] = double(wEnc_[kk].scale) * double(loadInt(w, j * k_ + kk) + wEnc_[kk].offset);
  }
  void readBias(const TensorView& b) {
    bias_.resize(n_);
    for (size_t j = 0; j < n_; ++j) bias_[j] = double(bEnc_[j].scale) * double(loadInt(b, j) + bEnc_[j].offset);
  }

  size_t n_ = 0, k_ = 0, rows_ = 0;
  bool hasBias_ = false, staticW_ = false, staticB_ = false;
  double clampMin_ = -HUGE_VAL, clampMax_ = HUGE_VAL;
  Encoding ex_, eo_;
  std::vector<Encoding> wEnc_, bEnc_;
  std::vector<double> w_, bias_;
};

// ---------------------------------------------------------------------------
class QuantFullyConnected final : public ClampFusingKernel {
 public:
  void fuseClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
    inputChannel_.setClamp(realMin, realMax);
  }
  Status init(const OpParams& params) override {
    keepDims_ = params.b("keep_dims", false);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "FullyConnected";
    QNN_SDK_RETURN_IF_ERROR(checkWeighted(op, inputs, outputs, kWeightTypes));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (weights)", inputs[1], 2));
    n_ = inputs[1].dims[0], k_ = inputs[1].dims[1];
    std::vector<uint32_t> outDims;
    QNN_SDK_RETURN_IF_ERROR(fullyConnectedShape(inputs[0], k_, n_, keepDims_, &rows_, &outDims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], outDims));
    byInputChannel_ = InputChannelFullyConnected::applies(inputs[1]);
    if (byInputChannel_) return inputChannel_.prepare(op, inputs, outputs[0], n_, k_, rows_);
    Encoding ex;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ex));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1] (weights)", inputs[1], 0, uint32_t(n_), &wEnc_));
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op, ex, wEnc_, inputs.size() == 3 ? &inputs[2] : nullptr, outputs[0]));
    input_ = unsignedInput(inputs[0], ex);
    staticWeights_ = inputs[1].data != nullptr;
    if (staticWeights_) pack(inputs[1]);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (byInputChannel_) return inputChannel_.execute(inputs, outputs[0]), Status::ok();
    if (!staticWeights_) pack(inputs[1]);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    constexpr size_t kTile = 64;
    const size_t tiles = (rows_ + kTile - 1) / kTile;
    parallelChunks(tiles, double(rows_) * double(k_) * double(n_), [&](size_t t0, size_t t1) {
      for (size_t t = t0; t < t1; ++t) {
        const size_t r0 = t * kTile, rows = std::min(kTile, rows_ - r0);
        if (narrow_)
          multiplyAndFinish<uint8_t, int32_t>(gemm_, inputs[0], r0 * k_, rows, k_, k_, 1, input_, out_, outputs[0],
                                              r0 * n_);
        else
          multiplyAndFinish<uint16_t, int64_t>(gemm_, inputs[0], r0 * k_, rows, k_, k_, 1, input_, out_,
                                               outputs[0], r0 * n_);
      }
    });
    return Status::ok();
  }

 private:
  void pack(const TensorView& w) {
    std::vector<int32_t> values(n_ * k_);
    for (size_t j = 0; j < n_; ++j)
      for (size_t kk = 0; kk < k_; ++kk) values[j * k_ + kk] = int32_t(loadInt(w, j * k_ + kk) + wEnc_[j].offset);
    narrow_ = packNarrowOrWide(gemm_, values.data(), k_, n_, 1, k_, input_.narrow);
  }

  bool keepDims_ = false, staticWeights_ = false, narrow_ = false, byInputChannel_ = false;
  size_t n_ = 0, k_ = 0, rows_ = 0;
  std::vector<Encoding> wEnc_;
  UnsignedInput input_;
  WeightedOutput out_;
  InputChannelFullyConnected inputChannel_;
  QuantGemm gemm_;
};

// ---------------------------------------------------------------------------
class QuantMatMul final : public ClampFusingKernel {
 public:
  void fuseClamp(double realMin, double realMax) override {
    out_.setClamp(realMin, realMax);
  }
  Status init(const OpParams& params) override {
    transA_ = params.b("transpose_in0", false);
    transB_ = params.b("transpose_in1", false);
    parts_ = params.u32("in1_parts", 0);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& given, const std::vector<TensorView>& outputs) override {
    const char* op = "MatMul";
    std::vector<TensorView> inputs = given;
    if (parts_) QNN_SDK_RETURN_IF_ERROR(joinParts(given, &inputs));
    QNN_SDK_RETURN_IF_ERROR(checkWeighted(op, inputs, outputs, kActivationTypes));
    const auto& ad = inputs[0].dims;
    const auto& bd = inputs[1].dims;
    if (ad.size() < 2 || bd.size() < 2)
      return sdk::invalidTensor("MatMul: in[0] and in[1] need rank >= 2, got " + dimsToString(ad) + " and " +
                                dimsToString(bd));
    const size_t ar = ad[ad.size() - 2], ac = ad.back(), br = bd[bd.size() - 2], bc = bd.back();
    m_ = transA_ ? ac : ar, k_ = transA_ ? ar : ac, n_ = transB_ ? br : bc;
    if ((transB_ ? bc : br) != k_)
      return sdk::invalidTensor("MatMul: inner dimensions of " + dimsToString(ad) + " and " + dimsToString(bd) +
                                " differ");
    std::vector<uint32_t> aBatch(ad.begin(), ad.end() - 2), bBatch(bd.begin(), bd.end() - 2), outDims;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, aBatch, bBatch, &outDims));
    batchDims_ = outDims;
    const size_t rank = outDims.size();
    aBatch_.assign(rank - aBatch.size(), 1);
    aBatch_.insert(aBatch_.end(), aBatch.begin(), aBatch.end());
    bBatch_.assign(rank - bBatch.size(), 1);
    bBatch_.insert(bBatch_.end(), bBatch.begin(), bBatch.end());
    outDims.push_back(uint32_t(m_));
    outDims.push_back(uint32_t(n_));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], outDims));
    Encoding ex;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ex));
    const uint32_t channelAxis = uint32_t(bd.size() - (transB_ ? 2 : 1));
    QNN_SDK_RETURN_IF_ERROR(channelEncodings(op, "in[1]", inputs[1], channelAxis, uint32_t(n_), &wEnc_));
    QNN_SDK_RETURN_IF_ERROR(out_.prepare(op, ex, wEnc_, inputs.size() == 3 ? &inputs[2] : nullptr, outputs[0]));
    input_ = unsignedInput(inputs[0], ex);
    size_t numB = 1;
    for (uint32_t d : bBatch) numB *= d;
    gemms_.assign(numB, QuantGemm{});
    narrow_.assign(numB, false);
    staticB_ = inputs[1].data != nullptr && !parts_;
    if (staticB_)
      for (size_t i = 0; i < numB; ++i) pack(inputs[1], i);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!staticB_) return executeDynamicB(inputs, outputs);
    if (out_.biasPending()) out_.readBias(inputs[2]);
    size_t numBatch = 1;
    for (uint32_t d : batchDims_) numBatch *= d;
    const size_t rs = transA_ ? 1 : k_, cs = transA_ ? m_ : 1;
    for (size_t o = 0; o < numBatch; ++o) {
      size_t aIdx, bIdx;
      batchSources(o, &aIdx, &bIdx);
      if (narrow_[bIdx])
        multiplyAndFinish<uint8_t, int32_t>(gemms_[bIdx], inputs[0], aIdx * m_ * k_, m_, k_, rs, cs, input_, out_,
                                            outputs[0], o * m_ * n_);
      else
        multiplyAndFinish<uint16_t, int64_t>(gemms_[bIdx], inputs[0], aIdx * m_ * k_, m_, k_, rs, cs, input_, out_,
                                             outputs[0], o * m_ * n_);
    }
    return Status::ok();
  }

 private:
  // The batch of A and of B that output batch o reads (broadcast).
  void batchSources(size_t o, size_t* aIdx, size_t* bIdx) const {
    size_t rem = o, aMul = 1, bMul = 1;
    *aIdx = *bIdx = 0;
    for (size_t d = batchDims_.size(); d-- > 0;) {
      const size_t c = rem % batchDims_[d];
      rem /= batchDims_[d];
      *aIdx += (aBatch_[d] == 1 ? 0 : c) * aMul;
      *bIdx += (bBatch_[d] == 1 ? 0 : c) * bMul;
      aMul *= aBatch_[d];
      bMul *= bBatch_[d];
    }
  }

  // in1_parts (the graph pass matmul_concat_reading): in[1] is the concatenation of inputs 1.. along
  // axis rank-2 (equal encodings, dtypes and other dims); *joined gets in[0] and that in[1] (no data).
  Status joinParts(const std::vector<TensorView>& given, std::vector<TensorView>* joined) {
    if (given.size() != 1 + size_t(parts_))
      return sdk::invalidParam("MatMul: in1_parts " + std::to_string(parts_) + " needs " + std::to_string(parts_ + 1) +
                               " inputs, got " + std::to_string(given.size()));
    TensorView b = given[1];
    b.data = nullptr;
    const size_t rank = b.dims.size();
    partLengths_.clear();
    for (size_t i = 1; i < given.size(); ++i) {
      const TensorView& t = given[i];
      bool same = rank >= 2 && t.dims.size() == rank && t.dtype == b.dtype && t.quant == b.quant;
      for (size_t d = 0; same && d < rank; ++d) same = d == rank - 2 || t.dims[d] == b.dims[d];
      if (!same)
        return sdk::invalidTensor("MatMul: in1_parts need equal encodings and dims but axis rank-2, got " +
                                  dimsToString(given[1].dims) + " and " + dimsToString(t.dims));
      partLengths_.push_back(t.dims[rank - 2]);
      if (i > 1) b.dims[rank - 2] += t.dims[rank - 2];
    }
    *joined = {given[0], b};
    return Status::ok();
  }

  // acc (m_ x n_) and colSums (n_) of unsigned rows a (m_ x k_) times B batch bIdx: in[1], or its parts
  // (transposed: each part's columns; else each part's rows, with A's columns of the part).
  template <typename TA>
  void productOfB(const std::vector<TensorView>& inputs, const TA* a, size_t bIdx, int64_t* acc, int64_t* colSums) {
    if (!parts_) return directProductTyped(a, m_, k_, inputs[1], bIdx * k_ * n_, n_, transB_, acc, n_, colSums);
    if (!transB_) {  // each part adds to every sum (transposed: the parts' columns fill them)
      std::fill(acc, acc + m_ * n_, int64_t(0));
      std::fill(colSums, colSums + n_, int64_t(0));
    }
    std::vector<int64_t>& partAcc = scratch_.partAcc;
    std::vector<int64_t>& partSums = scratch_.partSums;
    std::vector<TA>& aPart = scratch_.rows(TA());
    size_t at = 0;
    for (size_t p = 0; p < partLengths_.size(); at += partLengths_[p], ++p) {
      const size_t len = partLengths_[p];
      const TensorView& b = inputs[1 + p];
      if (transB_) {  // the part's columns, written in place
        directProductTyped(a, m_, k_, b, bIdx * len * k_, len, true, acc + at, n_, colSums + at);
      } else {
        aPart.resize(m_ * len), partAcc.resize(m_ * n_), partSums.resize(n_);
        for (size_t r = 0; r < m_; ++r) std::copy_n(a + r * k_ + at, len, aPart.data() + r * len);
        directProductTyped(aPart.data(), m_, len, b, bIdx * len * n_, n_, false, partAcc.data(), n_, partSums.data());
        const int64_t *pa = partAcc.data(), *ps = partSums.data();
        for (size_t i = 0, end = m_ * n_; i < end; ++i) acc[i] += pa[i];
        for (size_t j = 0, end = n_; j < end; ++j) colSums[j] += ps[j];
      }
    }
  }

  // B is an activation: the exact sums straight from its stored values (directProduct),
  // plus each column's offset times the row sum of A; the same integers as a packed B.
  Status executeDynamicB(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) {
    if (out_.biasPending()) out_.readBias(inputs[2]);
    size_t numBatch = 1;
    for (uint32_t d : batchDims_) numBatch *= d;
    const size_t rs = transA_ ? 1 : k_, cs = transA_ ? m_ : 1;
    Scratch& w = scratch_;
    const size_t m = m_, k = k_, n = n_;  // locals: the int64 stores below cannot alias them
    w.acc.resize(m * n), w.colSums.resize(n), w.correction.resize(n), w.row.resize(n), w.aSums.resize(m);
    w.offsets.resize(n);
    int64_t *acc = w.acc.data(), *colSums = w.colSums.data(), *correction = w.correction.data();
    int64_t *row = w.row.data(), *aSums = w.aSums.data(), *offsets = w.offsets.data();
    bool uniform = n > 0;
    for (size_t j = 0; j < n; ++j) offsets[j] = wEnc_[j].offset, uniform = uniform && offsets[j] == offsets[0];
    const int64_t zeroPoint = input_.zeroPoint;
    auto rowSums = [&](const auto* a) {
      for (size_t r = 0; r < m; ++r) {
        int64_t s = 0;
        for (size_t kk = 0; kk < k; ++kk) s += a[r * k + kk];
        aSums[r] = s;
      }
    };
    for (size_t o = 0; o < numBatch; ++o) {
      size_t aIdx, bIdx;
      batchSources(o, &aIdx, &bIdx);
      if (input_.narrow) {
        w.a8.resize(m * k);
        unsignedRows(inputs[0], aIdx * m * k, m, k, rs, cs, input_.shift, w.a8.data());
        productOfB(inputs, w.a8.data(), bIdx, acc, colSums);
        rowSums(w.a8.data());
      } else {
        w.a16.resize(m * k);
        unsignedRows(inputs[0], aIdx * m * k, m, k, rs, cs, input_.shift, w.a16.data());
        productOfB(inputs, w.a16.data(), bIdx, acc, colSums);
        rowSums(w.a16.data());
      }
      for (size_t j = 0; j < n; ++j) {
        colSums[j] += int64_t(k) * offsets[j];
        correction[j] = -zeroPoint * colSums[j];
      }
      for (size_t r = 0; r < m; ++r) {
        int64_t* sums = acc + r * n;
        const int64_t aSum = aSums[r];
        if (uniform) {  // one encoding (an activation's): a constant per row
          const int64_t add = offsets[0] * aSum;
          for (size_t j = 0; j < n; ++j) sums[j] += add;
        } else {
          for (size_t j = 0; j < n; ++j) sums[j] += offsets[j] * aSum;
        }
        out_.finishRow(sums, n, 0, correction, row);
        storeInts(outputs[0], o * m * n + r * n, row, n);
      }
    }
    return Status::ok();
  }

  void pack(const TensorView& b, size_t index) {
    const size_t base = index * k_ * n_;
    std::vector<int32_t> values(k_ * n_);
    for (size_t i = 0; i < values.size(); ++i) {
      const size_t channel = transB_ ? i / k_ : i % n_;
      values[i] = int32_t(loadInt(b, base + i) + wEnc_[channel].offset);
    }
    narrow_[index] = packNarrowOrWide(gemms_[index], values.data(), k_, n_, transB_ ? 1 : n_, transB_ ? k_ : 1,
                                      input_.narrow);
  }

  bool transA_ = false, transB_ = false, staticB_ = false;
  uint32_t parts_ = 0;                // in1_parts: in[1] given as parts (0: one tensor)
  std::vector<size_t> partLengths_;  // each part's extent along axis rank-2
  size_t m_ = 0, k_ = 0, n_ = 0;
  std::vector<uint32_t> batchDims_, aBatch_, bBatch_;
  std::vector<Encoding> wEnc_;
  UnsignedInput input_;
  WeightedOutput out_;
  std::vector<QuantGemm> gemms_;
  std::vector<bool> narrow_;
  // executeDynamicB's buffers, kept between executes (sized by the first).
  struct Scratch {
    std::vector<int64_t> acc, colSums, correction, row, aSums, offsets, partAcc, partSums;
    std::vector<uint16_t> a16, part16;
    std::vector<uint8_t> a8, part8;
    std::vector<uint16_t>& rows(uint16_t) { return part16; }
    std::vector<uint8_t>& rows(uint8_t) { return part8; }
  } scratch_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantFullyConnected(const std::string&) {
  return std::make_unique<QuantFullyConnected>();
}
std::unique_ptr<Kernel> makeQuantMatMul(const std::string&) { return std::make_unique<QuantMatMul>(); }

}  // namespace qnn::htp
