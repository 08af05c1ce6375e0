#include "tests/conformance/reference_compute.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace qnn::conformance::ref {
namespace {

size_t count(const Dims& d) {
  size_t n = 1;
  for (uint32_t v : d) n *= v;
  return n;
}

// Index of [b, h, w, c] in an NHWC buffer.
size_t nhwc(const Dims& d, size_t b, size_t h, size_t w, size_t c) {
  return ((b * d[1] + h) * d[2] + w) * d[3] + c;
}

}  // namespace

Floats conv2d(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
              const ConvGeometry& g, Dims* outDims) {
  const long fh = wd[0], fw = wd[1], cinG = wd[2], cout = wd[3], coutG = cout / g.group;
  const long oh = (long(g.padTop) + xd[1] + g.padBottom - ((fh - 1) * g.dilH + 1)) / g.strideH + 1;
  const long ow = (long(g.padLeft) + xd[2] + g.padRight - ((fw - 1) * g.dilW + 1)) / g.strideW + 1;
  *outDims = {xd[0], uint32_t(oh), uint32_t(ow), uint32_t(cout)};
  Floats out(count(*outDims));
  for (long b = 0; b < xd[0]; ++b)
    for (long y = 0; y < oh; ++y)
      for (long xx = 0; xx < ow; ++xx)
        for (long o = 0; o < cout; ++o) {
          const long grp = o / coutG;
          double acc = bias.empty() ? 0.0 : bias[o];
          for (long kh = 0; kh < fh; ++kh)
            for (long kw = 0; kw < fw; ++kw)
              for (long ci = 0; ci < cinG; ++ci) {
                const long ih = y * g.strideH - long(g.padTop) + kh * g.dilH;
                const long iw = xx * g.strideW - long(g.padLeft) + kw * g.dilW;
                if (ih < 0 || ih >= long(xd[1]) || iw < 0 || iw >= long(xd[2])) continue;
                acc += double(x[nhwc(xd, b, ih, iw, grp * cinG + ci)]) * w[((kh * fw + kw) * cinG + ci) * cout + o];
              }
          out[nhwc(*outDims, b, y, xx, o)] = float(acc);
        }
  return out;
}

Floats depthwiseConv2d(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
                       const ConvGeometry& g, Dims* outDims) {
  const long fh = wd[0], fw = wd[1], cout = wd[3], mult = cout / xd[3];
  const long oh = (long(g.padTop) + xd[1] + g.padBottom - ((fh - 1) * g.dilH + 1)) / g.strideH + 1;
  const long ow = (long(g.padLeft) + xd[2] + g.padRight - ((fw - 1) * g.dilW + 1)) / g.strideW + 1;
  *outDims = {xd[0], uint32_t(oh), uint32_t(ow), uint32_t(cout)};
  Floats out(count(*outDims));
  for (long b = 0; b < xd[0]; ++b)
    for (long y = 0; y < oh; ++y)
      for (long xx = 0; xx < ow; ++xx)
        for (long o = 0; o < cout; ++o) {
          double acc = bias.empty() ? 0.0 : bias[o];
          for (long kh = 0; kh < fh; ++kh)
            for (long kw = 0; kw < fw; ++kw) {
              const long ih = y * g.strideH - long(g.padTop) + kh * g.dilH;
              const long iw = xx * g.strideW - long(g.padLeft) + kw * g.dilW;
              if (ih < 0 || ih >= long(xd[1]) || iw < 0 || iw >= long(xd[2])) continue;
              acc += double(x[nhwc(xd, b, ih, iw, o / mult)]) * w[(kh * fw + kw) * cout + o];
            }
          out[nhwc(*outDims, b, y, xx, o)] = float(acc);
        }
  return out;
}

