#include "htp_sim/kernels/copy_runs.h"

#include <tuple>
#include <type_traits>

#include <algorithm>
#include <cstring>

// GCC 12 reports its own AVX-512 intrinsic headers as maybe-uninitialized (false positives).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop

#include "htp_sim/kernels/quant_gemm.h"

namespace qnn::htp {

bool buildCopyRuns(size_t n, const std::function<void(size_t, uint32_t*, int64_t*)>& source,
                   std::vector<CopyRun>* runs, size_t minAverage) {
  runs->clear();
  size_t i = 0;
  while (i < n) {
    CopyRun r;
    r.dst = i;
    source(i, &r.input, &r.src);
    if (r.src < 0) r.src = -1;
    r.len = 1;
    r.stride = 1;
    for (++i; i < n; ++i) {
      uint32_t input;
      int64_t src;
      source(i, &input, &src);
      if (src < 0) src = -1;
      if (input != r.input || (src < 0) != (r.src < 0)) break;
      if (r.src >= 0) {
        if (r.len == 1) r.stride = src - r.src;
        if (src != r.src + int64_t(r.len) * r.stride) break;
      }
      ++r.len;
    }
    runs->push_back(r);
    if (runs->size() * minAverage > n + minAverage * 16) {  // mostly short runs: the caller's map is better
      runs->clear();
      return false;
    }
  }
  // Strided runs that step through consecutive source columns: transpose blocks.
  for (size_t k = 0; k < runs->size();) {
    CopyRun& first = (*runs)[k];
    size_t m = 1;
    if (first.src >= 0 && first.stride != 1 && first.len > 1)
      while (k + m < runs->size()) {
        const CopyRun& next = (*runs)[k + m];
        if (next.input != first.input || next.len != first.len || next.stride != first.stride ||
            next.src != first.src + int64_t(m) || next.dst != first.dst + m * first.len)
          break;
        ++m;
      }
    if (m >= 4) first.block = uint32_t(m);
    k += m;
  }
  return true;
}

namespace {
// y[i * cols + j] = x[i + j * stride] for i < rows, j < cols, in tiles that stay in L1.
template <typename T>
void transposeBlock(const T* x, int64_t stride, size_t rows, size_t cols, T* y) {
  constexpr size_t kTile = 32;
  for (size_t j0 = 0; j0 < cols; j0 += kTile)
    for (size_t i0 = 0; i0 < rows; i0 += kTile) {
      const size_t j1 = std::min(cols, j0 + kTile), i1 = std::min(rows, i0 + kTile);
      for (size_t j = j0; j < j1; ++j) {
        const T* src = x + int64_t(j) * stride;
        for (size_t i = i0; i < i1; ++i) y[i * cols + j] = src[i];
      }
    }
}

template <typename T>
void copyRunsTyped(const std::vector<CopyRun>& runs, const std::vector<const void*>& in, T* out, T pad) {
  for (size_t k = 0; k < runs.size(); ++k) {
    const CopyRun& r = runs[k];
    if (r.block > 1) {
      transposeBlock(static_cast<const T*>(in[r.input]) + r.src, r.stride, r.block, r.len, out + r.dst);
      k += r.block - 1;
      continue;
    }
    T* y = out + r.dst;
    if (r.src < 0) {
      for (size_t j = 0; j < r.len; ++j) y[j] = pad;
      continue;
    }
    const T* x = static_cast<const T*>(in[r.input]) + r.src;
    if (r.stride == 1) {
      std::memcpy(y, x, r.len * sizeof(T));
    } else {
      const int64_t s = r.stride;
      for (size_t j = 0; j < r.len; ++j) y[j] = x[int64_t(j) * s];
    }
  }
}

template <typename TI, typename TO>
void applyTyped(const uint16_t* table, const TI* x, size_t n, TO* y) {
  for (size_t i = 0; i < n; ++i) y[i] = TO(table[x[i]]);
}
template <typename TI, typename TO>
void applyRunsTyped(const uint16_t* table, const std::vector<CopyRun>& runs, const TI* x, TO* y) {
  for (const CopyRun& r : runs) {
    const TI* src = x + r.src;
    TO* dst = y + r.dst;
    if (r.stride == 1) {
      applyTyped(table, src, r.len, dst);
    } else {
      for (size_t j = 0; j < r.len; ++j) dst[j] = TO(table[src[int64_t(j) * r.stride]]);
    }
  }
}
}  // namespace

bool copyAlongRuns(const std::vector<CopyRun>& runs, const std::vector<const void*>& in, void* out, size_t elementSize,
                   uint32_t padBits) {
  switch (elementSize) {
    case 1: copyRunsTyped<uint8_t>(runs, in, static_cast<uint8_t*>(out), uint8_t(padBits)); return true;
    case 2: copyRunsTyped<uint16_t>(runs, in, static_cast<uint16_t*>(out), uint16_t(padBits)); return true;
    case 4: copyRunsTyped<uint32_t>(runs, in, static_cast<uint32_t*>(out), padBits); return true;
    default: return false;
  }
}

bool StoredValueTable::build(DType in, DType out, const std::function<int64_t(int64_t)>& f) {
  bits_.clear();
  identity_ = false;
  inSize_ = sdk::dtypeSize(in), outSize_ = sdk::dtypeSize(out);
  const bool fixedIn = in == DType::kUFixed8 || in == DType::kSFixed8 || in == DType::kUFixed16 || in == DType::kSFixed16;
  const bool fixedOut =
      out == DType::kUFixed8 || out == DType::kSFixed8 || out == DType::kUFixed16 || out == DType::kSFixed16;
  if (!fixedIn || !fixedOut) return false;
  const size_t count = size_t(1) << (8 * inSize_);
  const bool signedIn = in == DType::kSFixed8 || in == DType::kSFixed16;
  signedIn_ = signedIn;
  vector_ = false;
  bits_.resize(count);
  identity_ = in == out;
  const uint32_t outMask = outSize_ == 1 ? 0xffu : 0xffffu;
  for (size_t u = 0; u < count; ++u) {
    // The value whose stored bits are u.
    const int64_t q = signedIn ? (inSize_ == 1 ? int64_t(int8_t(uint8_t(u))) : int64_t(int16_t(uint16_t(u))))
                               : int64_t(u);
    const int64_t v = f(q);
    bits_[u] = uint16_t(uint32_t(v) & outMask);
    if (bits_[u] != u) identity_ = false;
  }
  return true;
}

namespace {
// 8 stored values (TI) at a time: widened to int64, requantized in the int32-accumulator
// branch of fx::applyMultiplier (round half away from zero), offset, saturated, narrowed.
template <typename TI, typename TO>
__attribute__((target("avx512f,avx512bw,avx512vl"))) size_t requantizeVector(const TI* x, size_t n, TO* y,
                                                                             int64_t inOffset, int64_t mantissa,
                                                                             int shift, int64_t outOffset, int64_t lo,
                                                                             int64_t hi) {
  const __m512i vin = _mm512_set1_epi64(inOffset), vm = _mm512_set1_epi64(mantissa),
                half = _mm512_set1_epi64(int64_t(1) << (shift - 1)), vout = _mm512_set1_epi64(outOffset),
                vlo = _mm512_set1_epi64(lo), vhi = _mm512_set1_epi64(hi);
  const __m128i count = _mm_cvtsi32_si128(shift);
  size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    __m512i acc;
    if constexpr (sizeof(TI) == 1) {
      const __m128i raw = _mm_loadl_epi64(reinterpret_cast<const __m128i*>(x + i));
      acc = std::is_signed_v<TI> ? _mm512_cvtepi8_epi64(raw) : _mm512_cvtepu8_epi64(raw);
    } else {
      const __m128i raw = _mm_loadu_si128(reinterpret_cast<const __m128i*>(x + i));
      acc = std::is_signed_v<TI> ? _mm512_cvtepi16_epi64(raw) : _mm512_cvtepu16_epi64(raw);
    }
    acc = _mm512_add_epi64(acc, vin);
    const __m512i p = _mm512_mul_epi32(acc, vm);  // acc and mantissa fit int32: the exact product
    __m512i r = _mm512_add_epi64(_mm512_add_epi64(p, half), _mm512_srai_epi64(p, 63));
    r = _mm512_sra_epi64(r, count);
    r = _mm512_min_epi64(_mm512_max_epi64(_mm512_sub_epi64(r, vout), vlo), vhi);
    if constexpr (sizeof(TO) == 1) _mm_storel_epi64(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi64_epi8(r));
    else _mm_storeu_si128(reinterpret_cast<__m128i*>(y + i), _mm512_cvtepi64_epi16(r));
  }
  return i;
}

template <typename TI, typename TO>
size_t requantizeVectorAs(const void* x, size_t n, void* y, int64_t inOffset, int64_t mantissa, int shift,
                          int64_t outOffset, int64_t lo, int64_t hi) {
  return requantizeVector(static_cast<const TI*>(x), n, static_cast<TO*>(y), inOffset, mantissa, shift, outOffset, lo,
                          hi);
}
}  // namespace

