#include "tests/conformance/reference_fixed_point.h"

#include <algorithm>
#include <cmath>

namespace qnn::conformance::fxref {
namespace {

using Wide = __int128;

size_t count(const Dims& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

// M = mantissa * 2^(exponent - 31), mantissa in [2^30, 2^31), found by halving/doubling.
void decompose(double m, int64_t* mantissa, int* exponent) {
  *mantissa = 0, *exponent = 0;
  if (m < std::ldexp(1.0, -62)) return;
  double f = m;
  int e = 0;
  while (f >= 1.0) f /= 2, ++e;
  while (f < 0.5) f *= 2, --e;
  int64_t q = int64_t(std::floor(f * 2147483648.0 + 0.5));
  if (q == (int64_t(1) << 31)) q >>= 1, ++e;
  *mantissa = q, *exponent = e;
}

Wide roundHalfAwayDivPow2(Wide p, int n) {
  if (n == 0) return p;
  const Wide den = Wide(1) << (n + 1);
  const Wide mag = p < 0 ? -p : p;
  const Wide r = (2 * mag + (Wide(1) << n)) / den;
  return p < 0 ? -r : r;
}

int64_t clampTo(Wide v, DType t) {
  const Wide lo = typeMin(t), hi = typeMax(t);
  return int64_t(v < lo ? lo : (v > hi ? hi : v));
}

int64_t roundHalfAway(double v) { return v < 0 ? -int64_t(std::floor(-v + 0.5)) : int64_t(std::floor(v + 0.5)); }

}  // namespace

int64_t typeMin(DType t) {
  switch (t) {
    case DType::kSFixed8: return -128;
    case DType::kSFixed16: return -32768;
    case DType::kSFixed32: case DType::kInt32: return INT32_MIN;
    case DType::kInt64: return INT64_MIN;
    default: return 0;
  }
}
int64_t typeMax(DType t) {
  switch (t) {
    case DType::kUFixed8: return 255;
    case DType::kSFixed8: return 127;
    case DType::kUFixed16: return 65535;
    case DType::kSFixed16: return 32767;
    case DType::kInt64: return INT64_MAX;
    default: return INT32_MAX;
  }
}

int64_t requantize(Wide acc, double realMultiplier, int32_t outOffset, DType outType) {
  int64_t mantissa;
  int exponent;
  decompose(realMultiplier, &mantissa, &exponent);
  if (mantissa == 0) return clampTo(-Wide(outOffset), outType);
  const Wide r = roundHalfAwayDivPow2(acc * mantissa, 31 - exponent);
  return clampTo(r - outOffset, outType);
}

int64_t quantize(double real, Enc e, DType t) {
  // Float to fixed point as ONNX Runtime's QuantizeLinear: the float32 quotient,
  // ties to even; a 32-bit (or wider) type keeps the double quotient.
  const bool narrow = typeMin(t) >= -32768 && typeMax(t) <= 65535;
  double v = real / double(e.scale);
  if (narrow && std::fabs(real) < 1e30) {
    const float quotient = float(real) / e.scale;
    v = quotient;
  }
  if (std::isnan(v)) v = 0;
  if (v > 1e12) v = 1e12;
  if (v < -1e12) v = -1e12;
  return clampTo(Wide(std::nearbyint(v)) - e.offset, t);
}

float dequantize(int64_t q, Enc e) { return e.scale * float(q + e.offset); }

int64_t biasAccumulator(int64_t b, Enc bias, Enc x, Enc w) {
  const double real = double(bias.scale) * double(b + bias.offset);
  return roundHalfAway(real / (double(x.scale) * double(w.scale)));
}

namespace {
Wide biasAt(const Bias& b, size_t c, Enc ex, const Weights& w) {
  return b.values.empty() ? 0 : biasAccumulator(b.values[c], b.enc[c], ex, w.enc[c]);
}
}  // namespace

std::vector<Wide> conv2dAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b,
                            const ConvGeometry& g, Dims* outDims) {
  const long B = xd[0], H = xd[1], W = xd[2], C = xd[3];
  const long fh = w.dims[0], fw = w.dims[1], cinG = w.dims[2], cout = w.dims[3], coutG = cout / g.group;
  const long oh = (long(g.padTop) + H + g.padBottom - ((fh - 1) * g.dilH + 1)) / g.strideH + 1;
  const long ow = (long(g.padLeft) + W + g.padRight - ((fw - 1) * g.dilW + 1)) / g.strideW + 1;
  *outDims = {uint32_t(B), uint32_t(oh), uint32_t(ow), uint32_t(cout)};
  std::vector<Wide> acc(count(*outDims));
  for (long n = 0; n < B; ++n)
    for (long y = 0; y < oh; ++y)
      for (long xx = 0; xx < ow; ++xx)
        for (long o = 0; o < cout; ++o) {
          Wide s = biasAt(b, o, ex, w);
          const long grp = o / coutG;
          for (long kh = 0; kh < fh; ++kh)
            for (long kw = 0; kw < fw; ++kw) {
              const long iy = y * g.strideH - long(g.padTop) + kh * g.dilH;
              const long ix = xx * g.strideW - long(g.padLeft) + kw * g.dilW;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
              for (long ci = 0; ci < cinG; ++ci) {
                const Wide xv = x[((n * H + iy) * W + ix) * C + grp * cinG + ci] + ex.offset;
                const Wide wv = w.values[((kh * fw + kw) * cinG + ci) * cout + o] + w.enc[o].offset;
                s += xv * wv;
              }
            }
          acc[((n * oh + y) * ow + xx) * cout + o] = s;
        }
  return acc;
}

std::vector<Wide> depthwiseAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b,
                               const ConvGeometry& g, Dims* outDims) {
  const long B = xd[0], H = xd[1], W = xd[2], C = xd[3];
  const long fh = w.dims[0], fw = w.dims[1], cout = w.dims[3], mult = cout / C;
  const long oh = (long(g.padTop) + H + g.padBottom - ((fh - 1) * g.dilH + 1)) / g.strideH + 1;
  const long ow = (long(g.padLeft) + W + g.padRight - ((fw - 1) * g.dilW + 1)) / g.strideW + 1;
  *outDims = {uint32_t(B), uint32_t(oh), uint32_t(ow), uint32_t(cout)};
  std::vector<Wide> acc(count(*outDims));
  for (long n = 0; n < B; ++n)
    for (long y = 0; y < oh; ++y)
      for (long xx = 0; xx < ow; ++xx)
        for (long o = 0; o < cout; ++o) {
          Wide s = biasAt(b, o, ex, w);
          for (long kh = 0; kh < fh; ++kh)
            for (long kw = 0; kw < fw; ++kw) {
              const long iy = y * g.strideH - long(g.padTop) + kh * g.dilH;
              const long ix = xx * g.strideW - long(g.padLeft) + kw * g.dilW;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
              s += Wide(x[((n * H + iy) * W + ix) * C + o / mult] + ex.offset) *
                   (w.values[(kh * fw + kw) * cout + o] + w.enc[o].offset);
            }
          acc[((n * oh + y) * ow + xx) * cout + o] = s;
        }
  return acc;
}

