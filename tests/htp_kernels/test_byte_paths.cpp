// The 8-bit fast paths (byte_paths.h) against the general per-element path.
// The same values and encodings run once as 8-bit tensors (fast path) and once
// as 16-bit tensors (general path: no fast path there); every rule ends in a
// saturation, so the 8-bit result must be the 16-bit result saturated to the
// 8-bit range, bit for bit. Binary ops see every pair of input bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "htp_sim/kernels/htp_kernel.h"
#include "tests/htp_kernels/quant_views.h"

namespace qnn::htp {
namespace {

using sdk::DType;
using testing::pattern;

// A tensor given by its stored values, as 8-bit or as its 16-bit twin.
struct Values {
  DType type;  // kUFixed8 or kSFixed8
  std::vector<uint32_t> dims;
  std::vector<int32_t> q;
  float scale;
  int32_t offset;
};

DType wide(DType t) { return t == DType::kSFixed8 ? DType::kSFixed16 : DType::kUFixed16; }

struct Buffers {
  std::vector<std::vector<uint16_t>> storage;  // large enough for either width
  std::vector<TensorView> views;
};

Buffers viewsOf(const std::vector<Values>& ts, bool asWide, bool withData) {
  Buffers b;
  b.storage.reserve(ts.size());
  for (const Values& t : ts) {
    size_t n = 1;
    for (uint32_t d : t.dims) n *= d;
    b.storage.emplace_back(n);
    std::vector<uint16_t>& s = b.storage.back();
    for (size_t i = 0; i < n && withData; ++i) {
      if (asWide) s[i] = uint16_t(int16_t(t.q[i]));
      else reinterpret_cast<uint8_t*>(s.data())[i] = uint8_t(int8_t(t.q[i]));
    }
    b.views.push_back(testing::quantView(asWide ? wide(t.type) : t.type, t.dims, s.data(), t.scale, t.offset));
  }
  return b;
}

std::vector<int32_t> stored(const TensorView& v) {
  std::vector<int32_t> out(v.numElements());
  for (size_t i = 0; i < out.size(); ++i) {
    switch (v.dtype) {
      case DType::kUFixed8: out[i] = v.as<uint8_t>()[i]; break;
      case DType::kSFixed8: out[i] = v.as<int8_t>()[i]; break;
      case DType::kUFixed16: out[i] = v.as<uint16_t>()[i]; break;
      default: out[i] = v.as<int16_t>()[i]; break;
    }
  }
  return out;
}

std::vector<int32_t> run(const std::string& op, const sdk::OpParams& p, const std::vector<Values>& in,
                         const Values& out, bool asWide, const double* clamp = nullptr) {
  Buffers bi = viewsOf(in, asWide, true), bo = viewsOf({out}, asWide, false);
  auto k = findKernel(op)(op);
  EXPECT_TRUE(k->init(p).isOk());
  if (clamp) {
    const auto e = sdk::Epilogue::clampTo(float(clamp[0]), float(clamp[1]));
    EXPECT_TRUE(k->supportsEpilogue(e));
    EXPECT_TRUE(k->setEpilogue(e).isOk());
  }
  auto st = k->prepare(bi.views, bo.views);
  EXPECT_TRUE(st.isOk()) << op << ": " << st.message();
  if (!st.isOk()) return {};
  st = k->execute(bi.views, bo.views);
  EXPECT_TRUE(st.isOk()) << op << ": " << st.message();
  return stored(bo.views[0]);
}

// The 8-bit run equals the 16-bit run saturated to the 8-bit range.
void expectFastEqualsGeneral(const std::string& op, const sdk::OpParams& p, const std::vector<Values>& in,
                             const Values& out, const double* clamp = nullptr) {
  const std::vector<int32_t> narrow = run(op, p, in, out, false, clamp), general = run(op, p, in, out, true, clamp);
  ASSERT_EQ(narrow.size(), general.size());
  const int32_t lo = out.type == DType::kSFixed8 ? -128 : 0, hi = out.type == DType::kSFixed8 ? 127 : 255;
  size_t mismatches = 0;
  for (size_t i = 0; i < narrow.size(); ++i)
    if (narrow[i] != std::min(std::max(general[i], lo), hi) && ++mismatches <= 5)
      ADD_FAILURE() << op << " element " << i << ": 8-bit " << narrow[i] << ", 16-bit " << general[i];
  EXPECT_EQ(mismatches, 0u);
}

int32_t lowOf(DType t) { return t == DType::kSFixed8 ? -128 : 0; }

// [256, 256]: a[i][j] = i-th value, b[i][j] = j-th value.
Values rowsOfEveryValue(DType t, bool rowIndex, float scale, int32_t offset) {
  Values v{t, {256, 256}, std::vector<int32_t>(65536), scale, offset};
  for (int i = 0; i < 256; ++i)
    for (int j = 0; j < 256; ++j) v.q[size_t(i) * 256 + j] = lowOf(t) + (rowIndex ? i : j);
  return v;
}
Values everyValue(DType t, float scale, int32_t offset) {
  Values v{t, {256}, std::vector<int32_t>(256), scale, offset};
  for (int i = 0; i < 256; ++i) v.q[size_t(i)] = lowOf(t) + i;
  return v;
}

struct BinaryEncodings {
  DType ta, tb, to;
  float sa, sb, so;
  int32_t oa, ob, oo;
};

const BinaryEncodings kBinaryEncodings[] = {
    {DType::kUFixed8, DType::kUFixed8, DType::kUFixed8, 0.05f, 0.03f, 0.07f, -120, -128, -128},
    {DType::kSFixed8, DType::kSFixed8, DType::kSFixed8, 0.02f, 0.02f, 0.02f, 3, -5, 0},
    {DType::kUFixed8, DType::kSFixed8, DType::kUFixed8, 0.1f, 0.004f, 0.06f, -17, 20, -30},
    // Offsets far from the data: (a + offset) * 2^20 leaves int32 (applyMultiplier's wide branch).
    {DType::kUFixed8, DType::kUFixed8, DType::kSFixed8, 0.01f, 0.5f, 1.3f, -2100, 900, 40},
};

class BytePathBinary : public ::testing::TestWithParam<const char*> {};

TEST_P(BytePathBinary, EveryPairOfBytesSameShape) {
  for (const BinaryEncodings& e : kBinaryEncodings) {
    SCOPED_TRACE(std::string(GetParam()) + " encodings " + std::to_string(&e - kBinaryEncodings));
    const Values a = rowsOfEveryValue(e.ta, true, e.sa, e.oa), b = rowsOfEveryValue(e.tb, false, e.sb, e.ob);
    const Values y{e.to, {256, 256}, {}, e.so, e.oo};
    expectFastEqualsGeneral(GetParam(), {}, {a, b}, y);
    const double relu6[2] = {0, 6};
    expectFastEqualsGeneral(GetParam(), {}, {a, b}, y, relu6);
  }
}

TEST_P(BytePathBinary, EveryPairOfBytesBroadcast) {
  for (const BinaryEncodings& e : kBinaryEncodings) {
    SCOPED_TRACE(std::string(GetParam()) + " encodings " + std::to_string(&e - kBinaryEncodings));
    const Values y{e.to, {256, 256}, {}, e.so, e.oo};
    // Per-channel (last axis) second operand, then a repeated first operand.
    expectFastEqualsGeneral(GetParam(), {}, {rowsOfEveryValue(e.ta, true, e.sa, e.oa), everyValue(e.tb, e.sb, e.ob)}, y);
    expectFastEqualsGeneral(GetParam(), {}, {everyValue(e.ta, e.sa, e.oa), rowsOfEveryValue(e.tb, true, e.sb, e.ob)}, y);
    // A scalar against a [7, 37] operand (the repeated chunk does not divide the length).
    Values s{e.ta, {1}, {lowOf(e.ta) + 77}, e.sa, e.oa};
    Values full{e.tb, {7, 37}, {}, e.sb, e.ob};
    for (int v : pattern<uint8_t>(7 * 37, 5)) full.q.push_back(lowOf(e.tb) + v);
    expectFastEqualsGeneral(GetParam(), {}, {s, full}, {e.to, {7, 37}, {}, e.so, e.oo});
    // A repeated operand longer than the tiling chunk (1100 values), read as it is.
    Values row{e.ta, {1100}, {}, e.sa, e.oa}, rows{e.tb, {3, 1100}, {}, e.sb, e.ob};
    for (int v : pattern<uint8_t>(1100, 6)) row.q.push_back(lowOf(e.ta) + v);
    for (int v : pattern<uint8_t>(3300, 7)) rows.q.push_back(lowOf(e.tb) + v);
    expectFastEqualsGeneral(GetParam(), {}, {row, rows}, {e.to, {3, 1100}, {}, e.so, e.oo});
  }
}

INSTANTIATE_TEST_SUITE_P(Ops, BytePathBinary,
                         ::testing::Values("ElementWiseAdd", "ElementWiseSubtract", "ElementWiseMultiply",
                                           "ElementWiseMaximum", "ElementWiseMinimum"));

TEST(BytePathUnary, ClampAndTableOpsOnEveryByte) {
  struct Case {
    const char* op;
    DType tin, tout;
    float sin, sout;
    int32_t oin, oout;
  };
  const Case cases[] = {
      {"Relu", DType::kUFixed8, DType::kUFixed8, 0.07f, 0.07f, -128, -128},  // plain byte clamp
      {"Relu", DType::kSFixed8, DType::kSFixed8, 0.07f, 0.07f, 10, 10},
      {"Relu6", DType::kUFixed8, DType::kUFixed8, 0.05f, 0.03f, -100, -10},  // requantized
      {"Relu1", DType::kSFixed8, DType::kUFixed8, 0.02f, 0.01f, 0, -100},
      {"ReluMinMax", DType::kUFixed8, DType::kSFixed8, 0.1f, 0.05f, -128, 0},
      {"Sigmoid", DType::kUFixed8, DType::kUFixed8, 0.05f, 1.f / 256, -128, 0},
      {"Tanh", DType::kSFixed8, DType::kSFixed8, 0.03f, 1.f / 128, 0, 0},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.op);
    sdk::OpParams p;
    if (std::string(c.op) == "ReluMinMax") {
      p.set("min_value", sdk::scalarF32(-1.5f));
      p.set("max_value", sdk::scalarF32(3.f));
    }
    expectFastEqualsGeneral(c.op, p, {everyValue(c.tin, c.sin, c.oin)}, {c.tout, {256}, {}, c.sout, c.oout});
  }
}

TEST(BytePathPool, MaxAndAvgPoolWindows) {
  struct Window {
    uint32_t f, s, pad;
    bool ceil, countPad;
  };
  const Window windows[] = {{3, 2, 1, false, false}, {2, 2, 0, true, false}, {3, 1, 1, false, true}, {3, 3, 2, true, false}};
  for (DType t : {DType::kUFixed8, DType::kSFixed8})
    for (uint32_t channels : {64u, 70u, 5u})
      for (const Window& w : windows)
        for (bool isMax : {true, false})
          for (bool sameEncoding : {true, false}) {
            SCOPED_TRACE(std::to_string(channels) + " channels, window " + std::to_string(&w - windows));
            Values x{t, {2, 9, 8, channels}, {}, 0.04f, t == DType::kSFixed8 ? 5 : -120};
            for (uint8_t v : pattern<uint8_t>(2 * 9 * 8 * channels, 11)) x.q.push_back(lowOf(t) + v);
            sdk::OpParams p;
            p.set("filter_size", sdk::tensorU32({2}, {w.f, w.f}));
            p.set("stride", sdk::tensorU32({2}, {w.s, w.s}));
            p.set("pad_amount", sdk::tensorU32({2, 2}, {w.pad, w.pad, w.pad, w.pad}));
            if (w.ceil) p.set("rounding_mode", sdk::scalarU32(1));
            if (w.countPad) p.set("count_pad_for_edges", sdk::scalarBool(true));
            auto outSize = [&](uint32_t in) {
              const uint32_t span = in + 2 * w.pad - w.f;
              return (w.ceil ? (span + w.s - 1) / w.s : span / w.s) + 1;
            };
            const Values y{t, {2, outSize(9), outSize(8), channels}, {}, sameEncoding ? 0.04f : 0.03f,
                           sameEncoding ? x.offset : -3};
            expectFastEqualsGeneral(isMax ? "PoolMax2d" : "PoolAvg2d", p, {x}, y);
          }
}

TEST(BytePathReduce, ConsecutiveAxes) {
  struct Case {
    const char* op;
    std::vector<uint32_t> axes;
    std::vector<uint32_t> outDims;
  };
  const Case cases[] = {{"ReduceMean", {1, 2}, {2, 512}},      {"ReduceMean", {3}, {2, 7, 7}},
                        {"ReduceSum", {0, 1}, {7, 512}},       {"ReduceMax", {2}, {2, 7, 512}},
                        {"ReduceMin", {1, 2, 3}, {2}},         {"ReduceMean", {0, 1, 2, 3}, {}}};
  for (DType t : {DType::kUFixed8, DType::kSFixed8})
    for (const Case& c : cases) {
      SCOPED_TRACE(std::string(c.op) + " " + std::to_string(&c - cases));
      Values x{t, {2, 7, 7, 512}, {}, 0.05f, t == DType::kSFixed8 ? 0 : -100};
      for (uint8_t v : pattern<uint8_t>(2 * 7 * 7 * 512, 12)) x.q.push_back(lowOf(t) + v);
      sdk::OpParams p;
      p.set("axes", sdk::tensorU32({uint32_t(c.axes.size())}, c.axes));
      const float so = std::string(c.op) == "ReduceSum" ? 2.f : 0.02f;
      expectFastEqualsGeneral(c.op, p, {x}, {t, c.outDims.empty() ? std::vector<uint32_t>{1} : c.outDims, {}, so, -7});
    }
}

}  // namespace
}  // namespace qnn::htp
