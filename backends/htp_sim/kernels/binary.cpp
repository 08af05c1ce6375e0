// Quantized element-wise binary ops with numpy broadcasting.
//  * Add / Subtract: both inputs are brought to a common fine scale
//    s_c = 2 * max(s_a, s_b) / 2^20:  A = applyMultiplier((a + o_a) * 2^20, s_a / (2 max))
//    (same for B), then out = requantize(A +- B, 2 max / (2^20 s_out)).
//  * Multiply: out = requantize((a + o_a) * (b + o_b), s_a * s_b / s_out).
//  * Maximum / Minimum: each input requantized to the output encoding, then max/min.
//  * Divide: Q = round_half_away((a + o_a) * 2^16 / (b + o_b)), out = requantize(Q, s_a / (s_b s_out 2^16));
//    a zero divisor gives the range end of the dividend's sign (real 0 for 0 / 0).
//  * SquaredDifference: D = A - B at the common scale 2 max(s_a, s_b) / 2^8 (as Add,
//    with 8 fraction bits so D^2 fits int64), out = requantize(D^2, (2 max / 2^8)^2 / s_out).
//  * FloorDiv: k = floor(real_a / real_b), exact on the rationals (q + o) * s with
//    the scales' 24-bit mantissas; out = quantize(k). A zero divisor is treated as Divide's.
// INT_32 tensors (Add, Subtract, Multiply, Divide) use plain integer arithmetic,
// saturated to int32 (Divide truncates; x / 0 = 0).
// A fused activation (Epilogue::clamp, set before prepare) narrows the output saturation range;
// since every rule above ends in a saturation (Maximum / Minimum: of both
// operands), that equals clamping the result afterwards.
// 8-bit fast path (Add, Subtract, Multiply, Maximum, Minimum): the per-operand
// part of the rule (A, B above, or the offset-shifted value, or the requantized
// value) is a 256-entry table over the stored bytes, built at prepare with the
// scalar code, combined and requantized in a vector loop (byte_paths.h), for
// equal shapes and for an operand repeated along the trailing dims (scalar,
// per-channel last axis). The results are the scalar rule's bits.
// Constant operand: when one input is static with one stored value throughout (an
// Expand lowered as an Add of zeros, a Multiply by a scalar), the op is a function of
// the other operand's stored value, tabulated at prepare by the scalar rule over all
// 2^8 / 2^16 of them, and applied along the broadcast as runs (a plain broadcast copy
// when the table is the identity). Same bits as the element loop.
// Two activations of 8/16 bits (Add, Subtract, Multiply; any dtype mix the byte path does
// not take), equal shapes or one repeated along the trailing dims: a typed loop per
// dtype triple with the multipliers unpacked at prepare. The final requantization of a
// sum beyond int32 splits it as hi * 2^16 + lo so the exact rounding stays in int64
// (instead of applyMultiplier's 128-bit branch); prepare checks the bounds. Same bits.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>