// Scatter form, the textbook definition: every input pixel adds filter * x to
// the output window it maps to; output pixels outside the cropped range drop.
Floats transposeConv2d(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
                       const ConvGeometry& g, Dims* outDims) {
  const long fh = wd[0], fw = wd[1], cin = wd[2], coutG = wd[3], cinG = cin / g.group, cout = coutG * g.group;
  const long oh = long(g.strideH) * (xd[1] - 1) + fh - g.padTop - g.padBottom + g.outPadH;
  const long ow = long(g.strideW) * (xd[2] - 1) + fw - g.padLeft - g.padRight + g.outPadW;
  *outDims = {xd[0], uint32_t(oh), uint32_t(ow), uint32_t(cout)};
  std::vector<double> acc(count(*outDims), 0.0);
  for (long b = 0; b < xd[0]; ++b)
    for (long ih = 0; ih < xd[1]; ++ih)
      for (long iw = 0; iw < xd[2]; ++iw)
        for (long ci = 0; ci < cin; ++ci)
          for (long kh = 0; kh < fh; ++kh)
            for (long kw = 0; kw < fw; ++kw)
              for (long o = 0; o < coutG; ++o) {
                const long y = ih * g.strideH - long(g.padTop) + kh, xx = iw * g.strideW - long(g.padLeft) + kw;
                if (y < 0 || y >= oh || xx < 0 || xx >= ow) continue;
                const long grp = ci / cinG;
                acc[nhwc(*outDims, b, y, xx, grp * coutG + o)] +=
                    double(x[nhwc(xd, b, ih, iw, ci)]) * w[((kh * fw + kw) * cin + ci) * coutG + o];
              }
  Floats out(acc.size());
  for (size_t i = 0; i < acc.size(); ++i) out[i] = float(acc[i] + (bias.empty() ? 0.0 : bias[i % cout]));
  return out;
}

Floats fullyConnected(const Floats& x, const Dims& xd, const Floats& w, const Dims& wd, const Floats& bias,
                      bool keepDims, Dims* outDims) {
  const size_t m = wd[0], n = wd[1], batch = count(xd) / n;
  if (xd.size() == 1) *outDims = {uint32_t(m)};
  else if (keepDims) {
    *outDims = Dims(xd.begin(), xd.end() - 1);
    outDims->push_back(uint32_t(m));
  } else *outDims = {uint32_t(batch), uint32_t(m)};
  Floats out(batch * m);
  for (size_t r = 0; r < batch; ++r)
    for (size_t u = 0; u < m; ++u) {
      double acc = bias.empty() ? 0.0 : bias[u];
      for (size_t k = 0; k < n; ++k) acc += double(x[r * n + k]) * w[u * n + k];
      out[r * m + u] = float(acc);
    }
  return out;
}

Floats matMul(const Floats& a, const Dims& ad, const Floats& b, const Dims& bd, const Floats& bias, bool transA,
              bool transB, Dims* outDims) {
  const size_t ar = ad[ad.size() - 2], ac = ad.back(), br = bd[bd.size() - 2], bc = bd.back();
  const size_t M = transA ? ac : ar, K = transA ? ar : ac, N = transB ? br : bc;
  const size_t rank = std::max(ad.size(), bd.size()) - 2;
  // Left-pad both batch shapes with ones to the same rank.
  Dims aB(rank, 1), bB(rank, 1), oB(rank, 1);
  for (size_t i = 0; i < ad.size() - 2; ++i) aB[rank - (ad.size() - 2) + i] = ad[i];
  for (size_t i = 0; i < bd.size() - 2; ++i) bB[rank - (bd.size() - 2) + i] = bd[i];
  for (size_t i = 0; i < rank; ++i) oB[i] = std::max(aB[i], bB[i]);
  *outDims = oB;
  outDims->push_back(uint32_t(M));
  outDims->push_back(uint32_t(N));
  const size_t numBatch = count(oB);
  Floats out(numBatch * M * N), rows(M * K), columns(N * K);
  for (size_t o = 0; o < numBatch; ++o) {
    size_t rem = o, aIdx = 0, bIdx = 0, aMul = 1, bMul = 1;
    for (size_t d = rank; d-- > 0;) {
      const size_t c = rem % oB[d];
      rem /= oB[d];
      aIdx += (aB[d] == 1 ? 0 : c) * aMul;
      bIdx += (bB[d] == 1 ? 0 : c) * bMul;
      aMul *= aB[d];
      bMul *= bB[d];
    }
    const float* A = a.data() + aIdx * ar * ac;
    const float* B = b.data() + bIdx * br * bc;
    // A's rows and B's columns each laid out as K values in a row, so the sums read memory in order.
    for (size_t i = 0; i < M; ++i)
      for (size_t k = 0; k < K; ++k) rows[i * K + k] = transA ? A[k * ac + i] : A[i * ac + k];
    for (size_t j = 0; j < N; ++j)
      for (size_t k = 0; k < K; ++k) columns[j * K + k] = transB ? B[j * bc + k] : B[k * bc + j];
    for (size_t i = 0; i < M; ++i)
      for (size_t j = 0; j < N; ++j) {
        double acc = bias.empty() ? 0.0 : bias[j];
        const float *row = &rows[i * K], *column = &columns[j * K];
        for (size_t k = 0; k < K; ++k) acc += double(row[k]) * column[k];
        out[(o * M + i) * N + j] = float(acc);
      }
  }
  return out;
}

