// The host-speed paths of the HTP kernels against the paths they bypass, bit for bit:
//  * copy runs (copy_runs.h, transpose blocks included) against copying element by element through the map;
//  * a stored-value table against the function it tabulates (a Convert's on AVX-512 too);
//  * Binary with a constant operand (static, one value throughout: table + runs) against
//    the same op with that operand given only at execute (the per-element rule);
//  * QuantGemm's wide (16-bit A) product on VNNI against the exact integer product;
//  * MatMul with a dynamic B (direct sums) against the same B static (packed QuantGemm);
//  * the vector float <-> half conversions of the fp16 kernels against sdk/quant/half.h;
//  * which movement kernels report a plain copy (the engine then aliases the output);
//  * fp16 Add / Subtract / Multiply with broadcast operands spread along runs, against the
//    half-rounded float operation per element;
//  * Add / Subtract / Multiply of two 8/16-bit activations (binary_wide.h's typed loops,
//    AVX-512 or not) against the per-element rule, every dtype combination;
//  * Softmax's typed rows (the quotient without a 128-bit division; AVX-512 or not) against the
//    documented rule computed here in 128 bits;
//  * quantizeFloats / dequantizeAll (AVX-512 or not) against the scalar rule per value;
//  * WeightedOutput::finishRow on int64 sums (beyond int32) against finish per element;
//  * a table op (Sigmoid, Tanh) on 16-bit tensors against the real function quantized per value.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "htp_sim/kernels/binary_wide.h"
#include "htp_sim/kernels/copy_runs.h"
#include "htp_sim/kernels/fp16.h"
#include "htp_sim/kernels/htp_kernel.h"
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/quant_gemm.h"
#include "tests/htp_kernels/quant_views.h"
#include "htp_sim/kernels/weighted_output.h"