size_t StoredValueTable::applyVector(const void* in, size_t n, void* out) const {
  const auto args = std::make_tuple(vInOffset_, vMantissa_, vShift_, vOutOffset_, vLo_, vHi_);
  auto run = [&](auto fn) {
    return fn(in, n, out, std::get<0>(args), std::get<1>(args), std::get<2>(args), std::get<3>(args),
              std::get<4>(args), std::get<5>(args));
  };
  // Stored bits are written as unsigned: the saturated value's low bits are the same.
  if (inSize_ == 1)
    return outSize_ == 1 ? run(signedIn_ ? requantizeVectorAs<int8_t, uint8_t> : requantizeVectorAs<uint8_t, uint8_t>)
                         : run(signedIn_ ? requantizeVectorAs<int8_t, uint16_t> : requantizeVectorAs<uint8_t, uint16_t>);
  return outSize_ == 1 ? run(signedIn_ ? requantizeVectorAs<int16_t, uint8_t> : requantizeVectorAs<uint16_t, uint8_t>)
                       : run(signedIn_ ? requantizeVectorAs<int16_t, uint16_t> : requantizeVectorAs<uint16_t, uint16_t>);
}

void StoredValueTable::useRequantization(int32_t inOffset, fx::FixedPointMultiplier m, int32_t outOffset,
                                         fx::QuantRange range) {
  vector_ = false;
  const int shift = 31 - m.exponent;
  if (bits_.empty() || !vnniAvailable() || shift < 1 || shift > 62) return;
  const size_t count = bits_.size();
  const int64_t loAcc = (signedIn_ ? -int64_t(count / 2) : 0) + inOffset;
  const int64_t hiAcc = (signedIn_ ? int64_t(count / 2) - 1 : int64_t(count) - 1) + inOffset;
  if (loAcc < INT32_MIN || hiAcc > INT32_MAX) return;  // applyMultiplier's int32 branch only
  vInOffset_ = inOffset, vMantissa_ = m.mantissa, vShift_ = shift, vOutOffset_ = outOffset;
  vLo_ = range.lo, vHi_ = range.hi;
  // Every stored value through the vector code must give the table's entry.
  std::vector<uint8_t> x(count * inSize_), y(count * outSize_);
  for (size_t u = 0; u < count; ++u) {
    if (inSize_ == 1) x[u] = uint8_t(u);
    else {
      const uint16_t v = uint16_t(u);
      std::memcpy(&x[2 * u], &v, 2);
    }
  }
  if (applyVector(x.data(), count, y.data()) != count) return;
  for (size_t u = 0; u < count; ++u) {
    uint16_t got = y[u];
    if (outSize_ == 2) std::memcpy(&got, &y[2 * u], 2);
    if (got != bits_[u]) return;
  }
  vector_ = true;
}