std::vector<Wide> transposeConv2dAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b,
                                     const ConvGeometry& g, uint32_t outPadH, uint32_t outPadW, Dims* outDims) {
  const long B = xd[0], H = xd[1], W = xd[2], cin = xd[3];
  const long fh = w.dims[0], fw = w.dims[1], coutG = w.dims[3], cinG = cin / g.group, cout = coutG * g.group;
  const long oh = long(g.strideH) * (H - 1) + fh - g.padTop - g.padBottom + outPadH;
  const long ow = long(g.strideW) * (W - 1) + fw - g.padLeft - g.padRight + outPadW;
  *outDims = {uint32_t(B), uint32_t(oh), uint32_t(ow), uint32_t(cout)};
  std::vector<Wide> acc(count(*outDims), 0);
  for (long i = 0; i < long(acc.size()); ++i) {
    const long o = i % cout;
    // The bias of output channel o, in the accumulator scale of filter channel o % CoutG.
    acc[size_t(i)] = b.values.empty() ? 0 : biasAccumulator(b.values[size_t(o)], b.enc[size_t(o)], ex, w.enc[size_t(o % coutG)]);
  }
  for (long n = 0; n < B; ++n)
    for (long ih = 0; ih < H; ++ih)
      for (long iw = 0; iw < W; ++iw)
        for (long ci = 0; ci < cin; ++ci)
          for (long kh = 0; kh < fh; ++kh)
            for (long kw = 0; kw < fw; ++kw)
              for (long o = 0; o < coutG; ++o) {
                const long y = ih * g.strideH - long(g.padTop) + kh, xx = iw * g.strideW - long(g.padLeft) + kw;
                if (y < 0 || y >= oh || xx < 0 || xx >= ow) continue;
                const long grp = ci / cinG;
                acc[size_t(((n * oh + y) * ow + xx) * cout + grp * coutG + o)] +=
                    Wide(x[size_t(((n * H + ih) * W + iw) * cin + ci)] + ex.offset) *
                    (w.values[size_t(((kh * fw + kw) * cin + ci) * coutG + o)] + w.enc[size_t(o)].offset);
              }
  return acc;
}

