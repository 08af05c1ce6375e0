// Independent integer reference of the fixed-point rule (docs/htp-fixed-point.md):
// plain loops over stored values, exact 128-bit arithmetic, and their own
// multiplier decomposition. They share no code with sdk/quant or the HTP
// kernels on purpose: they are the ground truth the fixed-point conformance
// cases compare the kernels with.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/dtype.h"

namespace qnn::conformance::fxref {

using Dims = std::vector<uint32_t>;
using Ints = std::vector<int64_t>;
using sdk::DType;

struct Enc {
  float scale = 1.f;
  int32_t offset = 0;
};

int64_t typeMin(DType t);
int64_t typeMax(DType t);

// The documented rule: M decomposed to a Q31 mantissa / exponent, exact product,
// one rounding half away from zero, minus outOffset, saturated to outType.
int64_t requantize(__int128 acc, double realMultiplier, int32_t outOffset, DType outType);
// nearbyint(float(real) / scale) - offset, the quotient divided in float32 (types
// wider than 16 bits: in double), saturated (NaN -> real 0).
int64_t quantize(double real, Enc e, DType t);
// scale * float(q + offset), in float.
float dequantize(int64_t q, Enc e);

// ---- weighted ops. Accumulators are sum (x + ox)(w + ow) + bias_acc; `accScale`
// receives s_x * s_w[c] per output channel (c = element % channels).
struct ConvGeometry {
  uint32_t strideH = 1, strideW = 1, padTop = 0, padBottom = 0, padLeft = 0, padRight = 0, dilH = 1, dilW = 1;
  uint32_t group = 1;
};
struct Weights {
  Ints values;
  Dims dims;
  std::vector<Enc> enc;  // one per output channel (repeated for per-tensor)
};
struct Bias {
  Ints values;            // empty: no bias
  std::vector<Enc> enc;   // one per output channel
};
// bias_acc[c] = round_half_away(s_b * (b + o_b) / (s_x * s_w[c])), in double.
int64_t biasAccumulator(int64_t b, Enc bias, Enc x, Enc w);

std::vector<__int128> conv2dAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b,
                                const ConvGeometry& g, Dims* outDims);
std::vector<__int128> depthwiseAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b,
                                   const ConvGeometry& g, Dims* outDims);
// Filter [fh, fw, Cin, Cout/group]; w.enc has Cout/group entries (channel o of every group).
std::vector<__int128> transposeConv2dAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b,
                                         const ConvGeometry& g, uint32_t outPadH, uint32_t outPadW, Dims* outDims);
// Per-channel affine on the last axis: (x + o_x) * (w[c] + o_w[c]) + bias_acc[c].
std::vector<__int128> batchnormAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b);
// w dims [N, K].
std::vector<__int128> fullyConnectedAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b,
                                        Dims* outDims);
// b dims [..., K, N] (or [..., N, K] transposed); channels = N.
std::vector<__int128> matMulAcc(const Ints& a, const Dims& ad, Enc ea, const Weights& b, const Bias& bias,
                                bool transA, bool transB, Dims* outDims);
// Requantizes accumulators whose channel is i % accScale.size().
Ints requantizeAll(const std::vector<__int128>& acc, Enc ex, const std::vector<Enc>& w, Enc out, DType outType);

// ---- element-wise ops
enum class Binary { kAdd, kSubtract, kMultiply, kMaximum, kMinimum, kDivide, kSquaredDifference, kFloorDiv };
Ints binary(Binary op, const Ints& a, const Dims& ad, Enc ea, const Ints& b, const Dims& bd, Enc eb, Enc out,
            DType outType, Dims* outDims);
// Comparisons / logic on exact real values; true -> quantize(1) (fixed point) or 1.
enum class Predicate { kEqual, kNotEqual, kGreater, kGreaterEqual, kLess, kLessEqual, kAnd };
Ints compare(Predicate p, const Ints& a, const Dims& ad, Enc ea, const Ints& b, const Dims& bd, Enc eb, Enc out,
             DType outType, Dims* outDims);
// x + o_x >= 0: requantize(x + o_x, s_x / s_y), else requantize((x + o_x)(a + o_a), s_x s_a / s_y);
// a broadcasts onto x.
Ints prelu(const Ints& x, const Dims& xd, Enc ex, const Ints& a, const Dims& ad, Enc ea, Enc out, DType outType);
// c + o_c != 0 ? requantize(a) : requantize(b), all broadcast together.
Ints select(const Ints& c, const Dims& cd, Enc ec, const Ints& a, const Dims& ad, Enc ea, const Ints& b,
            const Dims& bd, Enc eb, Enc out, DType outType, Dims* outDims);