namespace {
long poolOut(long in, long f, long s, long p0, long p1, bool ceilMode) {
  const double v = double(p0 + in + p1 - f) / s + 1;
  return long(ceilMode ? std::ceil(v) : std::floor(v));
}

// Visits window (b, y, x): cells inside the input and the count of cells inside
// the padded input.
template <typename Fn>
Floats pool(const Floats& x, const Dims& xd, const PoolGeometry& g, Dims* outDims, Fn reduce) {
  const long oh = poolOut(xd[1], g.filterH, g.strideH, g.padTop, g.padBottom, g.ceilMode);
  const long ow = poolOut(xd[2], g.filterW, g.strideW, g.padLeft, g.padRight, g.ceilMode);
  *outDims = {xd[0], uint32_t(oh), uint32_t(ow), xd[3]};
  Floats out(count(*outDims));
  for (long b = 0; b < xd[0]; ++b)
    for (long y = 0; y < oh; ++y)
      for (long xx = 0; xx < ow; ++xx)
        for (long c = 0; c < xd[3]; ++c) {
          std::vector<double> cells;
          long padded = 0;
          for (long kh = 0; kh < g.filterH; ++kh)
            for (long kw = 0; kw < g.filterW; ++kw) {
              const long ih = y * g.strideH - long(g.padTop) + kh, iw = xx * g.strideW - long(g.padLeft) + kw;
              const bool inPadded = ih < long(xd[1] + g.padBottom) && iw < long(xd[2] + g.padRight);
              if (inPadded) ++padded;
              if (ih >= 0 && ih < long(xd[1]) && iw >= 0 && iw < long(xd[2])) cells.push_back(x[nhwc(xd, b, ih, iw, c)]);
            }
          out[nhwc(*outDims, b, y, xx, c)] = float(reduce(cells, padded));
        }
  return out;
}
}  // namespace

Floats poolMax2d(const Floats& x, const Dims& xd, const PoolGeometry& g, Dims* outDims) {
  return pool(x, xd, g, outDims, [](const std::vector<double>& cells, long) {
    return cells.empty() ? 0.0 : *std::max_element(cells.begin(), cells.end());
  });
}

Floats poolAvg2d(const Floats& x, const Dims& xd, const PoolGeometry& g, Dims* outDims) {
  return pool(x, xd, g, outDims, [&](const std::vector<double>& cells, long padded) {
    if (cells.empty()) return 0.0;
    double sum = 0;
    for (double v : cells) sum += v;
    return sum / double(g.countPadForEdges ? padded : long(cells.size()));
  });
}

Floats softmax(const Floats& x, const Dims& d, uint32_t axis, float beta, bool logSoftmax) {
  size_t outer = 1, inner = 1;
  for (size_t i = 0; i < axis; ++i) outer *= d[i];
  for (size_t i = axis + 1; i < d.size(); ++i) inner *= d[i];
  const size_t len = d[axis];
  Floats out(x.size());
  for (size_t o = 0; o < outer; ++o)
    for (size_t in = 0; in < inner; ++in) {
      auto at = [&](size_t i) { return (o * len + i) * inner + in; };
      double mx = -std::numeric_limits<double>::infinity();
      for (size_t i = 0; i < len; ++i) mx = std::max(mx, double(beta) * x[at(i)]);
      double sum = 0;
      for (size_t i = 0; i < len; ++i) sum += std::exp(double(beta) * x[at(i)] - mx);
      for (size_t i = 0; i < len; ++i) {
        const double z = double(beta) * x[at(i)] - mx;
        out[at(i)] = float(logSoftmax ? z - std::log(sum) : std::exp(z) / sum);
      }
    }
  return out;
}