std::vector<Wide> batchnormAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b) {
  const size_t c = xd.back();
  std::vector<Wide> acc(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const size_t ch = i % c;
    acc[i] = Wide(x[i] + ex.offset) * (w.values[ch] + w.enc[ch].offset) + biasAt(b, ch, ex, w);
  }
  return acc;
}

std::vector<Wide> fullyConnectedAcc(const Ints& x, const Dims& xd, Enc ex, const Weights& w, const Bias& b,
                                    Dims* outDims) {
  const size_t N = w.dims[0], K = w.dims[1], rows = count(xd) / K;
  *outDims = xd.size() == 1 ? Dims{uint32_t(N)} : Dims{uint32_t(rows), uint32_t(N)};
  std::vector<Wide> acc(rows * N);
  for (size_t r = 0; r < rows; ++r)
    for (size_t j = 0; j < N; ++j) {
      Wide s = biasAt(b, j, ex, w);
      for (size_t k = 0; k < K; ++k) s += Wide(x[r * K + k] + ex.offset) * (w.values[j * K + k] + w.enc[j].offset);
      acc[r * N + j] = s;
    }
  return acc;
}

std::vector<Wide> matMulAcc(const Ints& a, const Dims& ad, Enc ea, const Weights& b, const Bias& bias, bool transA,
                            bool transB, Dims* outDims) {
  const Dims& bd = b.dims;
  const size_t ar = ad[ad.size() - 2], ac = ad.back(), br = bd[bd.size() - 2], bc = bd.back();
  const size_t M = transA ? ac : ar, K = transA ? ar : ac, N = transB ? br : bc;
  const size_t rank = std::max(ad.size(), bd.size()) - 2;
  Dims aB(rank, 1), bB(rank, 1), oB(rank, 1);
  for (size_t i = 0; i < ad.size() - 2; ++i) aB[rank - (ad.size() - 2) + i] = ad[i];
  for (size_t i = 0; i < bd.size() - 2; ++i) bB[rank - (bd.size() - 2) + i] = bd[i];
  for (size_t i = 0; i < rank; ++i) oB[i] = std::max(aB[i], bB[i]);
  *outDims = oB;
  outDims->push_back(uint32_t(M));
  outDims->push_back(uint32_t(N));
  std::vector<Wide> acc(count(*outDims));
  for (size_t o = 0; o < count(oB); ++o) {
    size_t rem = o, aIdx = 0, bIdx = 0, aMul = 1, bMul = 1;
    for (size_t d = rank; d-- > 0;) {
      const size_t c = rem % oB[d];
      rem /= oB[d];
      aIdx += (aB[d] == 1 ? 0 : c) * aMul;
      bIdx += (bB[d] == 1 ? 0 : c) * bMul;
      aMul *= aB[d];
      bMul *= bB[d];
    }
    for (size_t i = 0; i < M; ++i)
      for (size_t j = 0; j < N; ++j) {
        Wide s = biasAt(bias, j, ea, b);
        for (size_t k = 0; k < K; ++k) {
          const int64_t av = a[aIdx * M * K + (transA ? k * M + i : i * K + k)];
          const int64_t bv = b.values[bIdx * K * N + (transB ? j * K + k : k * N + j)];
          s += Wide(av + ea.offset) * (bv + b.enc[j].offset);
        }
        acc[(o * M + i) * N + j] = s;
      }
  }
  return acc;
}

Ints requantizeAll(const std::vector<Wide>& acc, Enc ex, const std::vector<Enc>& w, Enc out, DType outType) {
  Ints q(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) {
    const Enc& we = w[i % w.size()];
    q[i] = requantize(acc[i], double(ex.scale) * double(we.scale) / double(out.scale), out.offset, outType);
  }
  return q;
}