#include "htp_sim/kernels/binary_wide.h"
#include "htp_sim/kernels/byte_paths.h"
#include "htp_sim/kernels/copy_runs.h"
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {

std::atomic<bool> gBinaryWidePath{true};

namespace {

enum class BinaryOp { kAdd, kSubtract, kMultiply, kMaximum, kMinimum, kDivide, kSquaredDifference, kFloorDiv };

__extension__ typedef __int128 Wide;

// A float scale as mantissa * 2^exponent with an integer mantissa (< 2^24).
void splitScale(float scale, int64_t* mantissa, int* exponent) {
  const double f = std::frexp(double(scale), exponent);
  *mantissa = int64_t(std::ldexp(f, 24));
  *exponent -= 24;
}

// floor(num / den) for den != 0.
Wide floorDivide(Wide num, Wide den) {
  if (den < 0) num = -num, den = -den;
  const Wide q = num / den;
  return (num % den != 0 && num < 0) ? q - 1 : q;
}

constexpr int kCommonScaleBits = 20;
constexpr int kSquaredScaleBits = 8;
constexpr int kQuotientBits = 16;

class BinaryKernel final : public ClampFusingKernel {
 public:
  BinaryKernel(std::string op, BinaryOp kind) : op_(std::move(op)), kind_(kind) {}

  Status init(const OpParams&) override { return Status::ok(); }

  void fuseClamp(double realMin, double realMax) override {
    clampMin_ = realMin;
    clampMax_ = realMax;
    fused_ = true;
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 1));
    integer_ = inputs[0].dtype == DType::kInt32;
    const bool intAllowed = kind_ == BinaryOp::kAdd || kind_ == BinaryOp::kSubtract ||
                            kind_ == BinaryOp::kMultiply || kind_ == BinaryOp::kDivide;
    if (integer_ && intAllowed) {
      for (const TensorView* t : {&inputs[1], &outputs[0]})
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, t == &inputs[1] ? "in[1]" : "out[0]", *t, {DType::kInt32}));
    } else {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1]", inputs[1], kActivationTypes));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    }
    std::vector<uint32_t> outDims;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, inputs[0].dims, inputs[1].dims, &outDims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], outDims));
    bytePath_ = false;
    if (integer_) {
      if (fused_) return sdk::unsupportedDType(op_ + ": a fused activation needs a fixed-point output");
      indexA_ = broadcastIndexMap(inputs[0].dims, outDims);
      indexB_ = broadcastIndexMap(inputs[1].dims, outDims);
      return Status::ok();
    }

    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ea_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[1]", inputs[1], &eb_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout_));
    range_ = rangeOf(outputs[0]);
    if (fused_) {
      const fx::QuantRange full = range_;
      if (clampMin_ > -INFINITY)
        range_.lo = std::max(range_.lo, fx::quantizeValue(clampMin_, eout_.scale, eout_.offset, full));
      if (clampMax_ < INFINITY)
        range_.hi = std::min(range_.hi, fx::quantizeValue(clampMax_, eout_.scale, eout_.offset, full));
      if (range_.lo > range_.hi) range_.hi = range_.lo;
    }
    switch (kind_) {
      case BinaryOp::kAdd:
      case BinaryOp::kSubtract: {
        const double twiceMax = 2.0 * std::max(double(ea_.scale), double(eb_.scale));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ea_.scale) / twiceMax, &ma_));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(eb_.scale) / twiceMax, &mb_));
        QNN_SDK_RETURN_IF_ERROR(
            multiplierFor(op, twiceMax / (double(1 << kCommonScaleBits) * double(eout_.scale)), &mout_));
        break;
      }
      case BinaryOp::kMultiply:
        QNN_SDK_RETURN_IF_ERROR(
            multiplierFor(op, double(ea_.scale) * double(eb_.scale) / double(eout_.scale), &mout_));
        break;
      case BinaryOp::kMaximum:
      case BinaryOp::kMinimum:
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ea_.scale) / double(eout_.scale), &ma_));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(eb_.scale) / double(eout_.scale), &mb_));
        break;
      case BinaryOp::kDivide:
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(
            op, double(ea_.scale) / (double(eb_.scale) * double(eout_.scale) * double(1 << kQuotientBits)), &mout_));
        zeroOut_ = fx::quantizeValue(0.0, eout_.scale, eout_.offset, range_);
        break;
      case BinaryOp::kFloorDiv: {
        int ea, eb;
        splitScale(ea_.scale, &mantA_, &ea);
        splitScale(eb_.scale, &mantB_, &eb);
        scaleShift_ = ea - eb;
        if (scaleShift_ > 60 || scaleShift_ < -60)
          return sdk::notSupported("ElementWiseFloorDiv: the input scales differ by more than 2^60");
        zeroOut_ = fx::quantizeValue(0.0, eout_.scale, eout_.offset, range_);
        break;
      }
      case BinaryOp::kSquaredDifference: {
        const double twiceMax = 2.0 * std::max(double(ea_.scale), double(eb_.scale));
        const double step = twiceMax / double(1 << kSquaredScaleBits);
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(ea_.scale) / twiceMax, &ma_));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, double(eb_.scale) / twiceMax, &mb_));
        QNN_SDK_RETURN_IF_ERROR(multiplierFor(op, step * step / double(eout_.scale), &mout_));
        break;
      }
    }
    prepareBytePath(inputs, outputs[0]);
    if (!bytePath_) prepareConstantOperand(inputs, outputs[0], outDims);
    wide_.loop = nullptr;
    if (!bytePath_ && !constantPath_) prepareWidePath(inputs, outputs[0]);
    if (!bytePath_ && !constantPath_ && !wide_.loop) {
      indexA_ = broadcastIndexMap(inputs[0].dims, outDims);
      indexB_ = broadcastIndexMap(inputs[1].dims, outDims);
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = outputs[0].numElements();
    if (bytePath_) {
      executeBytes(inputs, outputs[0], n);
      return Status::ok();
    }
    if (wide_.loop) {
      executeWide(inputs, outputs[0], n);
      return Status::ok();
    }
    if (constantPath_) {
      const void* x = inputs[dynamicSide_].data;
      if (table_.identity()) {
        source_[0] = x;  // (a member: no vector made per execute)
        copyAlongRuns(runs_, source_, outputs[0].data, sdk::dtypeSize(outputs[0].dtype), 0);
      }
      else table_.applyAlongRuns(runs_, x, outputs[0].data);
      return Status::ok();
    }
    for (size_t i = 0; i < n; ++i) {
      const int64_t a = loadInt(inputs[0], indexA_.empty() ? i : indexA_[i]);
      const int64_t b = loadInt(inputs[1], indexB_.empty() ? i : indexB_[i]);
      storeInt(outputs[0], i, integer_ ? integerResult(a, b) : quantizedResult(a, b));
    }
    return Status::ok();
  }

 private:
  int64_t integerResult(int64_t a, int64_t b) const {
    if (kind_ == BinaryOp::kDivide) return b == 0 ? 0 : fx::saturate(a / b, fx::quantRange(DType::kInt32));
    const int64_t v = kind_ == BinaryOp::kAdd ? a + b : kind_ == BinaryOp::kSubtract ? a - b : a * b;
    return fx::saturate(v, fx::quantRange(DType::kInt32));
  }

  int64_t quantizedResult(int64_t a, int64_t b) const {
    switch (kind_) {
      case BinaryOp::kAdd:
      case BinaryOp::kSubtract: {
        const int64_t ca = commonScaleA(a, kCommonScaleBits), cb = commonScaleB(b, kCommonScaleBits);
        return fx::requantize(kind_ == BinaryOp::kAdd ? ca + cb : ca - cb, mout_, eout_.offset, range_);
      }
      case BinaryOp::kMultiply:
        return fx::requantize((a + ea_.offset) * (b + eb_.offset), mout_, eout_.offset, range_);
      case BinaryOp::kMaximum:
      case BinaryOp::kMinimum: {
        const int64_t ra = requantizedA(a), rb = requantizedB(b);
        return kind_ == BinaryOp::kMaximum ? std::max(ra, rb) : std::min(ra, rb);
      }
      case BinaryOp::kDivide: {
        int64_t num = a + ea_.offset, den = b + eb_.offset;
        if (den == 0) return num > 0 ? range_.hi : num < 0 ? range_.lo : zeroOut_;
        if (den < 0) num = -num, den = -den;
        return fx::requantize(fx::roundedDivide(num * (int64_t(1) << kQuotientBits), den), mout_, eout_.offset, range_);
      }
      case BinaryOp::kFloorDiv: {
        Wide num = Wide(a + ea_.offset) * mantA_, den = Wide(b + eb_.offset) * mantB_;
        if (den == 0) return num > 0 ? range_.hi : num < 0 ? range_.lo : zeroOut_;
        if (scaleShift_ >= 0) num *= Wide(1) << scaleShift_;
        else den *= Wide(1) << -scaleShift_;
        return fx::quantizeValue(double(floorDivide(num, den)), eout_.scale, eout_.offset, range_);
      }
      case BinaryOp::kSquaredDifference: {
        const int64_t ca = commonScaleA(a, kSquaredScaleBits), cb = commonScaleB(b, kSquaredScaleBits);
        return fx::requantize((ca - cb) * (ca - cb), mout_, eout_.offset, range_);
      }
    }
    return 0;
  }

  // The per-operand parts of the rules: an input at the common fine scale
  // (Add, Subtract, SquaredDifference) and an input requantized to the output
  // encoding (Maximum, Minimum).
  // round_half_away((q + o) * 2^bits * m / 2^(31 - e)) is the same rational as
  // round_half_away((q + o) * m / 2^(31 - e - bits)): the multiplier's exponent
  // takes the 2^bits, so 16-bit inputs stay in applyMultiplier's int64 branch
  // (the 128-bit one was a sixth of an LLM decode step). Same bits.
  static fx::FixedPointMultiplier scaledUp(fx::FixedPointMultiplier m, int bits) {
    if (m.mantissa != 0) m.exponent += bits;
    return m;
  }
  int64_t commonScaleA(int64_t a, int bits) const { return fx::applyMultiplier(a + ea_.offset, scaledUp(ma_, bits)); }
  int64_t commonScaleB(int64_t b, int bits) const { return fx::applyMultiplier(b + eb_.offset, scaledUp(mb_, bits)); }
  int64_t requantizedA(int64_t a) const { return fx::requantize(a + ea_.offset, ma_, eout_.offset, range_); }
  int64_t requantizedB(int64_t b) const { return fx::requantize(b + eb_.offset, mb_, eout_.offset, range_); }

  // Enables the 8-bit fast path when the op, dtypes, shapes and value ranges allow it.
  void prepareBytePath(const std::vector<TensorView>& inputs, const TensorView& out) {
    const size_t n = out.numElements();
    lengthA_ = repeatedBlock(inputs[0].dims, out.dims);
    lengthB_ = repeatedBlock(inputs[1].dims, out.dims);
    if (!isByteActivation(inputs[0]) || !isByteActivation(inputs[1]) || !isByteActivation(out) || n == 0 ||
        lengthA_ == 0 || lengthB_ == 0 || std::max(lengthA_, lengthB_) != n)
      return;
    const DType ta = inputs[0].dtype, tb = inputs[1].dtype;
    int64_t loA = INT64_MAX, hiA = INT64_MIN, loB = INT64_MAX, hiB = INT64_MIN;
    for (int byte = 0; byte < 256; ++byte) {
      const int64_t a = byteValue(ta, uint8_t(byte)), b = byteValue(tb, uint8_t(byte));
      int64_t va, vb;
      switch (kind_) {
        case BinaryOp::kAdd: va = commonScaleA(a, kCommonScaleBits), vb = commonScaleB(b, kCommonScaleBits); break;
        case BinaryOp::kSubtract: va = commonScaleA(a, kCommonScaleBits), vb = -commonScaleB(b, kCommonScaleBits); break;
        case BinaryOp::kMultiply: va = a + ea_.offset, vb = b + eb_.offset; break;
        case BinaryOp::kMaximum:
        case BinaryOp::kMinimum: va = requantizedA(a), vb = requantizedB(b); break;
        default: return;
      }
      if (va < INT32_MIN || va > INT32_MAX || vb < INT32_MIN || vb > INT32_MAX) return;
      tableA_[size_t(byte)] = int32_t(va), tableB_[size_t(byte)] = int32_t(vb);
      loA = std::min(loA, va), hiA = std::max(hiA, va), loB = std::min(loB, vb), hiB = std::max(hiB, vb);
    }
    combine_ = kind_ == BinaryOp::kMaximum   ? ByteCombine::kMax
               : kind_ == BinaryOp::kMinimum ? ByteCombine::kMin
               : kind_ == BinaryOp::kMultiply ? ByteCombine::kProduct
                                              : ByteCombine::kSum;
    if (combine_ == ByteCombine::kSum || combine_ == ByteCombine::kProduct) {
      // The loop combines in int32 and uses applyMultiplier's int32 branch.
      requant_ = byteRequant(mout_, eout_.offset, range_);
      if (!requant_.usable) return;
      int64_t lo = loA + loB, hi = hiA + hiB;
      if (combine_ == ByteCombine::kProduct) {
        lo = std::min({loA * loB, loA * hiB, hiA * loB, hiA * hiB});
        hi = std::max({loA * loB, loA * hiB, hiA * loB, hiA * hiB});
      }
      if (lo < INT32_MIN || hi > INT32_MAX) return;
    }
    bytePath_ = true;
  }

  // Enables the constant-operand path (see the top of the file).
  void prepareConstantOperand(const std::vector<TensorView>& inputs, const TensorView& out,
                              const std::vector<uint32_t>& outDims) {
    constantPath_ = false;
    for (size_t side = 0; side < 2 && !constantPath_; ++side) {
      const TensorView& c = inputs[side];
      const TensorView& x = inputs[1 - side];
      const size_t count = c.numElements();
      if (!c.data || count == 0 || x.data || out.numElements() == 0) continue;
      const int64_t value = loadInt(c, 0);
      bool uniform = true;
      for (size_t i = 1; i < count && uniform; ++i) uniform = loadInt(c, i) == value;
      if (!uniform) continue;
      const bool built = table_.build(x.dtype, out.dtype, [&](int64_t q) {
        return side == 0 ? quantizedResult(value, q) : quantizedResult(q, value);
      });
      if (!built) continue;
      const std::vector<uint32_t> index = broadcastIndexMap(x.dims, outDims);
      if (!buildCopyRuns(
              out.numElements(),
              [&index](size_t i, uint32_t* input, int64_t* at) { *input = 0, *at = index.empty() ? int64_t(i) : index[i]; },
              &runs_))
        continue;
      dynamicSide_ = 1 - side;
      constantPath_ = true;
    }
  }

  // Length of the trailing block of `out` that `in` holds and repeats (all of
  // out when the shapes are equal, 1 for a scalar, C for a per-channel vector
  // [C] or [1, .., C]), or 0 when `in` broadcasts in another way.
  static size_t repeatedBlock(const std::vector<uint32_t>& in, const std::vector<uint32_t>& out) {
    if (in.size() > out.size()) return 0;
    size_t first = 0, length = 1;
    while (first < in.size() && in[first] == 1) ++first;
    for (size_t d = first; d < in.size(); ++d) {
      if (in[d] != out[out.size() - in.size() + d]) return 0;
      length *= in[d];
    }
    return length;
  }

  void executeBytes(const std::vector<TensorView>& inputs, const TensorView& out, size_t n) {
    const uint8_t* a = inputs[0].as<const uint8_t>();
    const uint8_t* b = inputs[1].as<const uint8_t>();
    uint8_t* y = out.as<uint8_t>();
    if (lengthA_ == lengthB_) {
      combineBytes(combine_, tableA_, tableB_, requant_, a, b, y, n);
      return;
    }
    // One operand repeats every `period` elements: it is tiled into a chunk
    // long enough for the vector loop, the other operand streams past it.
    const bool aRepeats = lengthA_ < lengthB_;
    const uint8_t* block = aRepeats ? a : b;
    const size_t period = aRepeats ? lengthA_ : lengthB_;
    const size_t chunk = period * std::max<size_t>(1, kMinChunk / period);
    if (chunk > period) {
      repeated_.resize(chunk);
      for (size_t j = 0; j < chunk; j += period) std::memcpy(&repeated_[j], block, period);
    }
    const uint8_t* tiled = chunk > period ? repeated_.data() : block;  // a long period as it is
    for (size_t first = 0; first < n; first += chunk) {
      const size_t len = std::min(chunk, n - first);
      combineBytes(combine_, tableA_, tableB_, requant_, aRepeats ? tiled : a + first, aRepeats ? b + first : tiled,
                   y + first, len);
    }
  }

  static constexpr size_t kMinChunk = 1024;

  // Enables the typed loop of two 8/16-bit activations (see the top of the file).
  void prepareWidePath(const std::vector<TensorView>& inputs, const TensorView& out) {
    if (!gBinaryWidePath.load() || integer_) return;
    if (kind_ != BinaryOp::kAdd && kind_ != BinaryOp::kSubtract && kind_ != BinaryOp::kMultiply) return;
    const size_t n = out.numElements();
    lengthA_ = repeatedBlock(inputs[0].dims, out.dims);
    lengthB_ = repeatedBlock(inputs[1].dims, out.dims);
    if (n == 0 || lengthA_ == 0 || lengthB_ == 0 || std::max(lengthA_, lengthB_) != n) return;
    WideBinary w;
    w.multiply = kind_ == BinaryOp::kMultiply;
    w.subtract = kind_ == BinaryOp::kSubtract;
    w.offA = ea_.offset, w.offB = eb_.offset;
    // Stored value ranges of the input dtypes, and each operand's part of the rule (monotone).
    const fx::QuantRange ra = fx::quantRange(inputs[0].dtype), rb = fx::quantRange(inputs[1].dtype);
    int64_t loA = ra.lo + ea_.offset, hiA = ra.hi + ea_.offset, loB = rb.lo + eb_.offset, hiB = rb.hi + eb_.offset;
    auto operandShift = [](fx::FixedPointMultiplier m, int64_t* mant, int64_t* half, int* shift) {
      *shift = 31 - m.exponent;
      *mant = m.mantissa;
      *half = (*shift >= 1 && *shift <= 62) ? int64_t(1) << (*shift - 1) : 0;
      return *shift >= 1 && *shift <= 62;
    };
    const int64_t limit = int64_t(1) << 31;
    for (int64_t v : {loA, hiA, loB, hiB})
      if (v <= -limit || v >= limit) return;
    int64_t lo, hi;
    if (w.multiply) {
      lo = std::min({loA * loB, loA * hiB, hiA * loB, hiA * hiB});
      hi = std::max({loA * loB, loA * hiB, hiA * loB, hiA * hiB});
    } else {
      const fx::FixedPointMultiplier ma = scaledUp(ma_, kCommonScaleBits), mb = scaledUp(mb_, kCommonScaleBits);
      if (!operandShift(ma, &w.mantA, &w.halfA, &w.shiftA) || !operandShift(mb, &w.mantB, &w.halfB, &w.shiftB))
        return;
      loA = fx::applyMultiplier(loA, ma), hiA = fx::applyMultiplier(hiA, ma);
      loB = fx::applyMultiplier(loB, mb), hiB = fx::applyMultiplier(hiB, mb);
      lo = w.subtract ? loA - hiB : loA + loB;
      hi = w.subtract ? hiA - loB : hiA + hiB;
    }
    const int64_t sumLimit = int64_t(1) << 46;  // the high part of a sum fits int32
    if (lo <= -sumLimit || hi >= sumLimit) return;
    int64_t halfOut;
    if (!operandShift(mout_, &w.mantOut, &halfOut, &w.shiftOut) || w.shiftOut < 16 || w.mantOut == 0) return;
    w.halfOut = halfOut;
    w.outOffset = eout_.offset, w.lo = range_.lo, w.hi = range_.hi;
    w.loop = wideBinaryLoop(inputs[0].dtype, inputs[1].dtype, out.dtype, w.multiply);
    wide_ = w;
    sizeA_ = sdk::dtypeSize(inputs[0].dtype), sizeB_ = sdk::dtypeSize(inputs[1].dtype);
  }

  void executeWide(const std::vector<TensorView>& inputs, const TensorView& out, size_t n) {
    const uint8_t* a = inputs[0].as<const uint8_t>();
    const uint8_t* b = inputs[1].as<const uint8_t>();
    uint8_t* y = out.as<uint8_t>();
    const size_t sizeOut = sdk::dtypeSize(out.dtype);
    if (lengthA_ == lengthB_) {
      wide_.loop(wide_, a, b, y, n);
      return;
    }
    // The repeated operand tiled into a chunk of whole periods (as executeBytes).
    const bool aRepeats = lengthA_ < lengthB_;
    const uint8_t* block = aRepeats ? a : b;
    const size_t period = aRepeats ? lengthA_ : lengthB_, size = aRepeats ? sizeA_ : sizeB_;
    const size_t chunk = period * std::max<size_t>(1, kMinChunk / period);
    if (chunk > period) {
      repeated_.resize(chunk * size);
      for (size_t j = 0; j < chunk; j += period) std::memcpy(&repeated_[j * size], block, period * size);
    }
    const uint8_t* tiled = chunk > period ? repeated_.data() : block;
    for (size_t first = 0; first < n; first += chunk) {
      const size_t len = std::min(chunk, n - first);
      wide_.loop(wide_, aRepeats ? tiled : a + first * sizeA_, aRepeats ? b + first * sizeB_ : tiled,
                 y + first * sizeOut, len);
    }
  }

  std::string op_;
  BinaryOp kind_;
  bool integer_ = false;
  std::vector<uint32_t> indexA_, indexB_;
  Encoding ea_, eb_, eout_;
  fx::FixedPointMultiplier ma_, mb_, mout_;
  fx::QuantRange range_;
  int64_t zeroOut_ = 0;
  int64_t mantA_ = 0, mantB_ = 0;  // FloorDiv
  int scaleShift_ = 0;
  bool fused_ = false;
  double clampMin_ = -INFINITY, clampMax_ = INFINITY;
  // 8-bit fast path.
  bool bytePath_ = false;
  size_t lengthA_ = 0, lengthB_ = 0;  // repeatedBlock of each input
  ByteCombine combine_ = ByteCombine::kSum;
  int32_t tableA_[256] = {}, tableB_[256] = {};
  ByteRequant requant_;
  std::vector<uint8_t> repeated_;  // execute scratch
  std::vector<const void*> source_{nullptr};  // the constant path's copy source
  // Two 8/16-bit activations.
  WideBinary wide_;
  size_t sizeA_ = 1, sizeB_ = 1;
  // Constant-operand path.
  bool constantPath_ = false;
  size_t dynamicSide_ = 0;
  StoredValueTable table_;
  std::vector<CopyRun> runs_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantBinary(const std::string& op) {
  if (op == "ElementWiseAdd") return std::make_unique<BinaryKernel>(op, BinaryOp::kAdd);
  if (op == "ElementWiseSubtract") return std::make_unique<BinaryKernel>(op, BinaryOp::kSubtract);
  if (op == "ElementWiseMultiply") return std::make_unique<BinaryKernel>(op, BinaryOp::kMultiply);
  if (op == "ElementWiseMaximum") return std::make_unique<BinaryKernel>(op, BinaryOp::kMaximum);
  if (op == "ElementWiseMinimum") return std::make_unique<BinaryKernel>(op, BinaryOp::kMinimum);
  if (op == "ElementWiseDivide") return std::make_unique<BinaryKernel>(op, BinaryOp::kDivide);
  if (op == "ElementWiseFloorDiv") return std::make_unique<BinaryKernel>(op, BinaryOp::kFloorDiv);
  if (op == "ElementWiseSquaredDifference") return std::make_unique<BinaryKernel>(op, BinaryOp::kSquaredDifference);
  return nullptr;
}

}  // namespace qnn::htp