Floats layerNorm(const Floats& x, const Dims& d, std::vector<uint32_t> axes, const Floats& gamma,
                 const Floats& beta, float epsilon) {
  std::sort(axes.begin(), axes.end());
  std::vector<bool> reduced(d.size(), false);
  for (uint32_t a : axes) reduced[a] = true;
  const size_t total = count(d);
  // Group key = the coordinates on the kept dims; param index = those on the reduced dims.
  auto decompose = [&](size_t flat, size_t* key, size_t* param) {
    *key = 0, *param = 0;
    size_t mulK = 1, mulP = 1;
    for (size_t i = d.size(); i-- > 0;) {
      const size_t c = flat % d[i];
      flat /= d[i];
      if (reduced[i]) *param += c * mulP, mulP *= d[i];
      else *key += c * mulK, mulK *= d[i];
    }
  };
  size_t groupSize = 1;
  for (uint32_t a : axes) groupSize *= d[a];
  const size_t groups = total / groupSize;
  std::vector<double> sum(groups, 0), sq(groups, 0);
  for (size_t i = 0; i < total; ++i) {
    size_t k, p;
    decompose(i, &k, &p);
    sum[k] += x[i];
  }
  for (size_t i = 0; i < total; ++i) {
    size_t k, p;
    decompose(i, &k, &p);
    const double dev = x[i] - sum[k] / groupSize;
    sq[k] += dev * dev;
  }
  Floats out(total);
  for (size_t i = 0; i < total; ++i) {
    size_t k, p;
    decompose(i, &k, &p);
    const double norm = (x[i] - sum[k] / groupSize) / std::sqrt(sq[k] / groupSize + epsilon);
    out[i] = float(norm * (gamma.empty() ? 1.0 : gamma[p]) + (beta.empty() ? 0.0 : beta[p]));
  }
  return out;
}

Floats batchnorm(const Floats& x, const Dims& d, const Floats& weight, const Floats& bias) {
  Floats out(x.size());
  const size_t c = d.back();
  for (size_t i = 0; i < x.size(); ++i)
    out[i] = float(double(x[i]) * weight[i % c] + (bias.empty() ? 0.0 : bias[i % c]));
  return out;
}

Floats instanceNorm(const Floats& x, const Dims& d, const Floats& gamma, const Floats& beta, float epsilon,
                    bool normalizeVariance) {
  const size_t c = d.back(), batch = d[0], spatial = count(d) / (batch * c);
  Floats out(x.size());
  for (size_t b = 0; b < batch; ++b)
    for (size_t ch = 0; ch < c; ++ch) {
      auto at = [&](size_t p) { return (b * spatial + p) * c + ch; };
      double mean = 0, var = 0;
      for (size_t p = 0; p < spatial; ++p) mean += x[at(p)];
      mean /= spatial;
      for (size_t p = 0; p < spatial; ++p) var += (x[at(p)] - mean) * (x[at(p)] - mean);
      var /= spatial;
      const double scale = normalizeVariance ? 1.0 / std::sqrt(var + epsilon) : 1.0;
      for (size_t p = 0; p < spatial; ++p)
        out[at(p)] = float((x[at(p)] - mean) * scale * gamma[ch] + (beta.empty() ? 0.0 : beta[ch]));
    }
  return out;
}