Ints binary(Binary op, const Ints& a, const Dims& ad, Enc ea, const Ints& b, const Dims& bd, Enc eb, Enc out,
            DType outType, Dims* outDims) {
  const size_t rank = std::max(ad.size(), bd.size());
  Dims pa(rank - ad.size(), 1), pb(rank - bd.size(), 1);
  pa.insert(pa.end(), ad.begin(), ad.end());
  pb.insert(pb.end(), bd.begin(), bd.end());
  outDims->assign(rank, 1);
  for (size_t d = 0; d < rank; ++d) (*outDims)[d] = std::max(pa[d], pb[d]);
  const size_t n = count(*outDims);
  Ints q(n);
  const double twiceMax = 2.0 * std::max(double(ea.scale), double(eb.scale));
  for (size_t i = 0; i < n; ++i) {
    size_t rem = i, ia = 0, ib = 0, ma = 1, mb = 1;
    for (size_t d = rank; d-- > 0;) {
      const size_t c = rem % (*outDims)[d];
      rem /= (*outDims)[d];
      ia += (pa[d] == 1 ? 0 : c) * ma;
      ib += (pb[d] == 1 ? 0 : c) * mb;
      ma *= pa[d];
      mb *= pb[d];
    }
    const Wide va = a[ia] + ea.offset, vb = b[ib] + eb.offset;
    switch (op) {
      case Binary::kAdd:
      case Binary::kSubtract: {
        // Both to the common scale 2 max(s_a, s_b) / 2^20, then to the output.
        const Wide ca = requantize(va * (Wide(1) << 20), double(ea.scale) / twiceMax, 0, DType::kInt64);
        const Wide cb = requantize(vb * (Wide(1) << 20), double(eb.scale) / twiceMax, 0, DType::kInt64);
        q[i] = requantize(op == Binary::kAdd ? ca + cb : ca - cb, twiceMax / (1048576.0 * double(out.scale)),
                          out.offset, outType);
        break;
      }
      case Binary::kMultiply:
        q[i] = requantize(va * vb, double(ea.scale) * double(eb.scale) / double(out.scale), out.offset, outType);
        break;
      case Binary::kDivide: {
        if (vb == 0) {
          q[i] = va > 0 ? typeMax(outType) : va < 0 ? typeMin(outType) : quantize(0.0, out, outType);
          break;
        }
        const Wide num = vb < 0 ? -va : va, den = vb < 0 ? -vb : vb;
        const Wide mag = (2 * (num < 0 ? -num : num) * 65536 + den) / (2 * den);
        q[i] = requantize(num < 0 ? -mag : mag, double(ea.scale) / (double(eb.scale) * double(out.scale) * 65536.0),
                          out.offset, outType);
        break;
      }
      case Binary::kFloorDiv: {
        if (vb == 0) {
          q[i] = va > 0 ? typeMax(outType) : va < 0 ? typeMin(outType) : quantize(0.0, out, outType);
          break;
        }
        // Exact in double for these magnitudes: both products are exact, and a quotient
        // below 2^11 cannot round up across an integer.
        const double k = std::floor(double(va) * double(ea.scale) / (double(vb) * double(eb.scale)));
        q[i] = quantize(k, out, outType);
        break;
      }
      case Binary::kSquaredDifference: {
        const Wide ca = requantize(va * 256, double(ea.scale) / twiceMax, 0, DType::kInt64);
        const Wide cb = requantize(vb * 256, double(eb.scale) / twiceMax, 0, DType::kInt64);
        const double step = twiceMax / 256.0;
        q[i] = requantize((ca - cb) * (ca - cb), step * step / double(out.scale), out.offset, outType);
        break;
      }
      case Binary::kMaximum:
      case Binary::kMinimum: {
        const int64_t ra = requantize(va, double(ea.scale) / double(out.scale), out.offset, outType);
        const int64_t rb = requantize(vb, double(eb.scale) / double(out.scale), out.offset, outType);
        q[i] = op == Binary::kMaximum ? std::max(ra, rb) : std::min(ra, rb);
        break;
      }
    }
  }
  return q;
}

namespace {
// Flat index in `in` (right-aligned broadcast) of output element i.
size_t broadcastSource(size_t i, const Dims& outDims, const Dims& in) {
  size_t src = 0, mul = 1;
  for (size_t k = 0; k < outDims.size(); ++k) {
    const size_t d = outDims.size() - 1 - k;
    const size_t c = i % outDims[d];
    i /= outDims[d];
    if (k < in.size()) {
      const size_t dimIn = in[in.size() - 1 - k];
      src += (dimIn == 1 ? 0 : c) * mul;
      mul *= dimIn;
    }
  }
  return src;
}
Dims broadcastDims(const Dims& a, const Dims& b) {
  Dims out(std::max(a.size(), b.size()), 1);
  for (size_t k = 0; k < out.size(); ++k) {
    const uint32_t da = k < a.size() ? a[a.size() - 1 - k] : 1, db = k < b.size() ? b[b.size() - 1 - k] : 1;
    out[out.size() - 1 - k] = std::max(da, db);
  }
  return out;
}
}  // namespace

