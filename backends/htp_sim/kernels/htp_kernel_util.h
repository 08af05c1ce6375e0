// Helpers shared by the HTP integer kernels: argument checks with uniform
// messages, per-tensor encodings, and widening loads / saturating stores of
// the stored integer types.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <vector>

#include "core/kernel_checks.h"
#include "htp_sim/kernels/htp_kernel.h"
#include "quant/fixed_point.h"

namespace qnn::htp {

namespace fx = sdk::quant;

using sdk::broadcastShapes;
using sdk::checkArity;
using sdk::checkDType;
using sdk::checkOutputDims;
using sdk::checkRank;
using sdk::dimsToString;
using sdk::readUintTensorParam;

// Base of the fixed-point kernels whose only fused work is a clamp of out[0] (a folded
// activation, Epilogue::clamp), taken before prepare (the HTP contract, core/op_kernel.h):
// fuseClamp records the real bounds (+-inf: open), and the next prepare narrows out[0]'s
// saturation range to them quantized into its encoding, which equals clamping afterwards.
class ClampFusingKernel : public Kernel {
 public:
  bool supportsEpilogue(const sdk::Epilogue& epilogue) const final { return epilogue.clampOnly(); }
  Status setEpilogue(const sdk::Epilogue& epilogue) final {
    if (!epilogue.clampOnly()) return sdk::notSupported("this kernel fuses only a clamp of its output");
    if (epilogue.clamp) fuseClamp(epilogue.clamp->lo, epilogue.clamp->hi);
    return Status::ok();
  }

 protected:
  virtual void fuseClamp(double realMin, double realMax) = 0;
};

// The fixed-point activation types the integer kernels compute on.
constexpr std::initializer_list<DType> kActivationTypes = {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16,
                                                           DType::kSFixed16};

// A per-tensor encoding. Integer (non-fixed-point) tensors get scale 1, offset 0.
struct Encoding {
  float scale = 1.f;
  int32_t offset = 0;
};
// Reads the per-tensor encoding of t; fails (naming op and role) if a fixed-point
// tensor has no scale/offset encoding or a scale that is not finite and > 0.
Status tensorEncoding(const char* op, const char* role, const TensorView& t, Encoding* out);
// Per-channel (or per-tensor, repeated) encodings of a weight-like tensor along
// `axis`; `channels` entries.
Status channelEncodings(const char* op, const char* role, const TensorView& t, uint32_t axis, uint32_t channels,
                        std::vector<Encoding>* out);

inline fx::QuantRange rangeOf(const TensorView& t) { return fx::quantRange(t.dtype, t.quant.bitwidth); }

// Decomposes a real multiplier or fails with a message naming the op.
Status multiplierFor(const char* op, double real, fx::FixedPointMultiplier* out);

// Stored element i of an integer/fixed-point tensor, widened (inline: the
// per-element loops of the generic kernel paths call it).
inline int64_t loadInt(const TensorView& t, size_t i) {
  switch (t.dtype) {
    case DType::kUFixed8: case DType::kUInt8: case DType::kBool8: return t.as<const uint8_t>()[i];
    case DType::kSFixed8: case DType::kInt8: return t.as<const int8_t>()[i];
    case DType::kUFixed16: case DType::kUInt16: return t.as<const uint16_t>()[i];
    case DType::kSFixed16: case DType::kInt16: return t.as<const int16_t>()[i];
    case DType::kSFixed32: case DType::kInt32: return t.as<const int32_t>()[i];
    case DType::kUFixed32: case DType::kUInt32: return t.as<const uint32_t>()[i];
    case DType::kInt64: return t.as<const int64_t>()[i];
    default: return 0;
  }
}
// Every element of t, widened.
std::vector<int32_t> loadAll(const TensorView& t);
// Stores v (already saturated to the dtype's range) as element i.
inline void storeInt(const TensorView& t, size_t i, int64_t v) {
  switch (t.dtype) {
    case DType::kUFixed8: case DType::kUInt8: case DType::kBool8: t.as<uint8_t>()[i] = uint8_t(v); break;
    case DType::kSFixed8: case DType::kInt8: t.as<int8_t>()[i] = int8_t(v); break;
    case DType::kUFixed16: case DType::kUInt16: t.as<uint16_t>()[i] = uint16_t(v); break;
    case DType::kSFixed16: case DType::kInt16: t.as<int16_t>()[i] = int16_t(v); break;
    case DType::kSFixed32: case DType::kInt32: t.as<int32_t>()[i] = int32_t(v); break;
    case DType::kUFixed32: case DType::kUInt32: t.as<uint32_t>()[i] = uint32_t(v); break;
    case DType::kInt64: t.as<int64_t>()[i] = v; break;
    default: break;
  }
}
// n elements from `first` on: the dtype switch once per call, not per element
// (the hot loops of the weighted ops).
void storeInts(const TensorView& t, size_t first, const int64_t* values, size_t n);
// Element i of out (i < n) = fx::quantizeValue(x[i], e.scale, e.offset, range), and
// out[i] = fx::dequantizeValue(element i of t, e.scale, e.offset) for every element of t:
// on AVX-512 for 8/16-bit fixed point (quant_cast.cpp), the same values.
void quantizeFloats(const float* x, size_t n, Encoding e, fx::QuantRange range, const TensorView& out);
void dequantizeAll(const TensorView& t, Encoding e, float* out);
// dst[j] = TA(element (first + j * step) + shift) for j < n.
void loadShifted(const TensorView& t, size_t first, size_t step, size_t n, int32_t shift, uint8_t* dst);
void loadShifted(const TensorView& t, size_t first, size_t step, size_t n, int32_t shift, uint16_t* dst);

// Converts stored values of one encoding into another with the fixed-point rule:
// out = saturate(applyMultiplier(q + in.offset, s_in / s_out) - out.offset).
// Same dtype and encoding is a plain copy.
class Requantizer {
 public:
  Status prepare(const char* op, const TensorView& in, const TensorView& out);
  bool isIdentity() const { return identity_; }
  int64_t operator()(int64_t q) const { return fx::requantize(q + inOffset_, m_, outOffset_, range_); }
  int32_t inOffset() const { return inOffset_; }
  int32_t outOffset() const { return outOffset_; }
  fx::FixedPointMultiplier multiplier() const { return m_; }
  fx::QuantRange range() const { return range_; }