namespace {
// Bilinear sample of an NHWC image at real coordinates (sy, sx) given the two
// neighbours and the fractions along each axis.
struct Taps {
  long lo, hi;
  double frac;
};

Floats sample2d(const Floats& x, const Dims& xd, const Dims& od, const std::vector<Taps>& ty,
                const std::vector<Taps>& tx) {
  Floats out(count(od));
  for (size_t b = 0; b < od[0]; ++b)
    for (size_t y = 0; y < od[1]; ++y)
      for (size_t xx = 0; xx < od[2]; ++xx)
        for (size_t c = 0; c < od[3]; ++c) {
          const Taps& a = ty[y];
          const Taps& e = tx[xx];
          const double top = x[nhwc(xd, b, a.lo, e.lo, c)] * (1 - e.frac) + x[nhwc(xd, b, a.lo, e.hi, c)] * e.frac;
          const double bot = x[nhwc(xd, b, a.hi, e.lo, c)] * (1 - e.frac) + x[nhwc(xd, b, a.hi, e.hi, c)] * e.frac;
          out[nhwc(od, b, y, xx, c)] = float(top * (1 - a.frac) + bot * a.frac);
        }
  return out;
}

Taps linearTaps(double coord, long in) {
  coord = std::min(std::max(coord, 0.0), double(in - 1));
  const long lo = long(std::floor(coord));
  return {lo, std::min(lo + 1, in - 1), coord - lo};
}
Taps nearestTaps(double index, long in) {
  const long i = std::min(std::max(long(index), 0L), in - 1);
  return {i, i, 0.0};
}
}  // namespace

Floats resize(const Floats& x, const Dims& xd, const Dims& outDims, uint32_t transformation, bool linear,
              uint32_t nearestMode) {
  // A 1-D spatial case is a 2-D one with height 1.
  Dims in4 = xd.size() == 4 ? xd : Dims{xd[0], 1, xd[1], xd[2]};
  Dims out4 = outDims.size() == 4 ? outDims : Dims{outDims[0], 1, outDims[1], outDims[2]};
  auto taps = [&](long in, long out) {
    std::vector<Taps> t;
    for (long o = 0; o < out; ++o) {
      double s = 0;
      const double scale = double(out) / in;  // ONNX: x_original = f(x_resized, scale)
      switch (transformation) {
        case 0: s = (o + 0.5) / scale - 0.5; break;
        case 1: s = out > 1 ? (o + 0.5) / scale - 0.5 : 0.0; break;
        case 2: s = out == 1 ? 0.0 : double(o) * (in - 1) / (out - 1); break;
        default: s = o / scale; break;
      }
      if (linear) {
        t.push_back(linearTaps(s, in));
      } else {
        double idx;
        const bool tie = s - std::floor(s) == 0.5;
        switch (nearestMode) {
          case 0: idx = tie ? std::floor(s) : std::round(s); break;
          case 1: idx = tie ? std::ceil(s) : std::round(s); break;
          case 2: idx = std::floor(s); break;
          default: idx = std::ceil(s); break;
        }
        t.push_back(nearestTaps(idx, in));
      }
    }
    return t;
  };
  return sample2d(x, in4, out4, taps(in4[1], out4[1]), taps(in4[2], out4[2]));
}

namespace {
// One line of ONNX's reference cubic resize (onnx/reference/ops/op_resize.py,
// _interpolate_1d_with_x): the 4 indices of the edge-padded line closest to the
// sample point (ties to the lower index), Keys' coefficients of the ratio in
// (0, 1], outside neighbours dropped and the rest renormalized when asked.
double cubicLine(const std::vector<double>& line, double xOri, double a, bool excludeOutside) {
  const long n = 4, pad = 2, len = long(line.size());
  const long xInt = long(std::floor(xOri));
  const double r = xOri == double(xInt) ? 1.0 : xOri - xInt;
  std::vector<double> c = {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
                           ((a + 2) * r - (a + 3)) * r * r + 1,
                           ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
                           ((a * ((1 - r) + 1) - 5 * a) * ((1 - r) + 1) + 8 * a) * ((1 - r) + 1) - 4 * a};
  std::vector<long> order(size_t(len + 2 * pad));
  for (size_t i = 0; i < order.size(); ++i) order[i] = long(i);
  const double xp = xOri + pad;
  std::stable_sort(order.begin(), order.end(), [&](long p, long q) { return std::fabs(xp - p) < std::fabs(xp - q); });
  std::vector<long> idx(order.begin(), order.begin() + n);
  std::sort(idx.begin(), idx.end());
  if (excludeOutside) {
    double sum = 0;
    for (long k = 0; k < n; ++k) {
      if (idx[k] - pad < 0 || idx[k] - pad >= len) c[k] = 0;
      sum += c[k];
    }
    for (double& v : c) v /= sum;
  }
  double out = 0;
  for (long k = 0; k < n; ++k) out += c[k] * line[size_t(std::min(std::max(idx[k] - pad, 0L), len - 1))];
  return out;
}

double onnxSourceCoordinate(long o, long in, long out, uint32_t transformation) {
  const double scale = double(out) / in;
  switch (transformation) {
    case 0: return (o + 0.5) / scale - 0.5;
    case 1: return out > 1 ? (o + 0.5) / scale - 0.5 : -0.5;
    case 2: return out == 1 ? 0.0 : double(o) * (in - 1) / (out - 1);
    default: return o / scale;
  }
}
}  // namespace