Ints compare(Predicate p, const Ints& a, const Dims& ad, Enc ea, const Ints& b, const Dims& bd, Enc eb, Enc out,
             DType outType, Dims* outDims) {
  *outDims = broadcastDims(ad, bd);
  const bool fixedOut = sdk::dtypeIsFixedPoint(outType);
  const int64_t yes = fixedOut ? quantize(1.0, out, outType) : 1, no = fixedOut ? quantize(0.0, out, outType) : 0;
  Ints q(count(*outDims));
  for (size_t i = 0; i < q.size(); ++i) {
    // Compare (a + o_a) s_a with (b + o_b) s_b as exact rationals: cross-multiplied 128-bit
    // integers of the float scales' mantissas.
    int ea2, eb2;
    const double fa = std::frexp(double(ea.scale), &ea2), fb = std::frexp(double(eb.scale), &eb2);
    const Wide ma = Wide(std::ldexp(fa, 53)), mb = Wide(std::ldexp(fb, 53));
    Wide lhs = Wide(a[broadcastSource(i, *outDims, ad)] + ea.offset) * ma;
    Wide rhs = Wide(b[broadcastSource(i, *outDims, bd)] + eb.offset) * mb;
    if (ea2 > eb2) lhs *= Wide(1) << (ea2 - eb2);
    else rhs *= Wide(1) << (eb2 - ea2);
    bool r = false;
    switch (p) {
      case Predicate::kEqual: r = lhs == rhs; break;
      case Predicate::kNotEqual: r = lhs != rhs; break;
      case Predicate::kGreater: r = lhs > rhs; break;
      case Predicate::kGreaterEqual: r = lhs >= rhs; break;
      case Predicate::kLess: r = lhs < rhs; break;
      case Predicate::kLessEqual: r = lhs <= rhs; break;
      case Predicate::kAnd: r = lhs != 0 && rhs != 0; break;
    }
    q[i] = r ? yes : no;
  }
  return q;
}

Ints prelu(const Ints& x, const Dims& xd, Enc ex, const Ints& a, const Dims& ad, Enc ea, Enc out, DType outType) {
  Ints q(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const Wide v = x[i] + ex.offset;
    q[i] = v >= 0 ? requantize(v, double(ex.scale) / double(out.scale), out.offset, outType)
                  : requantize(v * (a[broadcastSource(i, xd, ad)] + ea.offset),
                               double(ex.scale) * double(ea.scale) / double(out.scale), out.offset, outType);
  }
  return q;
}

Ints select(const Ints& c, const Dims& cd, Enc ec, const Ints& a, const Dims& ad, Enc ea, const Ints& b,
            const Dims& bd, Enc eb, Enc out, DType outType, Dims* outDims) {
  *outDims = broadcastDims(cd, broadcastDims(ad, bd));
  Ints q(count(*outDims));
  for (size_t i = 0; i < q.size(); ++i) {
    const bool pickA = c[broadcastSource(i, *outDims, cd)] + ec.offset != 0;
    const int64_t v = pickA ? a[broadcastSource(i, *outDims, ad)] : b[broadcastSource(i, *outDims, bd)];
    const Enc e = pickA ? ea : eb;
    q[i] = requantize(v + e.offset, double(e.scale) / double(out.scale), out.offset, outType);
  }
  return q;
}

Ints table(const Ints& x, Enc ex, const std::function<double(double)>& f, Enc out, DType outType) {
  Ints q(x.size());
  for (size_t i = 0; i < x.size(); ++i) q[i] = quantize(f(double(dequantize(x[i], ex))), out, outType);
  return q;
}

Ints clamp(const Ints& x, Enc ex, double lo, double hi, Enc out, DType outType) {
  const int64_t qlo = quantize(lo, out, outType), qhi = quantize(hi, out, outType);
  Ints q(x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    const int64_t v = requantize(x[i] + ex.offset, double(ex.scale) / double(out.scale), out.offset, outType);
    q[i] = std::min(std::max(v, qlo), qhi);
  }
  return q;
}

Ints requantizeValues(const Ints& q, Enc in, Enc out, DType outType) {
  Ints r(q.size());
  for (size_t i = 0; i < q.size(); ++i)
    r[i] = requantize(q[i] + in.offset, double(in.scale) / double(out.scale), out.offset, outType);
  return r;
}

Ints moveByCoordinates(const Ints& x, const Dims& xd, const Dims& outDims, const CoordinateMap& where,
                       int64_t padValue) {
  Ints out(count(outDims));
  std::vector<long> oc(outDims.size()), ic(xd.size());
  for (size_t i = 0; i < out.size(); ++i) {
    size_t rem = i;
    for (size_t d = outDims.size(); d-- > 0;) oc[d] = long(rem % outDims[d]), rem /= outDims[d];
    if (!where(oc, &ic)) {
      out[i] = padValue;
      continue;
    }
    size_t flat = 0;
    for (size_t d = 0; d < xd.size(); ++d) flat = flat * xd[d] + size_t(ic[d]);
    out[i] = x[flat];
  }
  return out;
}