namespace qnn::htp {
namespace {

using sdk::DType;
using testing::pattern;

TEST(CopyRuns, MatchTheElementMap) {
  // Concat-like (two inputs in blocks), transpose-like (stride 7), pads, a broadcast (stride 0).
  std::vector<std::vector<std::pair<uint32_t, int64_t>>> maps(4);
  for (int64_t i = 0; i < 300; ++i) maps[0].push_back({uint32_t((i / 50) % 2), (i / 100) * 50 + i % 50});
  for (int64_t r = 0; r < 7; ++r)
    for (int64_t c = 0; c < 40; ++c) maps[1].push_back({0, c * 7 + r});
  for (int64_t i = 0; i < 200; ++i) maps[2].push_back({0, (i % 20) < 3 ? -1 : i});
  for (int64_t i = 0; i < 256; ++i) maps[3].push_back({1, (i / 64) * 0 + i % 64});
  const std::vector<uint16_t> in0 = pattern<uint16_t>(300, 3), in1 = pattern<uint16_t>(300, 5);
  const std::vector<const void*> inputs = {in0.data(), in1.data()};
  for (const auto& map : maps) {
    std::vector<CopyRun> runs;
    ASSERT_TRUE(buildCopyRuns(
        map.size(), [&](size_t i, uint32_t* input, int64_t* index) { *input = map[i].first, *index = map[i].second; },
        &runs));
    EXPECT_LT(runs.size(), map.size() / 4);
    if (&map == &maps[1]) {
      EXPECT_EQ(runs[0].block, 7u);  // the 7 strided runs form one transpose block
    }
    std::vector<uint16_t> got(map.size(), 0xdead), want(map.size());
    for (size_t i = 0; i < map.size(); ++i)
      want[i] = map[i].second < 0 ? 0x1234 : (map[i].first ? in1 : in0)[size_t(map[i].second)];
    ASSERT_TRUE(copyAlongRuns(runs, inputs, got.data(), 2, 0x1234));
    EXPECT_EQ(got, want);
  }
  // A scattered map is left to the caller.
  std::vector<CopyRun> runs;
  const std::vector<uint16_t> scattered = pattern<uint16_t>(500, 9);
  EXPECT_FALSE(buildCopyRuns(
      scattered.size(), [&](size_t i, uint32_t* input, int64_t* index) { *input = 0, *index = scattered[i]; }, &runs));
  EXPECT_TRUE(runs.empty());
}

TEST(StoredValueTable, EqualsItsFunctionOnEveryStoredValue) {
  for (DType in : {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16, DType::kSFixed16})
    for (DType out : {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16, DType::kSFixed16}) {
      const fx::QuantRange r = fx::quantRange(out);
      auto f = [&](int64_t q) { return std::min(std::max((q * 37 - 11) / 5, r.lo), r.hi); };
      StoredValueTable t;
      ASSERT_TRUE(t.build(in, out, f));
      EXPECT_FALSE(t.identity());
      const fx::QuantRange ri = fx::quantRange(in);
      const size_t n = size_t(ri.hi - ri.lo + 1), inSize = sdk::dtypeSize(in), outSize = sdk::dtypeSize(out);
      std::vector<uint8_t> x(n * inSize), y(n * outSize);
      for (int64_t q = ri.lo; q <= ri.hi; ++q) {
        const size_t i = size_t(q - ri.lo);
        if (inSize == 1) x[i] = uint8_t(q);
        else reinterpret_cast<uint16_t*>(x.data())[i] = uint16_t(q);
      }
      t.apply(x.data(), n, y.data());
      for (int64_t q = ri.lo; q <= ri.hi; ++q) {
        const size_t i = size_t(q - ri.lo);
        const int64_t want = f(q);
        int64_t got;
        if (outSize == 1) got = out == DType::kSFixed8 ? int8_t(y[i]) : y[i];
        else got = out == DType::kSFixed16 ? int16_t(reinterpret_cast<uint16_t*>(y.data())[i])
                                           : reinterpret_cast<uint16_t*>(y.data())[i];
        ASSERT_EQ(got, want) << "in " << int(in) << " out " << int(out) << " q " << q;
      }
    }
  StoredValueTable id;
  ASSERT_TRUE(id.build(DType::kUFixed16, DType::kUFixed16, [](int64_t q) { return q; }));
  EXPECT_TRUE(id.identity());
  EXPECT_FALSE(id.build(DType::kFloat32, DType::kUFixed16, [](int64_t q) { return q; }));
}

// A Convert's requantization on AVX-512 (useRequantization) against fx::requantize on every
// stored value, for several encodings (multipliers below and above 1, offsets far off).
TEST(StoredValueTable, VectorRequantizationEqualsTheRule) {
  struct Case {
    DType in, out;
    float sin, sout;
    int32_t oin, oout;
  };
  const Case cases[] = {{DType::kUFixed16, DType::kUFixed8, 0.0003f, 0.07f, -32000, -120},
                        {DType::kUFixed16, DType::kUFixed8, 0.0003f, 0.00002f, -31000, -20},
                        {DType::kSFixed16, DType::kUFixed16, 0.01f, 0.003f, 100, -30000},
                        {DType::kUFixed8, DType::kSFixed8, 0.05f, 0.01f, -128, 3},
                        {DType::kSFixed8, DType::kUFixed16, 0.05f, 0.0001f, 7, -32768},
                        {DType::kUFixed16, DType::kSFixed16, 0.001f, 0.001f, -40000, 9000}};
  for (const Case& c : cases) {
    fx::FixedPointMultiplier m;
    ASSERT_TRUE(fx::decomposeMultiplier(double(c.sin) / double(c.sout), &m));
    const fx::QuantRange r = fx::quantRange(c.out);
    auto f = [&](int64_t q) { return fx::requantize(q + c.oin, m, c.oout, r); };
    StoredValueTable t;
    ASSERT_TRUE(t.build(c.in, c.out, f));
    t.useRequantization(c.oin, m, c.oout, r);
    EXPECT_EQ(t.vectorized(), vnniAvailable());
    const fx::QuantRange ri = fx::quantRange(c.in);
    const size_t n = size_t(ri.hi - ri.lo + 1), inSize = sdk::dtypeSize(c.in), outSize = sdk::dtypeSize(c.out);
    std::vector<uint8_t> x(n * inSize + 3 * inSize), y(n * outSize + 3 * outSize);
    for (size_t i = 0; i < n + 3; ++i) {  // every value, then 3 more (a tail)
      const int64_t q = ri.lo + int64_t(i % n);
      if (inSize == 1) x[i] = uint8_t(q);
      else {
        const uint16_t v = uint16_t(q);
        std::memcpy(&x[2 * i], &v, 2);
      }
    }
    t.apply(x.data(), n + 3, y.data());
    for (size_t i = 0; i < n + 3; ++i) {
      const int64_t q = ri.lo + int64_t(i % n);
      uint16_t bits = y[i];
      if (outSize == 2) std::memcpy(&bits, &y[2 * i], 2);
      const int64_t got = outSize == 1 ? (c.out == DType::kSFixed8 ? int8_t(bits) : bits)
                                       : (c.out == DType::kSFixed16 ? int16_t(bits) : bits);
      ASSERT_EQ(got, f(q)) << "case " << (&c - cases) << " q " << q;
    }
  }
}

// One tensor of a kernel run: stored bytes, encoding, and whether prepare sees the data.
struct Operand {
  DType type;
  std::vector<uint32_t> dims;
  std::vector<uint8_t> bytes;
  float scale = 1.f;
  int32_t offset = 0;
  bool staticData = false;
};

std::vector<uint8_t> runKernel(const std::string& op, const sdk::OpParams& params, std::vector<Operand> in,
                               Operand out) {
  std::vector<TensorView> prepIn, execIn;
  for (Operand& t : in) {
    TensorView v = testing::quantView(t.type, t.dims, t.bytes.data(), t.scale, t.offset);
    execIn.push_back(v);
    if (!t.staticData) v.data = nullptr;
    prepIn.push_back(v);
  }
  size_t n = 1;
  for (uint32_t d : out.dims) n *= d;
  out.bytes.assign(n * sdk::dtypeSize(out.type), 0xab);
  std::vector<TensorView> outs = {testing::quantView(out.type, out.dims, out.bytes.data(), out.scale, out.offset)};
  std::vector<TensorView> prepOut = outs;
  prepOut[0].data = nullptr;
  auto k = findKernel(op)(op);
  EXPECT_TRUE(k->init(params).isOk());
  auto st = k->prepare(prepIn, prepOut);
  EXPECT_TRUE(st.isOk()) << op << ": " << st.message();
  if (!st.isOk()) return {};
  st = k->execute(execIn, outs);
  EXPECT_TRUE(st.isOk()) << op << ": " << st.message();
  return out.bytes;
}

std::vector<uint8_t> storedBytes(DType t, const std::vector<int64_t>& q) {
  const size_t size = sdk::dtypeSize(t);
  std::vector<uint8_t> b(q.size() * size);
  for (size_t i = 0; i < q.size(); ++i) {
    if (size == 1) b[i] = uint8_t(q[i]);
    else {
      const uint16_t v = uint16_t(q[i]);
      std::memcpy(&b[2 * i], &v, 2);
    }
  }
  return b;
}

// Every 16-bit stored value of the dynamic operand ([1, 2, 1, 32768]) against a constant,
// [1] or [1, 2, 3, 32768] (the dynamic operand broadcast along axis 2), on either side.
TEST(BinaryConstantOperand, EqualsThePerElementRule) {
  const char* ops[] = {"ElementWiseAdd", "ElementWiseSubtract", "ElementWiseMultiply", "ElementWiseMaximum",
                       "ElementWiseMinimum", "ElementWiseDivide", "ElementWiseSquaredDifference",
                       "ElementWiseFloorDiv"};
  for (DType tx : {DType::kUFixed16, DType::kSFixed16})
    for (DType ty : {DType::kUFixed16, DType::kUFixed8}) {
      const fx::QuantRange rx = fx::quantRange(tx);
      std::vector<int64_t> xq;
      for (int64_t q = rx.lo; q <= rx.hi; ++q) xq.push_back(q);
      const Operand x{tx, {1, 2, 1, 32768}, storedBytes(tx, xq), 0.0007f, tx == DType::kUFixed16 ? -31000 : 12};
      for (const char* op : ops)
        for (int side = 0; side < 2; ++side)
          for (bool fullShape : {false, true}) {
            SCOPED_TRACE(std::string(op) + " side " + std::to_string(side) + (fullShape ? " full" : " scalar"));
            const std::vector<uint32_t> cdims = fullShape ? std::vector<uint32_t>{1, 2, 3, 32768}
                                                          : std::vector<uint32_t>{1};
            const size_t cn = fullShape ? 2 * 3 * 32768 : 1;
            Operand c{DType::kUFixed8, cdims, std::vector<uint8_t>(cn, 200), 0.01f, -90, true};
            const Operand y{ty, {1, 2, fullShape ? 3u : 1u, 32768}, {}, 0.003f, ty == DType::kUFixed8 ? -100 : -30000};
            std::vector<Operand> in = side == 0 ? std::vector<Operand>{c, x} : std::vector<Operand>{x, c};
            const std::vector<uint8_t> fast = runKernel(op, {}, in, y);
            in[size_t(side)].staticData = false;
            const std::vector<uint8_t> general = runKernel(op, {}, in, y);
            ASSERT_EQ(fast.size(), general.size());
            EXPECT_TRUE(fast == general);
          }
    }
}

// An Expand lowered as an Add of zeros with the input's encoding: the broadcast input, exactly.
TEST(BinaryConstantOperand, AddOfZerosIsTheBroadcastCopy) {
  const std::vector<uint16_t> kv = pattern<uint16_t>(2 * 64 * 8, 21);
  std::vector<uint8_t> bytes(kv.size() * 2);
  std::memcpy(bytes.data(), kv.data(), bytes.size());
  const Operand x{DType::kUFixed16, {1, 2, 1, 64, 8}, bytes, 0.0004f, -32000};
  const Operand zeros{DType::kUFixed8, {1, 2, 4, 64, 8}, std::vector<uint8_t>(2 * 4 * 64 * 8, 0), 1.f, 0, true};
  const Operand y{DType::kUFixed16, {1, 2, 4, 64, 8}, {}, 0.0004f, -32000};
  const std::vector<uint8_t> got = runKernel("ElementWiseAdd", {}, {x, zeros}, y);
  ASSERT_EQ(got.size(), 2u * 4 * 64 * 8 * 2);
  for (size_t h = 0; h < 2; ++h)
    for (size_t rep = 0; rep < 4; ++rep)
      for (size_t i = 0; i < 64 * 8; ++i) {
        uint16_t v;
        std::memcpy(&v, &got[((h * 4 + rep) * 512 + i) * 2], 2);
        ASSERT_EQ(v, kv[h * 512 + i]) << h << " " << rep << " " << i;
      }
}

struct Lcg {
  uint32_t s;
  uint32_t next() { return s = s * 1664525u + 1013904223u; }
};

TEST(QuantGemm, WideProductOnVnniMatchesTheExactProduct) {
  Lcg rng{17};
  for (size_t m : {1u, 2u, 7u})
    for (size_t k : {1u, 5u, 64u, 259u, 512u})
      for (size_t n : {1u, 16u, 33u, 256u}) {
        std::vector<uint16_t> a(m * k);
        std::vector<int32_t> b(k * n);
        for (auto& v : a) v = uint16_t(rng.next() >> 16);
        for (size_t j = 0; j < n; ++j) {
          const int32_t offset = j % 2 ? 0 : -int32_t(rng.next() % 200);  // some columns shifted
          for (size_t kk = 0; kk < k; ++kk) b[kk * n + j] = int32_t(rng.next() >> 24) - 128 + offset;
        }
        for (size_t kk = 0; kk < k; ++kk) b[kk * n] = kk % 2 ? -128 : 127;  // the int8 ends
        QuantGemm g;
        ASSERT_TRUE(g.pack(b.data(), k, n, false, true));
        EXPECT_EQ(g.usesVnni(), vnniAvailable());
        std::vector<int64_t> got(m * n, -1);
        g.multiply(a.data(), m, k, got.data());
        for (size_t i = 0; i < m; ++i)
          for (size_t j = 0; j < n; ++j) {
            int64_t want = 0;
            for (size_t kk = 0; kk < k; ++kk) want += int64_t(a[i * k + kk]) * b[kk * n + j];
            ASSERT_EQ(got[i * n + j], want) << "m=" << m << " k=" << k << " n=" << n << " (" << i << ", " << j << ")";
          }
      }
}

// MatMul [1, 3, m, k] x [1, 3, k, n] (or [n, k] with transpose_in1): B given only at
// execute (direct sums) against B static at prepare (packed QuantGemm).
TEST(MatMulDynamicB, EqualsThePackedProduct) {
  uint32_t seed = 1;
  for (DType ta : {DType::kUFixed16, DType::kUFixed8, DType::kSFixed16})
    for (DType tb : {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16})
      for (bool transB : {false, true})
        for (uint32_t m : {1u, 4u, 6u})
          for (uint32_t k : {32u, 37u, 200u})
            for (uint32_t n : {48u, 37u}) {
            SCOPED_TRACE("a " + std::to_string(int(ta)) + " b " + std::to_string(int(tb)) + " transB " +
                         std::to_string(transB) + " m " + std::to_string(m) + " k " + std::to_string(k) + " n " +
                         std::to_string(n));
            const size_t sa = sdk::dtypeSize(ta), sb = sdk::dtypeSize(tb);
            const std::vector<uint8_t> abytes = pattern<uint8_t>(3 * m * k * sa, seed++);
            const std::vector<uint8_t> bbytes = pattern<uint8_t>(3 * k * n * sb, seed++);
            const Operand a{ta, {1, 3, m, k}, abytes, 0.002f, ta == DType::kUFixed16 ? -30000 : -100};
            const std::vector<uint32_t> bdims = transB ? std::vector<uint32_t>{1, 3, n, k}
                                                       : std::vector<uint32_t>{1, 3, k, n};
            Operand b{tb, bdims, bbytes, 0.01f, tb == DType::kSFixed8 ? 0 : tb == DType::kUFixed8 ? -128 : -32768};
            const Operand y{DType::kUFixed16, {1, 3, m, n}, {}, 0.05f, -32768};
            sdk::OpParams p;
            p.set("transpose_in1", sdk::scalarBool(transB));
            const std::vector<uint8_t> dynamicB = runKernel("MatMul", p, {a, b}, y);
            b.staticData = true;
            const std::vector<uint8_t> packed = runKernel("MatMul", p, {a, b}, y);
            ASSERT_EQ(dynamicB.size(), packed.size());
            EXPECT_TRUE(dynamicB == packed);
            }
}

// MatMul with in1_parts (the graph pass matmul_concat_reading): B given as parts along axis rank-2
// (transposed: parts of the output columns; else parts of the summed axis) gives the bytes of B whole.
TEST(MatMulDynamicB, PartsOfBEqualBWhole) {
  uint32_t seed = 7;
  for (DType ta : {DType::kUFixed16, DType::kUFixed8})
    for (DType tb : {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16})
      for (bool transB : {false, true})
        for (std::vector<uint32_t> lengths : {std::vector<uint32_t>{69, 1}, std::vector<uint32_t>{16, 33, 21}}) {
          SCOPED_TRACE("a " + std::to_string(int(ta)) + " b " + std::to_string(int(tb)) + " transB " +
                       std::to_string(transB) + " parts " + std::to_string(lengths.size()));
          constexpr uint32_t m = 2, other = 40;  // k = 40 with transB (n = 70), else n = 40 (k = 70)
          const size_t sa = sdk::dtypeSize(ta), sb = sdk::dtypeSize(tb);
          const uint32_t total = 70, k = transB ? other : total, n = transB ? total : other;
          const Operand a{ta, {1, 2, m, k}, pattern<uint8_t>(2 * m * k * sa, seed++), 0.002f,
                          ta == DType::kUFixed16 ? -30000 : -100};
          const float bScale = 0.01f;
          const int32_t bOffset = tb == DType::kSFixed8 ? 0 : tb == DType::kUFixed8 ? -128 : -32768;
          // Part p holds rows [at, at + len) of each batch's [total, other] matrix.
          const std::vector<uint8_t> whole = pattern<uint8_t>(2 * total * other * sb, seed++);
          std::vector<Operand> ins = {a};
          uint32_t at = 0;
          for (uint32_t len : lengths) {
            std::vector<uint8_t> bytes;
            for (uint32_t batch = 0; batch < 2; ++batch) {
              const uint8_t* first = whole.data() + (size_t(batch) * total + at) * other * sb;
              bytes.insert(bytes.end(), first, first + size_t(len) * other * sb);
            }
            ins.push_back(Operand{tb, {1, 2, len, other}, bytes, bScale, bOffset});
            at += len;
          }
          const Operand y{DType::kUFixed16, {1, 2, m, n}, {}, 0.05f, -32768};
          sdk::OpParams p;
          p.set("transpose_in1", sdk::scalarBool(transB));
          const std::vector<uint8_t> want =
              runKernel("MatMul", p, {a, Operand{tb, {1, 2, total, other}, whole, bScale, bOffset}}, y);
          p.set("in1_parts", sdk::scalarU32(uint32_t(lengths.size())));
          const std::vector<uint8_t> got = runKernel("MatMul", p, ins, y);
          ASSERT_EQ(got.size(), want.size());
          EXPECT_TRUE(got == want);
        }
}

// Floats around every half boundary (each half value, its midpoints to the neighbours, one
// ulp either side), subnormals, overflow to infinity at 65520, infinities and NaNs (whose
// blocks take the scalar code), in blocks and tails of every length.
TEST(Fp16Conversions, VectorPathsEqualTheScalarRule) {
  std::vector<float> x;
  for (uint32_t h = 0; h < 0x10000; h += 3) {
    const float v = sdk::quant::halfBitsToFloat(uint16_t(h));
    const float next = sdk::quant::halfBitsToFloat(uint16_t(h + 1));
    x.push_back(v);
    if (std::isfinite(v) && std::isfinite(next)) {
      const float mid = v + (next - v) / 2;
      x.push_back(mid);
      x.push_back(std::nextafter(mid, 0.f));
      x.push_back(std::nextafter(mid, 1e30f));
    }
  }
  for (float v : {65519.f, 65520.f, 65536.f, 1e-8f, -3e-8f, 2.98e-8f, 1e30f, -1e30f}) x.push_back(v);
  x.push_back(std::numeric_limits<float>::quiet_NaN());
  uint32_t payload = 0x7fc12345u;
  float nan;
  std::memcpy(&nan, &payload, 4);
  x.push_back(nan);
  for (size_t n : {x.size(), size_t(15), size_t(17), size_t(33)}) {
    TensorView f32;
    f32.dtype = DType::kFloat32;
    f32.dims = {uint32_t(n)};
    f32.data = x.data();
    std::vector<float> got;
    loadHalfValues(f32, &got, true);
    ASSERT_EQ(got.size(), n);
    std::vector<uint16_t> bits(n), wantBits(n);
    TensorView f16 = f32;
    f16.dtype = DType::kFloat16;
    f16.data = bits.data();
    storeHalfValues(f16, x.data(), n);
    std::vector<float> stored(n), wantStored(n);
    TensorView f32out = f32;
    f32out.data = stored.data();
    storeHalfValues(f32out, x.data(), n);
    for (size_t i = 0; i < n; ++i) {
      const float want = sdk::quant::roundToHalf(x[i]);
      ASSERT_EQ(std::memcmp(&got[i], &want, 4), 0) << "load " << x[i];
      ASSERT_EQ(std::memcmp(&stored[i], &want, 4), 0) << "store " << x[i];
      ASSERT_EQ(bits[i], sdk::quant::floatToHalfBits(x[i])) << "store half " << x[i];
    }
    std::vector<float> fromHalf;
    loadHalfValues(f16, &fromHalf, true);
    for (size_t i = 0; i < n; ++i) {
      const float want = sdk::quant::halfBitsToFloat(bits[i]);
      ASSERT_EQ(std::memcmp(&fromHalf[i], &want, 4), 0) << "half bits " << bits[i];
    }
  }
  // Every half bit pattern, signalling NaNs included, loads as half.h reads it.
  std::vector<uint16_t> all(0x10000);
  for (uint32_t h = 0; h < 0x10000; ++h) all[h] = uint16_t(h);
  TensorView f16;
  f16.dtype = DType::kFloat16;
  f16.dims = {0x10000};
  f16.data = all.data();
  std::vector<float> v;
  loadHalfValues(f16, &v, true);
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const float want = sdk::quant::halfBitsToFloat(uint16_t(h));
    ASSERT_EQ(std::memcmp(&v[h], &want, 4), 0) << h;
  }
}

// Only a Reshape-like copy with equal dtype and encoding lets the engine alias its output.
TEST(MovementKernel, ReportsAPlainCopyOnlyForUnchangedBytes) {
  auto prepared = [](const std::string& op, const sdk::OpParams& p, DType out, std::vector<uint32_t> outDims,
                     float outScale) {
    TensorView x = testing::quantView(DType::kUFixed16, {2, 3, 4}, nullptr, 0.5f, -7);
    TensorView y = testing::quantView(out, std::move(outDims), nullptr, outScale, -7);
    auto k = findKernel(op)(op);
    EXPECT_TRUE(k->init(p).isOk());
    EXPECT_TRUE(k->prepare({x}, {y}).isOk()) << op;
    return k;
  };
  EXPECT_TRUE(prepared("Reshape", {}, DType::kUFixed16, {6, 4}, 0.5f)->outputIsInputCopy());
  EXPECT_FALSE(prepared("Reshape", {}, DType::kUFixed16, {6, 4}, 0.25f)->outputIsInputCopy());  // requantizes
  sdk::OpParams perm;
  perm.set("perm", sdk::tensorU32({3}, {0, 2, 1}));
  EXPECT_FALSE(prepared("Transpose", perm, DType::kUFixed16, {2, 4, 3}, 0.5f)->outputIsInputCopy());
  EXPECT_FALSE(findKernel("ElementWiseAdd")("ElementWiseAdd")->outputIsInputCopy());
}

TEST(Fp16Binary, BroadcastOperandsSpreadAlongRunsGiveTheElementOperation) {
  const std::vector<uint32_t> da = {2, 1, 3, 8}, db = {1, 4, 1, 8}, dy = {2, 4, 3, 8};
  std::vector<float> a(2 * 3 * 8), b(4 * 8);
  uint32_t seed = 5;
  for (auto* v : {&a, &b})
    for (float& x : *v) x = float(int32_t((seed = seed * 1664525u + 1013904223u) >> 20) - 2048) / 97.f;
  a[3] = -0.f;  // -0 + +0 is +0: a broadcast copy would be wrong, the operation is kept
  b[3] = 0.f;
  for (const char* op : {"ElementWiseAdd", "ElementWiseSubtract", "ElementWiseMultiply"}) {
    TensorView va, vb, vy;
    va.dtype = vb.dtype = vy.dtype = DType::kFloat32;
    va.dims = da, vb.dims = db, vy.dims = dy;
    std::vector<float> y(2 * 4 * 3 * 8, -1.f);
    auto k = findKernel(op)(op);
    ASSERT_TRUE(k->init({}).isOk());
    ASSERT_TRUE(k->prepare({va, vb}, {vy}).isOk()) << op;
    va.data = a.data(), vb.data = b.data(), vy.data = y.data();
    ASSERT_TRUE(k->execute({va, vb}, {vy}).isOk()) << op;
    for (uint32_t i = 0; i < 2; ++i)
      for (uint32_t j = 0; j < 4; ++j)
        for (uint32_t r = 0; r < 3; ++r)
          for (uint32_t c = 0; c < 8; ++c) {
            const float x = sdk::quant::roundToHalf(a[(i * 3 + r) * 8 + c]), w = sdk::quant::roundToHalf(b[j * 8 + c]);
            const float e = std::string(op) == "ElementWiseAdd" ? x + w : std::string(op) == "ElementWiseSubtract" ? x - w : x * w;
            const float want = sdk::quant::roundToHalf(e), got = y[((i * 4 + j) * 3 + r) * 8 + c];
            ASSERT_EQ(std::memcmp(&got, &want, 4), 0) << op << " " << i << j << r << c;
          }
  }
}

// Random stored values with each dtype's ends and zero among them; equal shapes and either
// operand repeated along the trailing axes; encodings that saturate and that do not.
TEST(BinaryWide, TypedLoopsEqualThePerElementRule) {
  const DType types[] = {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16, DType::kSFixed16};
  struct Enc {
    float sa, sb, sy;
    int32_t oa, ob, oy;
  };
  const Enc encs[] = {{0.0007f, 0.003f, 0.004f, -31000, 12, -30000},
                      {0.02f, 0.0005f, 0.00001f, -100, 0, 7},        // the output saturates
                      {0.0003f, 0.0003f, 0.0009f, 0, -32768, -20}};
  const std::vector<uint32_t> full = {2, 3, 37};
  Lcg rng{99};
  auto values = [&](DType t, size_t n) {
    const fx::QuantRange r = fx::quantRange(t);
    std::vector<int64_t> q(n);
    for (size_t i = 0; i < n; ++i) q[i] = r.lo + int64_t(rng.next() % uint32_t(r.hi - r.lo + 1));
    q[0] = r.lo, q[1] = r.hi, q[2 % n] = 0;
    return storedBytes(t, q);
  };
  for (const char* op : {"ElementWiseAdd", "ElementWiseSubtract", "ElementWiseMultiply"})
    for (DType ta : types)
      for (DType tb : types)
        for (DType ty : types)
          for (const Enc& e : encs)
            for (int shape = 0; shape < 4; ++shape) {
              SCOPED_TRACE(std::string(op) + " " + std::to_string(int(ta)) + " " + std::to_string(int(tb)) + " " +
                           std::to_string(int(ty)) + " shape " + std::to_string(shape));
              // shape 3: a period (1100) longer than the kernels' tiling chunk, used as it is
              const std::vector<uint32_t> out = shape == 3 ? std::vector<uint32_t>{3, 1100} : full;
              const std::vector<uint32_t> da = shape == 1 ? std::vector<uint32_t>{1, 1, 37} : out;
              const std::vector<uint32_t> db = shape == 2 ? std::vector<uint32_t>{37} : shape == 3 ? std::vector<uint32_t>{1100} : out;
              const Operand a{ta, da, values(ta, shape == 1 ? 37 : shape == 3 ? 3300 : 222), e.sa, e.oa};
              const Operand b{tb, db, values(tb, shape == 2 ? 37 : shape == 3 ? 1100 : 222), e.sb, e.ob};
              const Operand y{ty, out, {}, e.sy, e.oy};
              gBinaryWidePath = true;
              const std::vector<uint8_t> fast = runKernel(op, {}, {a, b}, y);
              gBinaryWidePath = false;
              const std::vector<uint8_t> general = runKernel(op, {}, {a, b}, y);
              gBinaryWidePath = true;
              ASSERT_EQ(fast.size(), general.size());
              ASSERT_TRUE(fast == general);
            }
}

}  // namespace
}  // namespace qnn::htp

