// fp16-mode kernels against an independent float64 reference: inputs and
// weights rounded to half, the op computed in double, the result rounded to
// half (fp16RoundRef below, written from the IEEE 754 definition, not from
// sdk/quant/half.h). The kernels accumulate in float32 before their one
// rounding, so a result may land one half ulp away when the exact value is
// within the float32 error of a rounding midpoint: tolerance per element =
// 1 ulp of half at the reference value + terms * 2^-23 * sum|terms| (float32
// accumulation bound). That is ~1e-3 relative for values away from 0.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <vector>

#include "htp_sim/kernels/htp_kernel.h"
#include "quant/half.h"

namespace qnn::htp {
namespace {

using sdk::DType;

// Nearest binary16 value of v (ties to even), from the format's definition:
// 10 fraction bits, exponents -14..15, subnormal step 2^-24, overflow at 65520.
double fp16RoundRef(double v) {
  if (std::isnan(v)) return v;
  const double a = std::fabs(v);
  if (a >= 65520.0) return std::copysign(std::numeric_limits<double>::infinity(), v);
  if (a == 0) return v;
  const int e = std::max(int(std::floor(std::log2(a))), -14);
  const double ulp = std::ldexp(1.0, e - 10);
  return std::copysign(std::nearbyint(a / ulp) * ulp, v);  // nearbyint: ties to even
}
double ulpAt(double v) { return std::ldexp(1.0, std::max(int(std::floor(std::log2(std::max(std::fabs(v), 1e-30)))), -14) - 10); }

std::vector<float> pattern(size_t n, uint32_t seed, float scale = 1.f) {
  std::vector<float> v(n);
  uint32_t s = seed * 2654435761u + 12345;
  for (auto& x : v) {
    s = s * 1664525u + 1013904223u;
    x = scale * (float((s >> 8) & 0xffff) / 32768.f - 1.f) * 1.0001f;  // not on the half grid
  }
  return v;
}
std::vector<double> rounded(const std::vector<float>& v) {
  std::vector<double> r(v.size());
  for (size_t i = 0; i < v.size(); ++i) r[i] = fp16RoundRef(v[i]);
  return r;
}

struct Buf {
  std::vector<uint32_t> dims;
  std::vector<float> f32;
  std::vector<uint16_t> f16;
  bool isStatic = false;
  DType dtype = DType::kFloat32;
  TensorView view(bool withData) {
    TensorView t;
    t.dtype = dtype;
    t.dims = dims;
    if (withData) t.data = dtype == DType::kFloat16 ? static_cast<void*>(f16.data()) : static_cast<void*>(f32.data());
    return t;
  }
};
Buf in32(std::vector<uint32_t> dims, std::vector<float> v, bool isStatic = false) {
  Buf b{std::move(dims), std::move(v), {}, isStatic, DType::kFloat32};
  return b;
}
Buf out32(std::vector<uint32_t> dims) {
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  return Buf{std::move(dims), std::vector<float>(n, -7.f), {}, false, DType::kFloat32};
}

void run(const char* op, const sdk::OpParams& params, std::vector<Buf>& in, std::vector<Buf>& out) {
  KernelFactory f = findKernel(op);
  ASSERT_NE(f, nullptr) << op;
  auto k = f(op);
  ASSERT_TRUE(k->init(params).isOk());
  std::vector<TensorView> pi, po, ei, eo;
  for (auto& b : in) pi.push_back(b.view(b.isStatic)), ei.push_back(b.view(true));
  for (auto& b : out) po.push_back(b.view(false)), eo.push_back(b.view(true));
  auto st = k->prepare(pi, po);
  ASSERT_TRUE(st.isOk()) << op << ": " << st.message();
  st = k->execute(ei, eo);
  ASSERT_TRUE(st.isOk()) << op << ": " << st.message();
}

// want[i] exact (double) results before the final rounding; sumAbs[i] the sum
// of |terms| and terms the count (0: no float32 accumulation error to allow).
void expectHalfClose(const std::vector<float>& got, const std::vector<double>& want,
                     const std::vector<double>& sumAbs = {}, double terms = 0) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < got.size(); ++i) {
    const double ref = fp16RoundRef(want[i]);
    const double tol = ulpAt(ref) + (sumAbs.empty() ? std::fabs(want[i]) : sumAbs[i]) * terms * std::ldexp(1.0, -23);
    ASSERT_NEAR(got[i], ref, tol) << "element " << i << " exact " << want[i];
    // The stored value is itself a half value.
    ASSERT_EQ(double(got[i]), fp16RoundRef(got[i])) << i;
  }
}