Ints pool(bool isMax, const Ints& x, const Dims& xd, Enc ex, const PoolGeometry& g, Enc out, DType outType,
          Dims* outDims) {
  const long B = xd[0], H = xd[1], W = xd[2], C = xd[3];
  auto outSize = [&](long in, long f, long s, long p0, long p1) {
    const long span = p0 + in + p1 - f;
    return (g.ceil ? (span + s - 1) / s : span / s) + 1;
  };
  const long oh = outSize(H, g.fh, g.sh, g.padTop, g.padBottom), ow = outSize(W, g.fw, g.sw, g.padLeft, g.padRight);
  *outDims = {uint32_t(B), uint32_t(oh), uint32_t(ow), uint32_t(C)};
  Ints q(count(*outDims));
  for (long n = 0; n < B; ++n)
    for (long y = 0; y < oh; ++y)
      for (long xx = 0; xx < ow; ++xx)
        for (long c = 0; c < C; ++c) {
          Wide sum = 0;
          int64_t best = INT64_MIN;
          long valid = 0, padded = 0;
          for (long kh = 0; kh < long(g.fh); ++kh)
            for (long kw = 0; kw < long(g.fw); ++kw) {
              const long iy = y * g.sh - long(g.padTop) + kh, ix = xx * g.sw - long(g.padLeft) + kw;
              if (iy < H + long(g.padBottom) && ix < W + long(g.padRight)) ++padded;
              if (iy < 0 || iy >= H || ix < 0 || ix >= W) continue;
              const int64_t v = x[((n * H + iy) * W + ix) * C + c];
              ++valid;
              sum += v + ex.offset;
              best = std::max(best, v);
            }
          int64_t r;
          if (valid == 0) r = quantize(0.0, out, outType);
          else if (isMax) r = requantize(best + ex.offset, double(ex.scale) / double(out.scale), out.offset, outType);
          else
            r = requantize(sum, double(ex.scale) / (double(out.scale) * double(g.countPad ? padded : valid)),
                           out.offset, outType);
          q[((n * oh + y) * ow + xx) * C + c] = r;
        }
  return q;
}

Ints reduce(Reduce op, const Ints& x, const Dims& xd, Enc ex, const std::vector<uint32_t>& axes, Enc out,
            DType outType) {
  std::vector<bool> reduced(xd.size(), false);
  for (uint32_t a : axes) reduced[a] = true;
  Dims kept;
  size_t n = 1;
  for (size_t d = 0; d < xd.size(); ++d) {
    if (reduced[d]) n *= xd[d];
    else kept.push_back(xd[d]);
  }
  const size_t outCount = count(kept);
  Ints q(outCount);
  std::vector<long> coord(xd.size());
  for (size_t o = 0; o < outCount; ++o) {
    Wide sum = 0;
    int64_t hi = INT64_MIN, lo = INT64_MAX;
    for (size_t i = 0; i < x.size(); ++i) {
      size_t rem = i, key = 0;
      for (size_t d = xd.size(); d-- > 0;) coord[d] = long(rem % xd[d]), rem /= xd[d];
      for (size_t d = 0; d < xd.size(); ++d)
        if (!reduced[d]) key = key * xd[d] + size_t(coord[d]);
      if (key != o) continue;
      sum += x[i] + ex.offset;
      hi = std::max(hi, x[i]), lo = std::min(lo, x[i]);
    }
    const double ratio = double(ex.scale) / double(out.scale);
    switch (op) {
      case Reduce::kMean: q[o] = requantize(sum, double(ex.scale) / (double(out.scale) * double(n)), out.offset, outType); break;
      case Reduce::kSum: q[o] = requantize(sum, ratio, out.offset, outType); break;
      case Reduce::kMax: q[o] = requantize(hi + ex.offset, ratio, out.offset, outType); break;
      case Reduce::kMin: q[o] = requantize(lo + ex.offset, ratio, out.offset, outType); break;
    }
  }
  return q;
}

Ints softmax(const Ints& x, const Dims& xd, Enc ex, float beta, Enc out, DType outType) {
  const size_t len = xd.back(), rows = x.size() / len;
  const double one = 1073741824.0;  // 2^30
  Ints q(x.size());
  for (size_t r = 0; r < rows; ++r) {
    const int64_t m = *std::max_element(x.begin() + long(r * len), x.begin() + long((r + 1) * len));
    std::vector<Wide> e(len);
    Wide total = 0;
    for (size_t i = 0; i < len; ++i) {
      e[i] = roundHalfAway(std::exp(-double(beta) * double(ex.scale) * double(m - x[r * len + i])) * one);
      total += e[i];
    }
    for (size_t i = 0; i < len; ++i) {
      const Wide p = (2 * e[i] * Wide(1 << 30) + total) / (2 * total);
      q[r * len + i] = requantize(p, 1.0 / (one * double(out.scale)), out.offset, outType);
    }
  }
  return q;
}