void StoredValueTable::apply(const void* in, size_t n, void* out) const {
  if (vector_) {
    const size_t done = applyVector(in, n, out);
    in = static_cast<const uint8_t*>(in) + done * inSize_;
    out = static_cast<uint8_t*>(out) + done * outSize_;
    n -= done;
  }
  const uint16_t* t = bits_.data();
  if (inSize_ == 1 && outSize_ == 1) applyTyped(t, static_cast<const uint8_t*>(in), n, static_cast<uint8_t*>(out));
  else if (inSize_ == 1) applyTyped(t, static_cast<const uint8_t*>(in), n, static_cast<uint16_t*>(out));
  else if (outSize_ == 1) applyTyped(t, static_cast<const uint16_t*>(in), n, static_cast<uint8_t*>(out));
  else applyTyped(t, static_cast<const uint16_t*>(in), n, static_cast<uint16_t*>(out));
}

void StoredValueTable::applyAlongRuns(const std::vector<CopyRun>& runs, const void* in, void* out) const {
  const uint16_t* t = bits_.data();
  if (inSize_ == 1 && outSize_ == 1)
    applyRunsTyped(t, runs, static_cast<const uint8_t*>(in), static_cast<uint8_t*>(out));
  else if (inSize_ == 1) applyRunsTyped(t, runs, static_cast<const uint8_t*>(in), static_cast<uint16_t*>(out));
  else if (outSize_ == 1) applyRunsTyped(t, runs, static_cast<const uint16_t*>(in), static_cast<uint8_t*>(out));
  else applyRunsTyped(t, runs, static_cast<const uint16_t*>(in), static_cast<uint16_t*>(out));
}

}  // namespace qnn::htp