Floats resizeCubic(const Floats& x, const Dims& xd, const Dims& od, uint32_t transformation, double a,
                   bool excludeOutside) {
  // Width first for every input row, then height over those results (the
  // reference's nesting: the last axis innermost).
  Floats out(count(od));
  for (size_t b = 0; b < od[0]; ++b)
    for (size_t c = 0; c < od[3]; ++c) {
      std::vector<std::vector<double>> rows(xd[1], std::vector<double>(od[2]));
      for (size_t y = 0; y < xd[1]; ++y) {
        std::vector<double> line(xd[2]);
        for (size_t i = 0; i < xd[2]; ++i) line[i] = x[nhwc(xd, b, y, i, c)];
        for (size_t xo = 0; xo < od[2]; ++xo)
          rows[y][xo] = cubicLine(line, onnxSourceCoordinate(long(xo), long(xd[2]), long(od[2]), transformation), a,
                                  excludeOutside);
      }
      for (size_t xo = 0; xo < od[2]; ++xo) {
        std::vector<double> column(xd[1]);
        for (size_t y = 0; y < xd[1]; ++y) column[y] = rows[y][xo];
        for (size_t yo = 0; yo < od[1]; ++yo)
          out[nhwc(od, b, yo, xo, c)] = float(cubicLine(
              column, onnxSourceCoordinate(long(yo), long(xd[1]), long(od[1]), transformation), a, excludeOutside));
      }
    }
  return out;
}

Floats resizeBilinearTf(const Floats& x, const Dims& xd, const Dims& od, bool alignCorners, bool halfPixel) {
  auto taps = [&](long in, long out) {
    const double scale = alignCorners && out > 1 ? double(in - 1) / (out - 1) : double(in) / out;
    std::vector<Taps> t;
    for (long o = 0; o < out; ++o) {
      // TensorFlow: lower = max(floor(in), 0), upper = min(ceil(in), in-1), lerp = in - floor(in).
      const double s = halfPixel ? (o + 0.5) * scale - 0.5 : o * scale;
      const long lo = std::max(long(std::floor(s)), 0L), hi = std::min(long(std::ceil(s)), in - 1);
      t.push_back({std::min(lo, in - 1), hi, s - std::floor(s)});
    }
    return t;
  };
  return sample2d(x, xd, od, taps(xd[1], od[1]), taps(xd[2], od[2]));
}

Floats resizeNearestTf(const Floats& x, const Dims& xd, const Dims& od, bool alignCorners, bool halfPixel) {
  auto taps = [&](long in, long out) {
    const double scale = alignCorners && out > 1 ? double(in - 1) / (out - 1) : double(in) / out;
    std::vector<Taps> t;
    for (long o = 0; o < out; ++o) {
      const double s = halfPixel ? (o + 0.5) * scale : o * scale;
      t.push_back(nearestTaps(alignCorners ? std::round(s) : std::floor(s), in));
    }
    return t;
  };
  return sample2d(x, xd, od, taps(xd[1], od[1]), taps(xd[2], od[2]));
}

}  // namespace qnn::conformance::ref