Ints resize(const Ints& x, const Dims& xd, Enc ex, const Dims& od, const std::vector<ResizeTap>& rows,
            const std::vector<ResizeTap>& cols, Enc out, DType outType) {
  Ints q(count(od));
  auto weights = [](const ResizeTap& t, Wide* lo, Wide* hi) {
    *hi = roundHalfAway(t.frac * 32768.0);
    *lo = 32768 - *hi;
  };
  for (size_t b = 0; b < od[0]; ++b)
    for (size_t y = 0; y < od[1]; ++y)
      for (size_t xx = 0; xx < od[2]; ++xx)
        for (size_t c = 0; c < od[3]; ++c) {
          Wide wyLo, wyHi, wxLo, wxHi;
          weights(rows[y], &wyLo, &wyHi);
          weights(cols[xx], &wxLo, &wxHi);
          auto at = [&](long yy, long xs) { return Wide(x[((b * xd[1] + size_t(yy)) * xd[2] + size_t(xs)) * xd[3] + c] + ex.offset); };
          const Wide acc = wyLo * (wxLo * at(rows[y].lo, cols[xx].lo) + wxHi * at(rows[y].lo, cols[xx].hi)) +
                           wyHi * (wxLo * at(rows[y].hi, cols[xx].lo) + wxHi * at(rows[y].hi, cols[xx].hi));
          q[((b * od[1] + y) * od[2] + xx) * od[3] + c] =
              requantize(acc, double(ex.scale) / (double(out.scale) * 1073741824.0), out.offset, outType);
        }
  return q;
}