// quantize(f(double(dequantize(q)))) per element.
Ints table(const Ints& x, Enc ex, const std::function<double(double)>& f, Enc out, DType outType);
// requantize to out (multiplier s_in/s_out), then clamp to [quantize(lo), quantize(hi)].
Ints clamp(const Ints& x, Enc ex, double lo, double hi, Enc out, DType outType);

// ---- data movement
// Every stored value of one encoding in another: requantize(q + o_in, s_in / s_out).
Ints requantizeValues(const Ints& q, Enc in, Enc out, DType outType);
// out[c] = x[inCoord(c)] for every output coordinate c; when `where` returns
// false the element is `padValue` (a stored value of x's encoding).
using CoordinateMap = std::function<bool(const std::vector<long>& out, std::vector<long>* in)>;
Ints moveByCoordinates(const Ints& x, const Dims& xd, const Dims& outDims, const CoordinateMap& where,
                       int64_t padValue = 0);

// ---- pooling, reductions, softmax (NHWC pools; the divisor of averages is the
// valid window size, or the padded one with countPad)
struct PoolGeometry {
  uint32_t fh = 1, fw = 1, sh = 1, sw = 1, padTop = 0, padBottom = 0, padLeft = 0, padRight = 0;
  bool ceil = false, countPad = false;
};
Ints pool(bool isMax, const Ints& x, const Dims& xd, Enc ex, const PoolGeometry& g, Enc out, DType outType,
          Dims* outDims);
enum class Reduce { kMean, kSum, kMax, kMin };
Ints reduce(Reduce op, const Ints& x, const Dims& xd, Enc ex, const std::vector<uint32_t>& axes, Enc out,
            DType outType);
// Softmax over the last axis (see docs/htp-fixed-point.md for the integer steps).
Ints softmax(const Ints& x, const Dims& xd, Enc ex, float beta, Enc out, DType outType);
// Resize on [B, H, W, C]: per axis, source taps (lo, hi) and a fraction f;
// acc = sum wy wx (x + o_x) with Q15 weights (2^15 - F, F), F = round(f 2^15);
// y = requantize(acc, s_x / (s_y 2^30)).
struct ResizeTap {
  long lo, hi;
  double frac;
};
Ints resize(const Ints& x, const Dims& xd, Enc ex, const Dims& outDims, const std::vector<ResizeTap>& rows,
            const std::vector<ResizeTap>& cols, Enc out, DType outType);
// LayerNorm over the last axis (integer steps of docs/htp-fixed-point.md); gamma /
// beta empty = absent.
Ints layerNorm(const Ints& x, const Dims& xd, Enc ex, const Ints& gamma, Enc eg, const Ints& beta, Enc eb,
               float epsilon, Enc out, DType outType);
// InstanceNorm: the LayerNorm steps per (batch, channel) over the spatial axes of
// [B, ..., C], gamma / beta per channel.
Ints instanceNorm(const Ints& x, const Dims& xd, Enc ex, const Ints& gamma, Enc eg, const Ints& beta, Enc eb,
                  float epsilon, Enc out, DType outType);
// LogSoftmax over the last axis: quantize(-beta s_in d_i - ln(S / 2^30)).
Ints logSoftmax(const Ints& x, const Dims& xd, Enc ex, float beta, Enc out, DType outType);
// TopK on the last axis: values (requantized to `out`) and indices, best first, ties larger index first.
void topK(const Ints& x, const Dims& xd, Enc ex, uint32_t k, Enc out, DType outType, Ints* values, Ints* indices);
// Index of the first maximum (or minimum) along `axis`.
Ints argExtreme(bool isMax, const Ints& x, const Dims& xd, uint32_t axis);

// ElementWisePower: quantize(pow(double(dequantize(a)), p)) with the exponent's
// real values p (broadcast together with a).
Ints power(const Ints& a, const Dims& ad, Enc ea, const std::vector<double>& p, const Dims& pd, Enc out,
           DType outType, Dims* outDims);
// Cast of one value (encodings ignored), every value held exactly in a double:
// a BOOL_8 source reads as 0/1; to BOOL_8 is != 0; to FLOAT_32 rounds to float;
// from FLOAT_32 to an integer type truncates and saturates (NaN -> 0); integer to
// integer wraps modulo 2^bits of the target type.
double castValue(double x, DType from, DType to);

}  // namespace qnn::conformance::fxref