// Every binary16 bit pattern decodes to the value of its definition
// (-1)^s * 2^(e-15) * (1 + m/1024), subnormals 2^-14 * m/1024 (signed zeros
// included), infinities and NaNs as such; the subnormal branch (zeros, most
// of an unfilled KV cache) multiplies instead of calling ldexp.
TEST(Fp16Rounding, EveryHalfDecodesExactly) {
  for (uint32_t h = 0; h < 65536; ++h) {
    const float got = sdk::quant::halfBitsToFloat(uint16_t(h));
    const int e = int((h >> 10) & 31), m = int(h & 1023);
    const bool negative = (h & 0x8000) != 0;
    ASSERT_EQ(std::signbit(got), negative) << h;
    if (e == 31) {
      ASSERT_TRUE(m == 0 ? std::isinf(got) : std::isnan(got)) << h;
      continue;
    }
    const double magnitude = e == 0 ? std::ldexp(double(m), -24) : std::ldexp(1024.0 + m, e - 25);
    ASSERT_EQ(double(got), negative ? -magnitude : magnitude) << h;
    if (e != 0 || m != 0) { ASSERT_EQ(sdk::quant::floatToHalfBits(got), h) << h; }  // round trip
  }
}

TEST(Fp16Rounding, NearestEvenOverflowSubnormals) {
  using sdk::quant::roundToHalf;
  EXPECT_EQ(roundToHalf(1.f + std::ldexp(1.f, -11)), 1.f);                                      // tie -> even
  EXPECT_EQ(roundToHalf(1.f + 3 * std::ldexp(1.f, -11)), 1.f + std::ldexp(1.f, -9));            // tie -> even (up)
  EXPECT_EQ(roundToHalf(65519.f), 65504.f);
  EXPECT_TRUE(std::isinf(roundToHalf(65520.f)));
  EXPECT_EQ(roundToHalf(std::ldexp(1.f, -25)), 0.f);                                           // tie to even 0
  EXPECT_EQ(roundToHalf(3 * std::ldexp(1.f, -26)), std::ldexp(1.f, -24));
  EXPECT_TRUE(std::isnan(roundToHalf(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_EQ(sdk::quant::floatToHalfBits(-2.f), 0xc000);
  EXPECT_EQ(sdk::quant::halfBitsToFloat(0x3c01), 1.f + std::ldexp(1.f, -10));
  // Every float on a sweep agrees with the definition.
  for (float x : pattern(20000, 7, 70000.f)) ASSERT_EQ(double(roundToHalf(x)), fp16RoundRef(x)) << x;
  for (float x : pattern(20000, 8, 1e-4f)) ASSERT_EQ(double(roundToHalf(x)), fp16RoundRef(x)) << x;
}

sdk::OpParams convParams(uint32_t stride, uint32_t pad, uint32_t group, bool depthwise) {
  sdk::OpParams p;
  p.set("stride", sdk::tensorU32({2}, {stride, stride}));
  p.set("pad_amount", sdk::tensorU32({2, 2}, {pad, pad, pad, pad}));
  if (!depthwise) p.set("group", sdk::scalarU32(group));
  return p;
}

// NHWC / HWIO grouped conv in double on half-rounded operands.
void checkConv(const char* op, uint32_t H, uint32_t W, uint32_t cin, uint32_t cout, uint32_t k, uint32_t stride,
               uint32_t pad, uint32_t group, DType storage) {
  const uint32_t cinG = cin / group, coutG = cout / group;
  const uint32_t oh = (H + 2 * pad - k) / stride + 1, ow = (W + 2 * pad - k) / stride + 1;
  std::vector<Buf> in = {in32({1, H, W, cin}, pattern(H * W * cin, 1, 2.f)),
                         in32({k, k, cinG, cout}, pattern(k * k * cinG * cout, 2, 0.5f), true),
                         in32({cout}, pattern(cout, 3), true)};
  std::vector<Buf> out = {out32({1, oh, ow, cout})};
  if (storage == DType::kFloat16)
    for (Buf* b : {&in[0], &out[0]}) {
      b->dtype = DType::kFloat16;
      b->f16.resize(b->f32.size());
      for (size_t i = 0; i < b->f32.size(); ++i) b->f16[i] = sdk::quant::floatToHalfBits(b->f32[i]);
    }
  run(op, convParams(stride, pad, group, std::string(op) == "DepthWiseConv2d"), in, out);
  auto x = rounded(in[0].f32), w = rounded(in[1].f32), b = rounded(in[2].f32);
  std::vector<double> want(out[0].f32.size()), sumAbs(want.size());
  for (uint32_t y = 0; y < oh; ++y)
    for (uint32_t xx = 0; xx < ow; ++xx)
      for (uint32_t co = 0; co < cout; ++co) {
        const uint32_t g = co / coutG;
        double acc = b[co], s = std::fabs(b[co]);
        for (uint32_t kh = 0; kh < k; ++kh)
          for (uint32_t kw = 0; kw < k; ++kw) {
            int ih = int(y * stride + kh) - int(pad), iw = int(xx * stride + kw) - int(pad);
            if (ih < 0 || iw < 0 || ih >= int(H) || iw >= int(W)) continue;
            for (uint32_t ci = 0; ci < cinG; ++ci) {
              double t = x[(size_t(ih) * W + size_t(iw)) * cin + g * cinG + ci] * w[((kh * k + kw) * cinG + ci) * cout + co];
              acc += t, s += std::fabs(t);
            }
          }
        want[(y * ow + xx) * cout + co] = acc, sumAbs[(y * ow + xx) * cout + co] = s;
      }
  std::vector<float> got = out[0].f32;
  if (storage == DType::kFloat16)
    for (size_t i = 0; i < got.size(); ++i) got[i] = sdk::quant::halfBitsToFloat(out[0].f16[i]);
  expectHalfClose(got, want, sumAbs, k * k * cinG + 1);
}

TEST(Fp16Kernels, Conv2d) { checkConv("Conv2d", 7, 6, 5, 8, 3, 1, 1, 1, DType::kFloat32); }
TEST(Fp16Kernels, Conv2dStridedFloat16Storage) { checkConv("Conv2d", 9, 8, 4, 6, 3, 2, 1, 1, DType::kFloat16); }
TEST(Fp16Kernels, Conv2dGrouped) { checkConv("Conv2d", 6, 6, 8, 4, 3, 1, 0, 2, DType::kFloat32); }
TEST(Fp16Kernels, Conv2dDepthwiseAsGroups) { checkConv("Conv2d", 6, 5, 6, 6, 3, 2, 1, 6, DType::kFloat32); }
TEST(Fp16Kernels, DepthWiseConv2d) { checkConv("DepthWiseConv2d", 8, 7, 5, 5, 3, 1, 1, 5, DType::kFloat32); }
TEST(Fp16Kernels, Conv2dLongReduction) { checkConv("Conv2d", 4, 4, 96, 8, 3, 1, 1, 1, DType::kFloat32); }

TEST(Fp16Kernels, FullyConnectedAndMatMul) {
  const uint32_t M = 3, K = 40, N = 7;
  std::vector<Buf> in = {in32({M, K}, pattern(M * K, 4)), in32({N, K}, pattern(N * K, 5), true),
                         in32({N}, pattern(N, 6), true)};
  std::vector<Buf> out = {out32({M, N})};
  run("FullyConnected", {}, in, out);
  auto x = rounded(in[0].f32), w = rounded(in[1].f32), b = rounded(in[2].f32);
  std::vector<double> want(M * N), sumAbs(M * N);
  for (uint32_t m = 0; m < M; ++m)
    for (uint32_t n = 0; n < N; ++n) {
      double acc = b[n], s = std::fabs(b[n]);
      for (uint32_t k = 0; k < K; ++k) acc += x[m * K + k] * w[n * K + k], s += std::fabs(x[m * K + k] * w[n * K + k]);
      want[m * N + n] = acc, sumAbs[m * N + n] = s;
    }
  expectHalfClose(out[0].f32, want, sumAbs, K + 1);

  // MatMul [2, M, K] x [N, K]^T (transpose_in1, broadcast batch).
  std::vector<Buf> mi = {in32({2, M, K}, pattern(2 * M * K, 7)), in32({N, K}, pattern(N * K, 8))};
  std::vector<Buf> mo = {out32({2, M, N})};
  sdk::OpParams p;
  p.set("transpose_in1", sdk::scalarBool(true));
  run("MatMul", p, mi, mo);
  auto a = rounded(mi[0].f32), bb = rounded(mi[1].f32);
  std::vector<double> mw(2 * M * N), ms(2 * M * N);
  for (uint32_t t = 0; t < 2; ++t)
    for (uint32_t m = 0; m < M; ++m)
      for (uint32_t n = 0; n < N; ++n) {
        double acc = 0, s = 0;
        for (uint32_t k = 0; k < K; ++k) {
          double v = a[(t * M + m) * K + k] * bb[n * K + k];
          acc += v, s += std::fabs(v);
        }
        mw[(t * M + m) * N + n] = acc, ms[(t * M + m) * N + n] = s;
      }
  expectHalfClose(mo[0].f32, mw, ms, K);
}

TEST(Fp16Kernels, ElementWiseWithBroadcast) {
  for (const char* op : {"ElementWiseAdd", "ElementWiseSubtract", "ElementWiseMultiply"}) {
    std::vector<Buf> in = {in32({2, 3, 4}, pattern(24, 9, 3.f)), in32({4}, pattern(4, 10, 3.f))};
    std::vector<Buf> out = {out32({2, 3, 4})};
    run(op, {}, in, out);
    auto a = rounded(in[0].f32), b = rounded(in[1].f32);
    std::vector<double> want(24);
    for (size_t i = 0; i < 24; ++i)
      want[i] = op[11] == 'A' ? a[i] + b[i % 4] : op[11] == 'S' ? a[i] - b[i % 4] : a[i] * b[i % 4];
    // One float32 operation on half operands is exact for +,-,*: no accumulation term.
    expectHalfClose(out[0].f32, want);
  }
}

TEST(Fp16Kernels, Activations) {
  std::vector<float> xs = pattern(200, 11, 8.f);
  struct Case {
    const char* op;
    std::function<double(double)> f;
  };
  std::vector<Case> cases = {
      {"Relu", [](double v) { return std::max(v, 0.0); }},
      {"Relu6", [](double v) { return std::min(std::max(v, 0.0), 6.0); }},
      {"Sigmoid", [](double v) { return 1 / (1 + std::exp(-v)); }},
      {"Tanh", [](double v) { return std::tanh(v); }},
      {"Gelu", [](double v) { return 0.5 * v * (1 + std::erf(v / std::sqrt(2.0))); }},
  };
  for (const Case& c : cases) {
    std::vector<Buf> in = {in32({200}, xs)};
    std::vector<Buf> out = {out32({200})};
    run(c.op, {}, in, out);
    auto x = rounded(xs);
    std::vector<double> want(200);
    for (size_t i = 0; i < 200; ++i) want[i] = c.f(x[i]);
    // libm float functions are within a few float ulps: 8 * 2^-23 relative.
    expectHalfClose(out[0].f32, want, {}, 8);
  }
  sdk::OpParams p;
  p.set("min_value", sdk::scalarF32(-1.5f));
  p.set("max_value", sdk::scalarF32(2.25f));
  std::vector<Buf> in = {in32({200}, xs)};
  std::vector<Buf> out = {out32({200})};
  run("ReluMinMax", p, in, out);
  auto x = rounded(xs);
  std::vector<double> want(200);
  for (size_t i = 0; i < 200; ++i) want[i] = std::min(std::max(x[i], -1.5), 2.25);
  expectHalfClose(out[0].f32, want);
}

TEST(Fp16Kernels, PoolsAndReduceMean) {
  const uint32_t H = 7, W = 7, C = 3;
  std::vector<float> xs = pattern(H * W * C, 12, 4.f);
  auto x = rounded(xs);
  for (bool isMax : {true, false}) {
    sdk::OpParams p;
    p.set("filter_size", sdk::tensorU32({2}, {3, 3}));
    p.set("stride", sdk::tensorU32({2}, {2, 2}));
    p.set("pad_amount", sdk::tensorU32({2, 2}, {1, 1, 1, 1}));
    std::vector<Buf> in = {in32({1, H, W, C}, xs)};
    std::vector<Buf> out = {out32({1, 4, 4, C})};
    run(isMax ? "PoolMax2d" : "PoolAvg2d", p, in, out);
    std::vector<double> want(4 * 4 * C), sumAbs(want.size());
    for (int oh = 0; oh < 4; ++oh)
      for (int ow = 0; ow < 4; ++ow)
        for (uint32_t c = 0; c < C; ++c) {
          double acc = isMax ? -1e30 : 0, s = 0;
          int n = 0;
          for (int kh = 0; kh < 3; ++kh)
            for (int kw = 0; kw < 3; ++kw) {
              int ih = oh * 2 + kh - 1, iw = ow * 2 + kw - 1;
              if (ih < 0 || iw < 0 || ih >= int(H) || iw >= int(W)) continue;
              double v = x[(size_t(ih) * W + size_t(iw)) * C + c];
              acc = isMax ? std::max(acc, v) : acc + v, s += std::fabs(v), ++n;
            }
          want[(size_t(oh) * 4 + size_t(ow)) * C + c] = isMax ? acc : acc / n;  // padding not counted
          sumAbs[(size_t(oh) * 4 + size_t(ow)) * C + c] = s / n;
        }
    expectHalfClose(out[0].f32, want, sumAbs, 10);
  }
  sdk::OpParams p;
  p.set("axes", sdk::tensorU32({2}, {1, 2}));
  p.set("keep_dims", sdk::scalarBool(true));
  std::vector<Buf> in = {in32({1, H, W, C}, xs)};
  std::vector<Buf> out = {out32({1, 1, 1, C})};
  run("ReduceMean", p, in, out);
  std::vector<double> want(C, 0), sumAbs(C, 0);
  for (size_t i = 0; i < x.size(); ++i) want[i % C] += x[i] / (H * W), sumAbs[i % C] += std::fabs(x[i]) / (H * W);
  expectHalfClose(out[0].f32, want, sumAbs, H * W + 1);
}

TEST(Fp16Kernels, SoftmaxAndLayerNorm) {
  const uint32_t R = 3, N = 50;
  std::vector<float> xs = pattern(R * N, 13, 5.f);
  auto x = rounded(xs);
  std::vector<Buf> in = {in32({R, N}, xs)};
  std::vector<Buf> out = {out32({R, N})};
  run("Softmax", {}, in, out);
  std::vector<double> want(R * N);
  for (uint32_t r = 0; r < R; ++r) {
    double mx = -1e30, sum = 0;
    for (uint32_t i = 0; i < N; ++i) mx = std::max(mx, x[r * N + i]);
    for (uint32_t i = 0; i < N; ++i) sum += std::exp(x[r * N + i] - mx);
    for (uint32_t i = 0; i < N; ++i) want[r * N + i] = std::exp(x[r * N + i] - mx) / sum;
  }
  // exp and the normalizing sum in float32: (N + 8) float ulps relative.
  expectHalfClose(out[0].f32, want, {}, N + 8);

  std::vector<float> gs = pattern(N, 14), bs = pattern(N, 15);
  sdk::OpParams p;
  p.set("axes", sdk::tensorU32({1}, {1}));
  p.set("epsilon", sdk::scalarF32(1e-5f));
  std::vector<Buf> li = {in32({R, N}, xs), in32({N}, gs, true), in32({N}, bs, true)};
  std::vector<Buf> lo = {out32({R, N})};
  run("LayerNorm", p, li, lo);
  auto g = rounded(gs), b = rounded(bs);
  std::vector<double> lw(R * N), ls(R * N);
  for (uint32_t r = 0; r < R; ++r) {
    double mean = 0, var = 0;
    for (uint32_t i = 0; i < N; ++i) mean += x[r * N + i] / N;
    for (uint32_t i = 0; i < N; ++i) var += (x[r * N + i] - mean) * (x[r * N + i] - mean) / N;
    for (uint32_t i = 0; i < N; ++i) {
      double nrm = (x[r * N + i] - mean) / std::sqrt(var + 1e-5);
      lw[r * N + i] = nrm * g[i] + b[i];
      ls[r * N + i] = std::fabs(nrm * g[i]) + std::fabs(b[i]);
    }
  }
  // Mean and variance summed in float32 over N terms.
  expectHalfClose(lo[0].f32, lw, ls, 2 * N + 8);
}

TEST(Fp16Kernels, MovementKeepsHalfValues) {
  std::vector<float> xs = pattern(24, 16, 100.f), ys = pattern(8, 17, 100.f);
  std::vector<Buf> in = {in32({2, 3, 4}, xs)};
  std::vector<Buf> out = {out32({4, 2, 3})};
  sdk::OpParams p;
  p.set("perm", sdk::tensorU32({3}, {2, 0, 1}));
  run("Transpose", p, in, out);
  auto x = rounded(xs);
  for (uint32_t a = 0; a < 2; ++a)
    for (uint32_t b = 0; b < 3; ++b)
      for (uint32_t c = 0; c < 4; ++c) ASSERT_EQ(double(out[0].f32[(c * 2 + a) * 3 + b]), x[(a * 3 + b) * 4 + c]);
  sdk::OpParams cp;
  cp.set("axis", sdk::scalarU32(1));
  std::vector<Buf> ci = {in32({2, 12}, xs), in32({2, 4}, ys, true)};
  std::vector<Buf> co = {out32({2, 16})};
  ci[1].dtype = DType::kFloat16;  // a FLOAT_16 static input beside a FLOAT_32 one
  for (float v : ys) ci[1].f16.push_back(sdk::quant::floatToHalfBits(v));
  run("Concat", cp, ci, co);
  auto y = rounded(ys);
  for (uint32_t r = 0; r < 2; ++r)
    for (uint32_t i = 0; i < 16; ++i)
      ASSERT_EQ(double(co[0].f32[r * 16 + i]), i < 12 ? x[r * 12 + i] : y[r * 4 + i - 12]) << r << "," << i;
}

TEST(Fp16Kernels, IntegerDataStillRunsTheIntegerKernel) {
  // Same op, fixed-point tensors: the datatype picks the integer kernel.
  std::vector<uint8_t> a = {10, 20, 30, 40}, b = {1, 2, 3, 4}, y(4);
  auto q = [](void* d, std::vector<uint32_t> dims) {
    TensorView t;
    t.data = d;
    t.dtype = DType::kUFixed8;
    t.dims = std::move(dims);
    t.quant.kind = sdk::QuantInfo::Kind::kScaleOffset;
    t.quant.scale = 0.5f;
    return t;
  };
  auto k = findKernel("ElementWiseAdd")("ElementWiseAdd");
  ASSERT_TRUE(k->init({}).isOk());
  ASSERT_TRUE(k->prepare({q(nullptr, {4}), q(nullptr, {4})}, {q(nullptr, {4})}).isOk());
  ASSERT_TRUE(k->execute({q(a.data(), {4}), q(b.data(), {4})}, {q(y.data(), {4})}).isOk());
  EXPECT_EQ(std::vector<uint8_t>(y), (std::vector<uint8_t>{11, 22, 33, 44}));
}

}  // namespace
}  // namespace qnn::htp
