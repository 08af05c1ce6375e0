// Shared fast paths of the HTP kernels that move or map stored values:
//  * CopyRun: output elements [dst, dst + len) read input `input` at src, src + stride, ...
//    (src < 0: the pad value). Built once at prepare from an element map, so a Concat,
//    Reshape or broadcast is a few memcpy calls and a Transpose a few strided loops
//    instead of one map entry read per element.
//  * StoredValueTable: a function of one 8/16-bit stored value, tabulated over every bit
//    pattern of the input type at prepare by the scalar rule (so its results are the
//    rule's bits), applied by a typed loop.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {

struct CopyRun {
  size_t dst = 0, len = 0;
  int64_t src = -1, stride = 1;
  uint32_t input = 0;
  // > 1 on the first of `block` runs that together transpose a block: run i of them reads
  // src + i with this stride into dst + i * len (a Transpose's output rows), copied tile by tile.
  uint32_t block = 1;
};

// Runs of the sources of elements 0..n-1 (source(i) sets input and index, index < 0 for a
// pad value). Returns false (runs cleared) when the runs would be too short to pay
// (on average fewer than minAverage elements).
bool buildCopyRuns(size_t n, const std::function<void(size_t, uint32_t*, int64_t*)>& source,
                   std::vector<CopyRun>* runs, size_t minAverage = 4);

// Copies stored values of elementSize bytes (1, 2 or 4) along the runs; in[r.input] is the
// input's data. Returns false for another element size.
bool copyAlongRuns(const std::vector<CopyRun>& runs, const std::vector<const void*>& in, void* out, size_t elementSize,
                   uint32_t padBits);

class StoredValueTable {
 public:
  // Tabulates f over every stored value of `in` (8 or 16 bits) into stored values of `out`
  // (8 or 16 bits; f's results must already be saturated to out's range). False (and no
  // table) for other dtypes.
  bool build(DType in, DType out, const std::function<int64_t(int64_t)>& f);
  bool empty() const { return bits_.empty(); }
  // f(q) == q with equal dtypes: the mapping is a plain copy.
  bool identity() const { return identity_; }
  // Declares f(q) = requantize(q + inOffset, m, outOffset, range) (a Convert): apply() then
  // computes it with AVX-512 on 8 values at a time instead of reading the table, after checking
  // at build time that this gives the table's every entry (else the table stays in use).
  void useRequantization(int32_t inOffset, fx::FixedPointMultiplier m, int32_t outOffset, fx::QuantRange range);
  bool vectorized() const { return vector_; }
  // out[i] = f(in[i]) for i < n.
  void apply(const void* in, size_t n, void* out) const;
  // out[r.dst + j] = f(in[r.src + j * r.stride]) along runs of one input (no pad runs).
  void applyAlongRuns(const std::vector<CopyRun>& runs, const void* in, void* out) const;

 private:
  std::vector<uint16_t> bits_;  // stored bits of f(value whose bits are the index)
  size_t inSize_ = 0, outSize_ = 0;
  bool identity_ = false;
  bool signedIn_ = false;
  // useRequantization's vector form: acc = q + inOffset_; (acc * mantissa + half + (p < 0 ? -1 : 0)) >> shift.
  bool vector_ = false;
  int64_t vInOffset_ = 0, vMantissa_ = 0, vOutOffset_ = 0, vLo_ = 0, vHi_ = 0;
  int vShift_ = 0;
  size_t applyVector(const void* in, size_t n, void* out) const;
};

}  // namespace qnn::htp