namespace qnn::htp {
namespace {

// Softmax on the last axis by the rule of softmax.cpp's header, here in double and 128-bit integers:
// E[d] = round(exp(-s_in d) 2^30), S = sum E, p = round_half_away(E 2^30 / S), out = requantize(p,
// 2^-30 / s_out). Rows with values far below their maximum (E = 0; alternating, and a masked suffix
// as an attention mask gives), every unsigned dtype pair, the AVX-512 rows and the scalar ones.
TEST(QuantSoftmax, TypedRowsEqualTheRule) {
  __extension__ typedef __int128 Wide;
  uint32_t seed = 3;
  for (bool vector : {true, false})
    for (DType ti : {DType::kUFixed8, DType::kUFixed16})
      for (DType to : {DType::kUFixed8, DType::kUFixed16})
        for (uint32_t len : {77u, 512u}) {
          SCOPED_TRACE(std::to_string(int(ti)) + " -> " + std::to_string(int(to)) + " len " + std::to_string(len) +
                       (vector ? " vector" : " scalar"));
          const bool in16 = ti == DType::kUFixed16, out16 = to == DType::kUFixed16;
          const float si = in16 ? 0.0006f : 0.1f, so = out16 ? 1.f / 65536 : 1.f / 256;
          const uint32_t rows = 5;
          const fx::QuantRange ri = fx::quantRange(ti), ro = fx::quantRange(to);
          std::vector<int64_t> q(rows * len);
          const std::vector<uint16_t> noise = pattern<uint16_t>(q.size(), seed++);
          for (size_t i = 0; i < q.size(); ++i) {
            const size_t r = i / len, c = i % len;
            const int64_t near = ri.hi - noise[i] % (in16 ? 3000 : 40);
            // row 0 spread over the range, row 1 near one value, rows 2-3 half masked to the minimum,
            // row 4 masked after its first 37 values
            q[i] = r == 0 ? noise[i] % (ri.hi + 1)
                   : r == 1 ? ri.hi - noise[i] % 9
                   : r == 4 ? (c < 37 ? near : ri.lo)
                            : (c % 2 ? ri.lo : near);
          }
          Operand x{ti, {1, rows, len}, storedBytes(ti, q), si, in16 ? -60000 : -200};
          const Operand y{to, {1, rows, len}, {}, so, 0};
          gSoftmaxVectorRows = vector;
          const std::vector<uint8_t> got = runKernel("Softmax", {}, {x}, y);
          gSoftmaxVectorRows = true;
          fx::FixedPointMultiplier m;
          ASSERT_TRUE(fx::decomposeMultiplier(std::ldexp(1.0, -30) / double(so), &m));
          std::vector<int64_t> want(q.size());
          size_t zeros = 0;
          for (uint32_t r = 0; r < rows; ++r) {
            const int64_t* row = &q[r * len];
            const int64_t maxQ = *std::max_element(row, row + len);
            auto e = [&](int64_t v) { return std::llround(std::exp(-double(si) * double(maxQ - v)) * 1073741824.0); };
            Wide sum = 0;
            for (uint32_t c = 0; c < len; ++c) sum += e(row[c]);
            for (uint32_t c = 0; c < len; ++c) {
              const Wide num = Wide(e(row[c])) << 30;
              zeros += num == 0;
              const int64_t p = int64_t((2 * num + sum) / (2 * sum));
              want[r * len + c] = fx::requantize(p, m, 0, ro);
            }
          }
          EXPECT_GT(zeros, 0u);
          EXPECT_TRUE(got == storedBytes(to, want));
        }
}

// quantizeFloats / dequantizeAll (Quantize, Dequantize, the real-valued kernels' conversions; AVX-512
// for 8/16-bit tensors) against fx::quantizeValue / fx::dequantizeValue per element: ties of the float
// quotient, NaN, infinities, values beyond the range, a 4-bit range in 8 bits, lengths with a tail.
TEST(QuantizeFloats, EqualTheScalarRulePerValue) {
  const struct {
    DType t;
    float scale;
    int32_t offset;
    uint32_t bitwidth;
  } cases[] = {{DType::kUFixed8, 0.02f, -128, 0},   {DType::kSFixed8, 0.5f, 3, 0},
               {DType::kUFixed16, 0.0003f, -33084, 0}, {DType::kSFixed16, 7.f, -100, 0},
               {DType::kUFixed8, 0.1f, -8, 4},     {DType::kUFixed16, 1.4922e-05f, 0, 0}};
  Lcg rng{7};
  for (const auto& c : cases)
    for (size_t n : {size_t(5), size_t(16), size_t(77)}) {
      SCOPED_TRACE(std::to_string(int(c.t)) + " scale " + std::to_string(c.scale) + " n " + std::to_string(n));
      std::vector<float> x(n);
      for (size_t i = 0; i < n; ++i) {
        const float k = float(int32_t(rng.next() % 4001) - 2000) * 0.5f;  // whole and half steps
        x[i] = i % 3 == 0 ? (k - float(c.offset)) * c.scale : float(int32_t(rng.next() % 2000001) - 1000000) * 1e-3f;
      }
      const float specials[] = {std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::infinity(),
                                -std::numeric_limits<float>::infinity(), 3e38f, -3e38f, -0.f, 1e-40f};
      for (size_t i = 0; i < std::size(specials) && 2 * i + 1 < n; ++i) x[2 * i + 1] = specials[i];
      const fx::QuantRange range = fx::quantRange(c.t, c.bitwidth);
      std::vector<uint8_t> got(n * sdk::dtypeSize(c.t));
      const TensorView out = testing::quantView(c.t, {uint32_t(n)}, got.data(), c.scale, c.offset);
      quantizeFloats(x.data(), n, Encoding{c.scale, c.offset}, range, out);
      std::vector<int64_t> want(n), stored(n);
      for (size_t i = 0; i < n; ++i) {
        want[i] = fx::quantizeValue(x[i], c.scale, c.offset, range);
        stored[i] = loadInt(out, i);
      }
      EXPECT_EQ(stored, want);
      std::vector<float> back(n);
      dequantizeAll(out, Encoding{c.scale, c.offset}, back.data());
      for (size_t i = 0; i < n; ++i) {
        const float ref = fx::dequantizeValue(stored[i], c.scale, c.offset);
        EXPECT_EQ(std::memcmp(&back[i], &ref, sizeof(float)), 0) << i;
      }
    }
}

// Sums of 16-bit activations leave int32: finishRow's 128-bit loop (and its AVX-512 form, lanes at
// 2^62 and beyond left to finish) against finish element by element, sums around the int32 bounds
// and far beyond, positive and negative, with a bias and a clamp.
TEST(WeightedOutput, Int64RowsEqualFinishPerElement) {
  const size_t n = 40;
  std::vector<Encoding> w(n);
  for (size_t c = 0; c < n; ++c) w[c] = {0.001f * float(c + 1), 0};
  std::vector<int32_t> bias(n);
  for (size_t c = 0; c < n; ++c) bias[c] = int32_t(c * 977) - 20000;
  const TensorView b = testing::quantView(DType::kSFixed32, {uint32_t(n)}, bias.data(), 0.0000001f, 0);
  for (DType to : {DType::kUFixed16, DType::kUFixed8}) {
    const TensorView y = testing::quantView(to, {1, uint32_t(n)}, nullptr, to == DType::kUFixed16 ? 0.01f : 2.f, -30);
    WeightedOutput out;
    out.setClamp(-50.0, 300.0);
    ASSERT_TRUE(out.prepare("FullyConnected", Encoding{0.0001f, -32768}, w, &b, y).isOk());
    std::vector<int64_t> acc(n), correction(n), got(n);
    for (int64_t base : {int64_t(INT32_MAX) - 20, int64_t(INT32_MIN) + 3, int64_t(1) << 40, -(int64_t(1) << 41),
                         int64_t(5), (int64_t(1) << 62) - 50, -(int64_t(1) << 62) + 50, int64_t(3) << 60}) {
      for (size_t j = 0; j < n; ++j) {
        acc[j] = base + int64_t(j) * 3 - 60;
        correction[j] = int64_t(j % 3) * 1000 - 1000;
      }
      out.finishRow(acc.data(), n, 0, correction.data(), got.data());
      for (size_t j = 0; j < n; ++j)
        EXPECT_EQ(got[j], out.finish(acc[j] + out.addend(j) + correction[j], j)) << "base " << base << " j " << j;
    }
  }
}

// Every stored value of a 16-bit input (and an 8-bit one into 16 bits) through Sigmoid / Tanh:
// out = quantize(f(dequantize(q))) by the float-to-fixed rule of sdk/quant/fixed_point.h.
TEST(TableKernel, WideTablesEqualTheQuantizedFunction) {
  const struct {
    DType in, out;
  } pairs[] = {{DType::kUFixed16, DType::kUFixed16}, {DType::kUFixed16, DType::kUFixed8},
               {DType::kSFixed16, DType::kUFixed16}, {DType::kUFixed8, DType::kUFixed16}};
  for (const char* op : {"Sigmoid", "Tanh"})
    for (const auto& c : pairs) {
      SCOPED_TRACE(std::string(op) + " " + std::to_string(int(c.in)) + " -> " + std::to_string(int(c.out)));
      const fx::QuantRange ri = fx::quantRange(c.in), ro = fx::quantRange(c.out);
      std::vector<int64_t> q;
      for (int64_t v = ri.lo; v <= ri.hi; ++v) q.push_back(v);
      const float si = sdk::dtypeSize(c.in) == 2 ? 0.0003f : 0.05f;
      const int32_t oi = c.in == DType::kUFixed16 ? -33000 : c.in == DType::kUFixed8 ? -120 : 0;
      const float so = sdk::dtypeSize(c.out) == 2 ? 1.f / 32768 : 1.f / 128;
      const int32_t oo = std::string(op) == "Tanh" ? (sdk::dtypeSize(c.out) == 2 ? -32768 : -128) : 0;
      const Operand x{c.in, {1, uint32_t(q.size())}, storedBytes(c.in, q), si, oi};
      const Operand y{c.out, {1, uint32_t(q.size())}, {}, so, oo};
      const std::vector<uint8_t> got = runKernel(op, {}, {x}, y);
      std::vector<int64_t> want(q.size());
      for (size_t i = 0; i < q.size(); ++i) {
        const double real = double(fx::dequantizeValue(q[i], si, oi));
        const double f = std::string(op) == "Tanh" ? std::tanh(real) : 1.0 / (1.0 + std::exp(-real));
        want[i] = fx::quantizeValue(f, so, oo, ro);
      }
      EXPECT_TRUE(got == storedBytes(c.out, want));
    }
}

}  // namespace
}  // namespace qnn::htp