namespace {
// floor(sqrt(v)) by bisection.
Wide isqrtBisect(Wide v) {
  Wide lo = 0, hi = Wide(1) << 64;
  while (lo < hi) {
    const Wide mid = (lo + hi + 1) / 2;
    if (mid * mid <= v) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}
}  // namespace

Ints layerNorm(const Ints& x, const Dims& xd, Enc ex, const Ints& gamma, Enc eg, const Ints& beta, Enc eb,
               float epsilon, Enc out, DType outType) {
  const size_t n = xd.back();
  const Enc g = gamma.empty() ? Enc{1.f, 0} : eg;
  const Wide e = roundHalfAway(double(epsilon) * double(n) * double(n) / (double(ex.scale) * double(ex.scale)));
  Ints q(x.size());
  for (size_t r = 0; r < x.size() / n; ++r) {
    Wide s1 = 0, s2 = 0;
    for (size_t i = 0; i < n; ++i) {
      const Wide v = x[r * n + i] + ex.offset;
      s1 += v, s2 += v * v;
    }
    const Wide root = isqrtBisect((Wide(n) * s2 - s1 * s1 + e) * (Wide(1) << 32));
    for (size_t i = 0; i < n; ++i) {
      const Wide c = Wide(n) * (x[r * n + i] + ex.offset) - s1;
      Wide z = 0;
      if (root != 0) {
        const Wide mag = (2 * (c < 0 ? -c : c) * (Wide(1) << 32) + root) / (2 * root);
        z = c < 0 ? -mag : mag;
      }
      const Wide gv = gamma.empty() ? 1 : gamma[i] + g.offset;
      const Wide bv = beta.empty() ? 0 : roundHalfAway(double(eb.scale) * double(beta[i] + eb.offset) * 65536.0 / double(g.scale));
      q[r * n + i] = requantize(z * gv + bv, double(g.scale) / (65536.0 * double(out.scale)), out.offset, outType);
    }
  }
  return q;
}

Ints instanceNorm(const Ints& x, const Dims& xd, Enc ex, const Ints& gamma, Enc eg, const Ints& beta, Enc eb,
                  float epsilon, Enc out, DType outType) {
  const size_t channels = xd.back(), batch = xd[0], spatial = x.size() / (batch * channels);
  Ints q(x.size());
  for (size_t b = 0; b < batch; ++b)
    for (size_t c = 0; c < channels; ++c) {
      Ints group(spatial);
      for (size_t i = 0; i < spatial; ++i) group[i] = x[(b * spatial + i) * channels + c];
      const Ints g = gamma.empty() ? Ints{} : Ints(spatial, gamma[c]);
      const Ints be = beta.empty() ? Ints{} : Ints(spatial, beta[c]);
      const Ints r = layerNorm(group, Dims{uint32_t(spatial)}, ex, g, eg, be, eb, epsilon, out, outType);
      for (size_t i = 0; i < spatial; ++i) q[(b * spatial + i) * channels + c] = r[i];
    }
  return q;
}

Ints logSoftmax(const Ints& x, const Dims& xd, Enc ex, float beta, Enc out, DType outType) {
  const size_t len = xd.back();
  Ints q(x.size());
  for (size_t r = 0; r < x.size() / len; ++r) {
    const int64_t m = *std::max_element(x.begin() + long(r * len), x.begin() + long((r + 1) * len));
    Wide total = 0;
    for (size_t i = 0; i < len; ++i)
      total += roundHalfAway(std::exp(-double(beta) * double(ex.scale) * double(m - x[r * len + i])) * 1073741824.0);
    const double logSum = std::log(double(total) / 1073741824.0);
    for (size_t i = 0; i < len; ++i)
      q[r * len + i] = quantize(-double(beta) * double(ex.scale) * double(m - x[r * len + i]) - logSum, out, outType);
  }
  return q;
}

void topK(const Ints& x, const Dims& xd, Enc ex, uint32_t k, Enc out, DType outType, Ints* values, Ints* indices) {
  const size_t len = xd.back();
  values->clear(), indices->clear();
  for (size_t r = 0; r < x.size() / len; ++r) {
    std::vector<size_t> taken;
    for (uint32_t j = 0; j < k; ++j) {
      size_t best = SIZE_MAX;
      for (size_t i = len; i-- > 0;) {  // from the end: the larger index wins ties
        if (std::find(taken.begin(), taken.end(), i) != taken.end()) continue;
        if (best == SIZE_MAX || x[r * len + i] > x[r * len + best]) best = i;
      }
      taken.push_back(best);
      values->push_back(requantize(x[r * len + best] + ex.offset, double(ex.scale) / double(out.scale), out.offset, outType));
      indices->push_back(int64_t(best));
    }
  }
}

Ints argExtreme(bool isMax, const Ints& x, const Dims& xd, uint32_t axis) {
  size_t outer = 1, inner = 1;
  for (size_t d = 0; d < axis; ++d) outer *= xd[d];
  for (size_t d = axis + 1; d < xd.size(); ++d) inner *= xd[d];
  const size_t len = xd[axis];
  Ints q(outer * inner);
  for (size_t o = 0; o < outer; ++o)
    for (size_t j = 0; j < inner; ++j) {
      size_t best = 0;
      for (size_t k = 1; k < len; ++k) {
        const int64_t v = x[(o * len + k) * inner + j], b = x[(o * len + best) * inner + j];
        if (isMax ? v > b : v < b) best = k;
      }
      q[o * inner + j] = int64_t(best);
    }
  return q;
}

Ints power(const Ints& a, const Dims& ad, Enc ea, const std::vector<double>& p, const Dims& pd, Enc out,
           DType outType, Dims* outDims) {
  *outDims = broadcastDims(ad, pd);
  Ints q(count(*outDims));
  for (size_t i = 0; i < q.size(); ++i) {
    const double base = double(dequantize(a[broadcastSource(i, *outDims, ad)], ea));
    q[i] = quantize(std::pow(base, p[broadcastSource(i, *outDims, pd)]), out, outType);
  }
  return q;
}

double castValue(double x, DType from, DType to) {
  if (from == DType::kBool8) x = x == 0 ? 0 : 1;
  if (to == DType::kBool8) return x == 0 ? 0 : 1;
  if (to == DType::kFloat32) return double(float(x));
  int bits = 32;
  bool isSigned = false;
  switch (to) {
    case DType::kUInt8: case DType::kUFixed8: bits = 8; break;
    case DType::kSFixed8: bits = 8, isSigned = true; break;
    case DType::kUFixed16: bits = 16; break;
    case DType::kInt32: isSigned = true; break;
    default: break;
  }
  const double lo = isSigned ? -std::ldexp(1.0, bits - 1) : 0.0;
  const double hi = lo + std::ldexp(1.0, bits) - 1;
  if (from == DType::kFloat32) {
    if (std::isnan(x)) return 0;
    const double t = x < 0 ? std::ceil(x) : std::floor(x);
    return t < lo ? lo : (t > hi ? hi : t);
  }
  // Integer source: the representative of x modulo 2^bits in [lo, hi].
  const Wide span = Wide(1) << bits;
  Wide r = (Wide(int64_t(x)) - Wide(int64_t(lo))) % span;
  if (r < 0) r += span;
  return double(int64_t(r + Wide(int64_t(lo))));
}

}  // namespace qnn::conformance::fxref
