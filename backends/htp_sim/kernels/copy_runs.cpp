#include "copy_runs.h"

#include <cstring>

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
  return true;
}

namespace {
template <typename T>
void copyRunsTyped(const std::vector<CopyRun>& runs, const std::vector<const void*>& in, T* out, T pad) {
  for (const CopyRun& r : runs) {
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

void StoredValueTable::apply(const void* in, size_t n, void* out) const {
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