 private:
  bool identity_ = true;
  int32_t inOffset_ = 0, outOffset_ = 0;
  fx::FixedPointMultiplier m_;
  fx::QuantRange range_;
};

// Index of the input element each output element reads, for a right-aligned
// broadcast of `in` to `out`; empty when the shapes are equal (identity).
std::vector<uint32_t> broadcastIndexMap(const std::vector<uint32_t>& in, const std::vector<uint32_t>& out);

// Threads of the simulator's worker pool (QNN_HTP_SIM_THREADS, default all cores),
// the caller included.
unsigned hostThreads();

// Runs fn(begin, end) over [0, n) in at most hostThreads() contiguous chunks on
// the worker pool when `work` (multiply-adds or element operations) is large
// enough to pay for waking it, else inline (also when the pool is busy with
// another graph). fn must be safe to run concurrently on disjoint ranges;
// results do not depend on the split.
// (Inline: one chunk calls fn directly, without making a std::function, which allocates for
// lambdas capturing more than two pointers.)
size_t parallelChunkCount(size_t n, double work);
void parallelChunksOnPool(size_t n, size_t threads, const std::function<void(size_t, size_t)>& fn);
template <typename Fn>
void parallelChunks(size_t n, double work, const Fn& fn) {
  const size_t threads = parallelChunkCount(n, work);
  if (threads > 1) return parallelChunksOnPool(n, threads, fn);
  if (n) fn(0, n);
}

// FullyConnected's shape rule: in[0] is rows of k = weights dim 1 (failing
// otherwise); the output is [n] for a rank-1 input, in[0]'s leading dims + [n]
// with keep_dims, else [rows, n]. Sets *rows.
Status fullyConnectedShape(const TensorView& in, size_t k, size_t n, bool keepDims, size_t* rows,
                           std::vector<uint32_t>* outDims);

// ElementWiseNeuron on the HTP runs operation HARD_SIGMOID (ONNX HardSigmoid):
// y = max(0, min(1, alpha * x + beta)), alpha 0.2 and beta 0.5 by default. Reads
// them, or refuses another operation (NOT_SUPPORTED, naming it).
struct HardSigmoidParams {
  float alpha = 0.2f, beta = 0.5f;
};
Status neuronHardSigmoidParams(const OpParams& params, HardSigmoidParams* out);

// TopK (integer and fp16 kernels): k (mandatory, > 0) and largest (default true);
// the shape rule (k of in[0]'s last dim in both outputs, out[1] INT_32 / UINT_32),
// setting *rowLen; and the order of the k best of row[0..len): the largest (or
// smallest) first, equal values the larger index first (as the CPU backend).
Status topKParams(const OpParams& params, uint32_t* k, bool* largest);
Status topKShapes(const std::vector<TensorView>& in, const std::vector<TensorView>& out, uint32_t k, size_t* rowLen);
template <typename T>
void topKOrder(const T* row, size_t len, uint32_t k, bool largest, std::vector<uint32_t>* order) {
  order->resize(len);
  for (size_t i = 0; i < len; ++i) (*order)[i] = uint32_t(i);
  std::partial_sort(order->begin(), order->begin() + k, order->end(), [&](uint32_t i, uint32_t j) {
    if (row[i] == row[j]) return i > j;
    return largest ? row[i] > row[j] : row[i] < row[j];
  });
}

// Row-major strides of dims.
std::vector<size_t> stridesOf(const std::vector<uint32_t>& dims);

}  // namespace qnn::htp
