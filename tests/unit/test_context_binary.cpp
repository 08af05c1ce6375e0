// Tests of the context-binary format (sdk/context_binary/context_binary.cpp): round trip,
// refusal of truncated / corrupted / foreign / newer-major binaries, forward
// compatibility with newer minor versions, and robustness of the payload parser
// against hand-crafted counts and lengths (no huge allocations, no crashes).
#include <gtest/gtest.h>
#include <zlib.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <new>
#include <random>
#include <string>
#include <vector>

#include "byte_io/byte_io.h"
#include "context_binary/context_binary.h"

// ---- Allocation tracking: the largest single operator-new request ------------
// Lets the huge-count tests assert that a corrupted count never turns into a
// huge allocation (instead of relying on the machine running out of memory).
namespace {
std::atomic<size_t> gMaxAlloc{0};
void noteAlloc(size_t n) {
  size_t cur = gMaxAlloc.load(std::memory_order_relaxed);
  while (n > cur && !gMaxAlloc.compare_exchange_weak(cur, n, std::memory_order_relaxed)) {
  }
}
void* trackedAlloc(size_t n) {
  noteAlloc(n);
  void* p = std::malloc(n ? n : 1);
  if (!p) throw std::bad_alloc();
  return p;
}
}  // namespace

void* operator new(size_t n) { return trackedAlloc(n); }
void* operator new[](size_t n) { return trackedAlloc(n); }
void* operator new(size_t n, const std::nothrow_t&) noexcept {
  noteAlloc(n);
  return std::malloc(n ? n : 1);
}
void* operator new[](size_t n, const std::nothrow_t&) noexcept {
  noteAlloc(n);
  return std::malloc(n ? n : 1);
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete[](void* p) noexcept { std::free(p); }
void operator delete(void* p, size_t) noexcept { std::free(p); }
void operator delete[](void* p, size_t) noexcept { std::free(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { std::free(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { std::free(p); }

namespace qnn::sdk {
namespace {

using binary::ByteWriter;

// ---- Format constants as documented in docs/context-binary-format.md ---------
constexpr uint32_t kHeaderSize = 44;
constexpr size_t kOffMajor = 8, kOffMinor = 10, kOffHeaderSize = 12, kOffFlags = 16;
constexpr uint32_t kTagBackendInfo = 1, kTagContextTensors = 2, kTagGraph = 3, kTagBackendBlob = 4;

uint32_t crcOf(const uint8_t* p, size_t n) {
  return static_cast<uint32_t>(crc32(crc32(0L, Z_NULL, 0), p, static_cast<uInt>(n)));
}

uint32_t getU32(const std::vector<uint8_t>& b, size_t at) {
  return b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (static_cast<uint32_t>(b[at + 3]) << 24);
}
uint64_t getU64(const std::vector<uint8_t>& b, size_t at) {
  return getU32(b, at) | (static_cast<uint64_t>(getU32(b, at + 4)) << 32);
}
void putU16(std::vector<uint8_t>& b, size_t at, uint16_t v) {
  b[at] = v & 0xff;
  b[at + 1] = v >> 8;
}
void putU32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  for (int i = 0; i < 4; ++i) b[at + i] = static_cast<uint8_t>(v >> (8 * i));
}
void refreshHeaderCrc(std::vector<uint8_t>& b) {
  uint32_t hs = getU32(b, kOffHeaderSize);
  putU32(b, hs - 4, crcOf(b.data(), hs - 4));
}

// Wraps a raw payload into a binary, stored uncompressed (flags 0) unless the
// caller passes other flags. extraHeader: bytes of a newer minor's header fields.
std::vector<uint8_t> wrap(const std::vector<uint8_t>& payload, uint16_t major = 1, uint16_t minor = 0,
                          uint32_t flags = 0, uint64_t uncompressedSize = UINT64_MAX,
                          const std::vector<uint8_t>& extraHeader = {}) {
  std::vector<uint8_t> b;
  ByteWriter w(&b);
  w.bytes("OQNNCTX\0", 8);
  w.u16(major);
  w.u16(minor);
  w.u32(static_cast<uint32_t>(kHeaderSize + extraHeader.size()));
  w.u32(flags);
  w.u32(crcOf(payload.data(), payload.size()));
  w.u64(uncompressedSize == UINT64_MAX ? payload.size() : uncompressedSize);
  w.u64(payload.size());
  w.bytes(extraHeader.data(), extraHeader.size());
  w.u32(crcOf(b.data(), b.size()));
  w.bytes(payload.data(), payload.size());
  return b;
}

// The decoded payload of a binary written by writeContextBinary.
std::vector<uint8_t> unwrap(const std::vector<uint8_t>& bin) {
  uint32_t hs = getU32(bin, kOffHeaderSize);
  uint32_t flags = getU32(bin, kOffFlags);
  uint64_t raw = getU64(bin, 24), stored = getU64(bin, 32);
  std::vector<uint8_t> out(raw);
  if (flags & 1) {
    uLongf len = static_cast<uLongf>(raw);
    EXPECT_EQ(uncompress(out.data(), &len, bin.data() + hs, static_cast<uLong>(stored)), Z_OK);
    EXPECT_EQ(len, raw);
  } else {
    std::memcpy(out.data(), bin.data() + hs, raw);
  }
  return out;
}

// ---- Sample contents ---------------------------------------------------------

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  std::vector<uint8_t> b(v.size() * sizeof(T));
  std::memcpy(b.data(), v.data(), b.size());
  return b;
}

TensorInfo makeTensor(uint32_t id, std::string name, TensorKind kind, DType dt, std::vector<uint32_t> dims) {
  TensorInfo t;
  t.id = id;
  t.name = std::move(name);
  t.kind = kind;
  t.dtype = dt;
  t.dims = std::move(dims);
  return t;
}

ContextBinaryContents sampleContents() {
  ContextBinaryContents c;
  c.backendId = 6;
  c.backendBuildId = "v2.43.0.261128000000_openqnn (test)";
  c.coreApiMajor = 2;
  c.coreApiMinor = 7;
  c.coreApiPatch = 1;
  c.backendApiMajor = 1;
  c.backendApiMinor = 3;
  c.backendApiPatch = 0;

  TensorInfo ctx = makeTensor(100, "shared_kv", TensorKind::kNative, DType::kFloat32, {1, 4});
  ctx.isContextTensor = true;
  c.contextTensors.push_back(ctx);
  TensorInfo ctxStatic = makeTensor(101, "shared_table", TensorKind::kStatic, DType::kInt32, {3});
  ctxStatic.isContextTensor = true;
  ctxStatic.staticData = bytesOf(std::vector<int32_t>{7, -8, 9});
  c.contextTensors.push_back(ctxStatic);

  // Graph 1: float conv with static weights and a shared context tensor.
  GraphIR g1;
  g1.name = "conv_graph";
  g1.priority = 2;
  g1.precision = 1;
  g1.tensors[1] = makeTensor(1, "input", TensorKind::kAppWrite, DType::kFloat32, {1, 8, 8, 3});
  TensorInfo w = makeTensor(2, "weights", TensorKind::kStatic, DType::kFloat32, {3, 3, 3, 4});
  std::vector<float> wv(3 * 3 * 3 * 4);
  for (size_t i = 0; i < wv.size(); ++i) wv[i] = 0.25f * static_cast<float>(i) - 3.f;
  w.staticData = bytesOf(wv);
  g1.tensors[2] = w;
  g1.tensors[3] = makeTensor(3, "conv_out", TensorKind::kNative, DType::kFloat32, {1, 8, 8, 4});
  g1.tensors[4] = makeTensor(4, "output", TensorKind::kAppRead, DType::kFloat32, {1, 8, 8, 4});
  g1.tensors[5] = makeTensor(5, "absent_bias", TensorKind::kNull, DType::kFloat32, {});
  g1.tensors[100] = c.contextTensors[0];
  NodeInfo conv;
  conv.name = "conv0";
  conv.packageName = "qti.aisw";
  conv.typeName = "Conv2d";
  conv.params.set("stride", tensorU32({2}, {1, 1}));
  conv.params.set("pad_amount", tensorU32({2, 2}, {1, 1, 1, 1}));
  conv.params.set("group", scalarU32(1));
  conv.inputIds = {1, 2, 5};
  conv.outputIds = {3};
  g1.nodes.push_back(conv);
  NodeInfo relu;
  relu.name = "relu0";
  relu.packageName = "qti.aisw";
  relu.typeName = "ReluMinMax";
  relu.params.set("min_value", scalarF32(-0.f));
  relu.params.set("max_value", scalarF32(6.5f));
  relu.inputIds = {3};
  relu.outputIds = {4, 100};
  g1.nodes.push_back(relu);
  c.graphs.push_back(g1);

  // Graph 2: quantized, per-axis weights, bool/int params.
  GraphIR g2;
  g2.name = "quant_graph";
  g2.priority = 0;
  g2.precision = 0;
  TensorInfo in = makeTensor(1, "q_in", TensorKind::kAppReadWrite, DType::kUFixed8, {1, 16});
  in.quant.kind = QuantInfo::Kind::kScaleOffset;
  in.quant.scale = 0.0039215689f;
  in.quant.offset = -128;
  g2.tensors[1] = in;
  TensorInfo qw = makeTensor(2, "q_weights", TensorKind::kStatic, DType::kSFixed8, {4, 16});
  qw.quant.kind = QuantInfo::Kind::kAxisScaleOffset;
  qw.quant.axis = 0;
  qw.quant.scales = {0.5f, 0.25f, 0.125f, 1e-7f};
  qw.quant.offsets = {0, -1, 2, -3};
  qw.quant.bitwidth = 4;
  qw.staticData.resize(64);
  for (size_t i = 0; i < qw.staticData.size(); ++i) qw.staticData[i] = static_cast<uint8_t>(i * 37);
  g2.tensors[2] = qw;
  TensorInfo out = makeTensor(3, "q_out", TensorKind::kAppRead, DType::kUFixed16, {1, 4});
  out.quant.kind = QuantInfo::Kind::kScaleOffset;
  out.quant.scale = 1.5f;
  out.quant.offset = 3;
  out.dataFormat = 1;
  g2.tensors[3] = out;
  g2.tensors[101] = c.contextTensors[1];
  NodeInfo fc;
  fc.name = "fc";
  fc.packageName = "qti.aisw";
  fc.typeName = "FullyConnected";
  fc.params.set("keep_dims", scalarBool(true));
  fc.params.set("axis", scalarI32(-1));
  ParamValue i64;
  i64.dtype = DType::kInt64;
  i64.scalar.i64 = -1234567890123LL;
  fc.params.set("big", i64);
  fc.params.set("table", tensorF32({2, 2}, {1.f, -2.f, 3.5f, 0.f}));
  ParamValue emptyTensor = tensorI32({0}, {});
  fc.params.set("empty", emptyTensor);
  fc.inputIds = {1, 2, 101};
  fc.outputIds = {3};
  g2.nodes.push_back(fc);
  c.graphs.push_back(g2);

  c.backendBlob = {0xde, 0xad, 0xbe, 0xef, 0x00, 0x01, 0x02};
  return c;
}

// ---- Field-by-field comparison ----------------------------------------------

void expectTensorEq(const TensorInfo& a, const TensorInfo& b) {
  SCOPED_TRACE("tensor " + a.name);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.name, b.name);
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(a.dataFormat, b.dataFormat);
  EXPECT_EQ(a.quant.kind, b.quant.kind);
  // Bitwise float comparison (keeps -0.f and exact values).
  EXPECT_EQ(0, std::memcmp(&a.quant.scale, &b.quant.scale, sizeof(float)));
  EXPECT_EQ(a.quant.offset, b.quant.offset);
  EXPECT_EQ(a.quant.axis, b.quant.axis);
  EXPECT_EQ(a.quant.scales, b.quant.scales);
  EXPECT_EQ(a.quant.offsets, b.quant.offsets);
  EXPECT_EQ(a.quant.bitwidth, b.quant.bitwidth);
  EXPECT_TRUE(a.quant == b.quant);
  EXPECT_EQ(a.dims, b.dims);
  EXPECT_EQ(a.staticData, b.staticData);
  EXPECT_EQ(a.isContextTensor, b.isContextTensor);
}

void expectParamEq(const ParamValue& a, const ParamValue& b) {
  EXPECT_EQ(a.isTensor, b.isTensor);
  EXPECT_EQ(a.dtype, b.dtype);
  EXPECT_EQ(0, std::memcmp(&a.scalar, &b.scalar, 8));
  EXPECT_EQ(a.dims, b.dims);
  EXPECT_EQ(a.data, b.data);
}

void expectContentsEq(const ContextBinaryContents& a, const ContextBinaryContents& b) {
  EXPECT_EQ(a.backendId, b.backendId);
  EXPECT_EQ(a.backendBuildId, b.backendBuildId);
  EXPECT_EQ(a.coreApiMajor, b.coreApiMajor);
  EXPECT_EQ(a.coreApiMinor, b.coreApiMinor);
  EXPECT_EQ(a.coreApiPatch, b.coreApiPatch);
  EXPECT_EQ(a.backendApiMajor, b.backendApiMajor);
  EXPECT_EQ(a.backendApiMinor, b.backendApiMinor);
  EXPECT_EQ(a.backendApiPatch, b.backendApiPatch);
  EXPECT_EQ(a.backendBlob, b.backendBlob);
  ASSERT_EQ(a.contextTensors.size(), b.contextTensors.size());
  for (size_t i = 0; i < a.contextTensors.size(); ++i) expectTensorEq(a.contextTensors[i], b.contextTensors[i]);
  ASSERT_EQ(a.graphs.size(), b.graphs.size());
  for (size_t g = 0; g < a.graphs.size(); ++g) {
    const GraphIR& ga = a.graphs[g];
    const GraphIR& gb = b.graphs[g];
    SCOPED_TRACE("graph " + ga.name);
    EXPECT_EQ(ga.name, gb.name);
    EXPECT_EQ(ga.priority, gb.priority);
    EXPECT_EQ(ga.precision, gb.precision);
    ASSERT_EQ(ga.tensors.size(), gb.tensors.size());
    for (auto ia = ga.tensors.begin(), ib = gb.tensors.begin(); ia != ga.tensors.end(); ++ia, ++ib) {
      EXPECT_EQ(ia->first, ib->first);
      expectTensorEq(ia->second, ib->second);
    }
    ASSERT_EQ(ga.nodes.size(), gb.nodes.size());
    for (size_t n = 0; n < ga.nodes.size(); ++n) {
      const NodeInfo& na = ga.nodes[n];
      const NodeInfo& nb = gb.nodes[n];
      SCOPED_TRACE("node " + na.name);
      EXPECT_EQ(na.name, nb.name);
      EXPECT_EQ(na.packageName, nb.packageName);
      EXPECT_EQ(na.typeName, nb.typeName);
      EXPECT_EQ(na.inputIds, nb.inputIds);
      EXPECT_EQ(na.outputIds, nb.outputIds);
      ASSERT_EQ(na.params.all().size(), nb.params.all().size());
      for (const auto& kv : na.params.all()) {
        SCOPED_TRACE("param " + kv.first);
        const ParamValue* pb = nb.params.find(kv.first);
        ASSERT_NE(pb, nullptr);
        expectParamEq(kv.second, *pb);
      }
    }
  }
}

std::vector<uint8_t> sampleBinary() {
  std::vector<uint8_t> bin;
  Status s = writeContextBinary(sampleContents(), &bin);
  EXPECT_TRUE(s.isOk()) << s.message();
  return bin;
}

void expectCorrupt(const std::vector<uint8_t>& bin, const std::string& fragment) {
  ContextBinaryContents c;
  Status s = readContextBinary(bin.data(), bin.size(), &c);
  EXPECT_EQ(s.code(), StatusCode::kCorruptData) << s.message();
  EXPECT_EQ(s.message().rfind("context binary: ", 0), 0u) << s.message();
  EXPECT_NE(s.message().find(fragment), std::string::npos) << "message: " << s.message();
}

// ---- Payload-crafting helpers for the hand-made payload tests ------------------

void section(ByteWriter& w, uint32_t tag, const std::vector<uint8_t>& body) {
  w.u32(tag);
  w.u64(body.size());
  w.bytes(body.data(), body.size());
}

std::vector<uint8_t> backendInfoBody() {
  std::vector<uint8_t> b;
  ByteWriter w(&b);
  w.u32(6);
  w.str("x");
  for (int i = 0; i < 6; ++i) w.u32(static_cast<uint32_t>(i));
  return b;
}

// A payload with a backend info section and one graph section with the given body.
std::vector<uint8_t> payloadWithGraph(const std::vector<uint8_t>& graphBody) {
  std::vector<uint8_t> p;
  ByteWriter w(&p);
  section(w, kTagBackendInfo, backendInfoBody());
  section(w, kTagGraph, graphBody);
  return p;
}

// Tensor record fields after the u64 record length; the callback may corrupt any.
struct RawTensor {
  uint32_t id = 1;
  std::string name = "t";
  uint32_t kind = 4, dtype = 0x0232, dataFormat = 0, qkind = 0;
  uint32_t nScales = 0, nOffsets = 0;
  std::vector<uint32_t> dims = {2};
  uint32_t rankOverride = UINT32_MAX;
  uint8_t isCtx = 0;
  uint64_t dataLen = 8;
  size_t dataBytesPresent = 8;
  uint64_t recLenOverride = UINT64_MAX;
};

void putRawTensor(ByteWriter& outer, const RawTensor& t) {
  std::vector<uint8_t> rec;
  ByteWriter w(&rec);
  w.u32(t.id);
  w.str(t.name);
  w.u32(t.kind);
  w.u32(t.dtype);
  w.u32(t.dataFormat);
  w.u32(t.qkind);
  w.f32(1.f);
  w.i32(0);
  w.i32(0);
  w.u32(0);
  w.u32(t.nScales);
  w.u32(t.nOffsets);
  w.u32(t.rankOverride == UINT32_MAX ? static_cast<uint32_t>(t.dims.size()) : t.rankOverride);
  for (uint32_t d : t.dims) w.u32(d);
  w.u8(t.isCtx);
  w.u64(t.dataLen);
  for (size_t i = 0; i < t.dataBytesPresent; ++i) w.u8(static_cast<uint8_t>(i));
  outer.u64(t.recLenOverride == UINT64_MAX ? rec.size() : t.recLenOverride);
  outer.bytes(rec.data(), rec.size());
}

std::vector<uint8_t> graphBodyWithTensor(const RawTensor& t, uint32_t tensorCount = 1) {
  std::vector<uint8_t> b;
  ByteWriter w(&b);
  w.str("g");
  w.u32(0);
  w.u32(0);
  w.u32(tensorCount);
  putRawTensor(w, t);
  w.u32(0);  // nodes
  return b;
}

// ---- Tests ---------------------------------------------------------------------

TEST(ContextBinary, RoundTripTwoGraphs) {
  ContextBinaryContents in = sampleContents();
  std::vector<uint8_t> bin;
  ASSERT_TRUE(writeContextBinary(in, &bin).isOk());
  ASSERT_GT(bin.size(), kHeaderSize);
  EXPECT_EQ(0, std::memcmp(bin.data(), "OQNNCTX\0", 8));
  EXPECT_TRUE(validateContextBinary(bin.data(), bin.size()).isOk());
  ContextBinaryContents out;
  Status s = readContextBinary(bin.data(), bin.size(), &out);
  ASSERT_TRUE(s.isOk()) << s.message();
  expectContentsEq(in, out);
  // Deterministic: writing the decoded contents again gives the same bytes.
  std::vector<uint8_t> again;
  ASSERT_TRUE(writeContextBinary(out, &again).isOk());
  EXPECT_EQ(bin, again);
}

TEST(ContextBinary, RoundTripEmptyContents) {
  ContextBinaryContents in;
  std::vector<uint8_t> bin;
  ASSERT_TRUE(writeContextBinary(in, &bin).isOk());
  ContextBinaryContents out;
  out.backendId = 99;
  out.graphs.resize(3);
  Status s = readContextBinary(bin.data(), bin.size(), &out);
  ASSERT_TRUE(s.isOk()) << s.message();
  expectContentsEq(in, out);
}

TEST(ContextBinary, CompressesRedundantDataAndStoresIncompressibleDataRaw) {
  ContextBinaryContents c = sampleContents();
  c.backendBlob.assign(1 << 16, 0x5a);
  std::vector<uint8_t> bin;
  ASSERT_TRUE(writeContextBinary(c, &bin).isOk());
  EXPECT_EQ(getU32(bin, kOffFlags), 1u);
  EXPECT_LT(bin.size(), size_t{1} << 14);

  std::mt19937 rng(7);
  ContextBinaryContents r;
  r.backendBlob.resize(1 << 16);
  for (auto& b : r.backendBlob) b = static_cast<uint8_t>(rng());
  ASSERT_TRUE(writeContextBinary(r, &bin).isOk());
  EXPECT_EQ(getU32(bin, kOffFlags), 0u);  // stored raw
  EXPECT_EQ(getU64(bin, 24), getU64(bin, 32));
  ContextBinaryContents out;
  ASSERT_TRUE(readContextBinary(bin.data(), bin.size(), &out).isOk());
  expectContentsEq(r, out);
}

TEST(ContextBinary, EveryTruncationIsRefused) {
  std::vector<uint8_t> bin = sampleBinary();
  for (size_t n = 0; n < bin.size(); ++n) {
    ContextBinaryContents c;
    Status s = readContextBinary(bin.data(), n, &c);
    ASSERT_EQ(s.code(), StatusCode::kCorruptData) << "prefix " << n << ": " << s.message();
    ASSERT_EQ(validateContextBinary(bin.data(), n).code(), StatusCode::kCorruptData) << "prefix " << n;
  }
  // Distinct messages for a short header and a short payload.
  expectCorrupt(std::vector<uint8_t>(bin.begin(), bin.begin() + 4), "too small");
  expectCorrupt(std::vector<uint8_t>(bin.begin(), bin.begin() + 20), "truncated header");
  expectCorrupt(std::vector<uint8_t>(bin.begin(), bin.end() - 1), "truncated payload");
}

TEST(ContextBinary, ByteFlipsAreRefused) {
  std::vector<uint8_t> bin = sampleBinary();
  ContextBinaryContents ref;
  ASSERT_TRUE(readContextBinary(bin.data(), bin.size(), &ref).isOk());
  size_t checked = 0;
  for (size_t i = 0; i < bin.size(); ++i) {
    if (i >= kHeaderSize && i % 7 != 0) continue;  // every header byte, every 7th payload byte
    for (uint8_t mask : {uint8_t{0xff}, uint8_t{0x01}, uint8_t{0x80}}) {
      std::vector<uint8_t> bad = bin;
      bad[i] ^= mask;
      ContextBinaryContents c;
      Status s = readContextBinary(bad.data(), bad.size(), &c);
      if (s.isOk()) {
        // Only acceptable if the flip did not change anything (there is no
        // unchecked padding, so this should never happen).
        ADD_FAILURE() << "flip at " << i << " accepted";
        expectContentsEq(ref, c);
      } else {
        ASSERT_EQ(s.code(), StatusCode::kCorruptData) << "flip at " << i << ": " << s.message();
      }
      ASSERT_FALSE(validateContextBinary(bad.data(), bad.size()).isOk()) << "flip at " << i;
      ++checked;
    }
  }
  EXPECT_GT(checked, 100u);
}

TEST(ContextBinary, DistinctMessagesForCrcFailures) {
  std::vector<uint8_t> bin = sampleBinary();
  std::vector<uint8_t> h = bin;
  h[20] ^= 0x10;  // payload CRC field: header CRC no longer matches
  expectCorrupt(h, "header CRC mismatch");
  std::vector<uint8_t> p = bin;
  p[bin.size() - 3] ^= 0x10;
  expectCorrupt(p, "payload CRC mismatch");
  EXPECT_NE(validateContextBinary(p.data(), p.size()).message().find("payload CRC"), std::string::npos);
}

TEST(ContextBinary, WrongMagicIsRefused) {
  std::vector<uint8_t> bin = sampleBinary();
  bin[0] = 'X';
  expectCorrupt(bin, "bad magic");
  EXPECT_NE(validateContextBinary(bin.data(), bin.size()).message().find("bad magic"), std::string::npos);
  // A foreign file shorter than the magic.
  std::vector<uint8_t> foreign = {'P', 'K', 3};
  expectCorrupt(foreign, "bad magic");
  // Some other file format entirely.
  std::vector<uint8_t> text(200, 'a');
  expectCorrupt(text, "bad magic");
}

TEST(ContextBinary, NewerMajorVersionIsRefused) {
  std::vector<uint8_t> bin = sampleBinary();
  putU16(bin, kOffMajor, 2);
  refreshHeaderCrc(bin);
  expectCorrupt(bin, "unsupported format major version 2");
  EXPECT_EQ(validateContextBinary(bin.data(), bin.size()).code(), StatusCode::kCorruptData);
  putU16(bin, kOffMajor, 0);
  refreshHeaderCrc(bin);
  expectCorrupt(bin, "unsupported format major version 0");
}

// The 1.3 header fields (weightsOffset, weightsSize, weightsCrc) for `region`
// placed after a payload of `payloadSize` bytes under a header of `headerSize`.
std::vector<uint8_t> regionFields(size_t headerSize, size_t payloadSize, const std::vector<uint8_t>& region) {
  std::vector<uint8_t> f;
  ByteWriter w(&f);
  w.u64((headerSize + payloadSize + 4095) / 4096 * 4096);
  w.u64(region.size());
  w.u32(crcOf(region.data(), region.size()));
  return f;
}

// `bin` (a wrapped payload whose header holds regionFields) with the region after it.
std::vector<uint8_t> withRegion(std::vector<uint8_t> bin, const std::vector<uint8_t>& region) {
  bin.resize(size_t(getU64(bin, 40)), 0);
  bin.insert(bin.end(), region.begin(), region.end());
  return bin;
}

TEST(ContextBinary, NewerMinorVersionWithUnknownSectionIsAccepted) {
  ContextBinaryContents in = sampleContents();
  std::vector<uint8_t> bin;
  // A 1.3 binary (with a weights region), its payload grown by sections a newer minor might add.
  ASSERT_TRUE(writeContextBinary(in, &bin, ContextBinaryWriteOptions{64}).isOk());
  const std::vector<uint8_t> region(bin.begin() + long(getU64(bin, 40)), bin.end());
  std::vector<uint8_t> payload = unwrap(bin);
  ByteWriter w(&payload);
  section(w, 0x77, {1, 2, 3, 4, 5});  // unknown to this reader
  section(w, 0x78, {});
  // Newer minor, with an extra header field as well (after 1.3's fields).
  std::vector<uint8_t> extra = regionFields(kHeaderSize + 28, payload.size(), region);
  extra.insert(extra.end(), {9, 9, 9, 9, 9, 9, 9, 9});
  std::vector<uint8_t> newer = withRegion(wrap(payload, 1, 4, 0, UINT64_MAX, extra), region);
  ContextBinaryContents out;
  Status s = readContextBinary(newer.data(), newer.size(), &out);
  ASSERT_TRUE(s.isOk()) << s.message();
  expectContentsEq(in, out);
  EXPECT_TRUE(validateContextBinary(newer.data(), newer.size()).isOk());

  // The same unknown section in a file claiming this reader's minor is corrupt.
  std::vector<uint8_t> same =
      withRegion(wrap(payload, 1, 3, 0, UINT64_MAX, regionFields(kHeaderSize + 20, payload.size(), region)), region);
  expectCorrupt(same, "unknown section tag 119");
  // And a longer header is only legal from a newer minor.
  std::vector<uint8_t> longHeader = wrap(unwrap(bin), 1, 2, 0, UINT64_MAX, {0, 0, 0, 0});
  expectCorrupt(longHeader, "bad header size");
}

TEST(ContextBinary, NewerMinorVersionWithTrailingRecordFieldsIsAccepted) {
  // A tensor record with 6 extra bytes at its end, as a newer minor might append.
  RawTensor t;
  std::vector<uint8_t> body;
  {
    std::vector<uint8_t> tmp;
    ByteWriter tw(&tmp);
    putRawTensor(tw, t);
    // Grow the record: the fields of minors 1, 2 and 3 (not updateable, data
    // not shared, not in the weights region), then 6 bytes a newer minor might
    // append; bump its length.
    uint64_t len = getU64(tmp, 0) + 3 + 6;
    for (int i = 0; i < 8; ++i) tmp[i] = static_cast<uint8_t>(len >> (8 * i));
    tmp.insert(tmp.end(), {0, 0, 0, 1, 2, 3, 4, 5, 6});
    ByteWriter w(&body);
    w.str("g");
    w.u32(0);
    w.u32(0);
    w.u32(1);
    w.bytes(tmp.data(), tmp.size());
    w.u32(0);
  }
  std::vector<uint8_t> payload = payloadWithGraph(body);
  ContextBinaryContents out;
  std::vector<uint8_t> newer = wrap(payload, 1, 4, 0, UINT64_MAX, std::vector<uint8_t>(20, 0));
  Status s = readContextBinary(newer.data(), newer.size(), &out);
  ASSERT_TRUE(s.isOk()) << s.message();
  ASSERT_EQ(out.graphs.size(), 1u);
  ASSERT_NE(out.graphs[0].findTensor(1), nullptr);
  EXPECT_EQ(out.graphs[0].findTensor(1)->staticData.size(), 8u);
  expectCorrupt(wrap(payload, 1, 0), "unexpected trailing bytes in tensor record");
}

TEST(ContextBinary, TrailingBytesAfterPayloadAreRefused) {
  std::vector<uint8_t> bin = sampleBinary();
  bin.push_back(0);
  expectCorrupt(bin, "trailing bytes");
}

TEST(ContextBinary, UnknownFlagsAreRefused) {
  std::vector<uint8_t> bin = sampleBinary();
  putU32(bin, kOffFlags, getU32(bin, kOffFlags) | 0x100);
  refreshHeaderCrc(bin);
  expectCorrupt(bin, "unsupported header flags");
}

TEST(ContextBinary, DecompressionFailureIsRefused) {
  std::vector<uint8_t> garbage = {0x78, 0x9c, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  expectCorrupt(wrap(garbage, 1, 0, /*flags=*/1, /*uncompressed=*/100), "decompression failed");
  // A valid stream whose declared size is wrong.
  std::vector<uint8_t> raw(500, 'z');
  std::vector<uint8_t> z(compressBound(raw.size()));
  uLongf zl = z.size();
  ASSERT_EQ(compress2(z.data(), &zl, raw.data(), raw.size(), 6), Z_OK);
  z.resize(zl);
  expectCorrupt(wrap(z, 1, 0, 1, 499), "decompression failed");
  expectCorrupt(wrap(z, 1, 0, 1, 501), "decompression failed");
  // A declared size no zlib stream could expand to is refused before allocating.
  gMaxAlloc = 0;
  expectCorrupt(wrap(z, 1, 0, 1, uint64_t{1} << 40), "implausible uncompressed payload size");
  EXPECT_LT(gMaxAlloc.load(), size_t{1} << 20);
  // Stored raw, but the sizes disagree.
  expectCorrupt(wrap(raw, 1, 0, 0, 499), "uncompressed payload size differs");
}

TEST(ContextBinary, HandCraftedPayloadBaseline) {
  // The crafting helpers produce a valid binary when nothing is corrupted, so
  // the refusals below are due to the one corrupted field.
  ContextBinaryContents out;
  std::vector<uint8_t> bin = wrap(payloadWithGraph(graphBodyWithTensor(RawTensor{})));
  gMaxAlloc = 0;
  Status s = readContextBinary(bin.data(), bin.size(), &out);
  ASSERT_TRUE(s.isOk()) << s.message();
  EXPECT_GT(gMaxAlloc.load(), 0u);  // the allocation tracker sees the reader's allocations
  ASSERT_EQ(out.graphs.size(), 1u);
  EXPECT_EQ(out.backendBuildId, "x");
  EXPECT_EQ(out.backendApiPatch, 5u);
  const TensorInfo* t = out.graphs[0].findTensor(1);
  ASSERT_NE(t, nullptr);
  EXPECT_EQ(t->dims, std::vector<uint32_t>{2});
  EXPECT_EQ(t->staticData.size(), 8u);
}

TEST(ContextBinary, HugeCountsAreRefusedWithoutHugeAllocations) {
  struct Case {
    std::string what;
    std::vector<uint8_t> payload;
    std::string fragment;
  };
  std::vector<Case> cases;
  auto tensorCase = [&](const std::string& what, RawTensor t, const std::string& frag, uint32_t count = 1) {
    cases.push_back({what, payloadWithGraph(graphBodyWithTensor(t, count)), frag});
  };
  tensorCase("tensor count", RawTensor{}, "bad tensor count", 0xffffffffu);
  tensorCase("tensor count slightly too big", RawTensor{}, "", 2);
  {
    RawTensor t;
    t.rankOverride = 0x40000000u;
    tensorCase("rank", t, "bad dims");
  }
  {
    RawTensor t;
    t.nScales = 0xfffffff0u;
    tensorCase("scale count", t, "bad scale count");
  }
  {
    RawTensor t;
    t.nOffsets = 0x7fffffffu;
    tensorCase("offset count", t, "bad offset count");
  }
  {
    RawTensor t;
    t.dataLen = UINT64_MAX;
    tensorCase("static data length", t, "static data longer than the record");
  }
  {
    RawTensor t;
    t.recLenOverride = uint64_t{1} << 62;
    tensorCase("record length", t, "truncated tensor record");
  }
  {
    RawTensor t;
    t.dims = {0xffffffffu, 0xffffffffu, 0xffffffffu};
    t.dataLen = 0;
    t.dataBytesPresent = 0;
    tensorCase("dims product overflow", t, "dims product overflows");
  }
  {
    RawTensor t;
    t.dims = {3};  // 3 floats = 12 bytes, record has 8
    tensorCase("static data size mismatch", t, "!= dims product * dtype size");
  }
  {
    RawTensor t;
    t.kind = 9;
    tensorCase("tensor kind", t, "unknown kind");
  }
  {
    RawTensor t;
    t.dtype = 0x1234;
    tensorCase("dtype", t, "unknown dtype");
  }
  {
    RawTensor t;
    t.qkind = 7;
    tensorCase("quant kind", t, "unknown quantization kind");
  }
  {
    RawTensor t;
    t.isCtx = 2;
    tensorCase("bool flag", t, "bad isContextTensor flag");
  }
  {
    // Graph name length huge.
    std::vector<uint8_t> g;
    ByteWriter w(&g);
    w.u32(0xfffffff0u);
    w.u32(0);
    cases.push_back({"graph name length", payloadWithGraph(g), "bad graph name"});
  }
  {
    // Node count huge.
    std::vector<uint8_t> g;
    ByteWriter w(&g);
    w.str("g");
    w.u32(0);
    w.u32(0);
    w.u32(0);
    w.u32(0x20000000u);
    cases.push_back({"node count", payloadWithGraph(g), "bad node count"});
  }
  {
    // A node with a huge param count, then one with a huge input-id count.
    for (int which = 0; which < 3; ++which) {
      std::vector<uint8_t> node;
      ByteWriter nw(&node);
      nw.str("n");
      nw.str("qti.aisw");
      nw.str("Relu");
      if (which == 0) {
        nw.u32(0xffffffffu);
      } else if (which == 1) {
        nw.u32(0);
        nw.u32(0x3fffffffu);
      } else {
        nw.u32(0);
        nw.u32(1);
        nw.u32(42);  // unknown tensor id
        nw.u32(0);
      }
      std::vector<uint8_t> g;
      ByteWriter w(&g);
      w.str("g");
      w.u32(0);
      w.u32(0);
      w.u32(0);
      w.u32(1);
      w.u64(node.size());
      w.bytes(node.data(), node.size());
      const char* frag[] = {"bad param count", "bad tensor id count", "unknown tensor id 42"};
      cases.push_back({"node field " + std::to_string(which), payloadWithGraph(g), frag[which]});
    }
  }
  {
    // A tensor param whose data size does not match its dims, and a huge param data length.
    for (int which = 0; which < 2; ++which) {
      std::vector<uint8_t> param;
      ByteWriter pw(&param);
      pw.str("p");
      pw.u8(1);
      pw.u32(0x0132);  // uint32
      pw.u64(0);
      pw.u32(1);
      pw.u32(4);
      pw.u64(which == 0 ? 12 : UINT64_MAX - 3);
      for (int i = 0; i < 12; ++i) pw.u8(0);
      std::vector<uint8_t> node;
      ByteWriter nw(&node);
      nw.str("n");
      nw.str("qti.aisw");
      nw.str("Relu");
      nw.u32(1);
      nw.u64(param.size());
      nw.bytes(param.data(), param.size());
      nw.u32(0);
      nw.u32(0);
      std::vector<uint8_t> g;
      ByteWriter w(&g);
      w.str("g");
      w.u32(0);
      w.u32(0);
      w.u32(0);
      w.u32(1);
      w.u64(node.size());
      w.bytes(node.data(), node.size());
      cases.push_back({"param data " + std::to_string(which), payloadWithGraph(g),
                       which == 0 ? "!= dims product * dtype size" : "data longer than the record"});
    }
  }
  {
    // Context tensor count huge; section length huge; backend build id huge.
    std::vector<uint8_t> p;
    ByteWriter w(&p);
    section(w, kTagBackendInfo, backendInfoBody());
    std::vector<uint8_t> ct;
    ByteWriter cw(&ct);
    cw.u32(0xffffffffu);
    section(w, kTagContextTensors, ct);
    cases.push_back({"context tensor count", p, "bad context tensor count"});

    std::vector<uint8_t> q;
    ByteWriter qw(&q);
    section(qw, kTagBackendInfo, backendInfoBody());
    qw.u32(kTagBackendBlob);
    qw.u64(UINT64_MAX - 100);
    qw.u32(0);
    cases.push_back({"section length", q, "truncated section"});

    std::vector<uint8_t> b;
    ByteWriter bw(&b);
    bw.u32(6);
    bw.u32(0x7fffffffu);
    bw.bytes("abc", 3);
    std::vector<uint8_t> r;
    ByteWriter rw(&r);
    section(rw, kTagBackendInfo, b);
    cases.push_back({"build id length", r, "backend info section"});
  }
  {
    // Structural section errors.
    std::vector<uint8_t> p;
    ByteWriter w(&p);
    section(w, kTagBackendInfo, backendInfoBody());
    section(w, kTagBackendInfo, backendInfoBody());
    cases.push_back({"duplicate backend info", p, "duplicate backend info section"});
    std::vector<uint8_t> q;
    ByteWriter qw(&q);
    section(qw, kTagBackendBlob, {1});
    cases.push_back({"missing backend info", q, "missing backend info section"});
    std::vector<uint8_t> r;
    ByteWriter rw(&r);
    section(rw, kTagBackendInfo, backendInfoBody());
    rw.u32(kTagGraph);
    rw.u32(0);  // half a section header
    cases.push_back({"short section header", r, "truncated section header"});
  }
  {
    // Duplicate tensor ids in one graph.
    std::vector<uint8_t> g;
    ByteWriter w(&g);
    w.str("g");
    w.u32(0);
    w.u32(0);
    w.u32(2);
    putRawTensor(w, RawTensor{});
    putRawTensor(w, RawTensor{});
    w.u32(0);
    cases.push_back({"duplicate tensor id", payloadWithGraph(g), "duplicate tensor id 1"});
  }

  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    std::vector<uint8_t> bin = wrap(c.payload);
    // The CRCs are valid: only the parser can refuse it.
    ASSERT_TRUE(validateContextBinary(bin.data(), bin.size()).isOk());
    gMaxAlloc = 0;
    ContextBinaryContents out;
    Status s = readContextBinary(bin.data(), bin.size(), &out);
    size_t peak = gMaxAlloc.load();
    EXPECT_EQ(s.code(), StatusCode::kCorruptData) << s.message();
    EXPECT_NE(s.message().find(c.fragment), std::string::npos) << s.message();
    EXPECT_LT(peak, size_t{1} << 16) << "largest allocation " << peak;
    // Also compressed: same verdict.
    std::vector<uint8_t> z(compressBound(c.payload.size()));
    uLongf zl = z.size();
    ASSERT_EQ(compress2(z.data(), &zl, c.payload.data(), c.payload.size(), 6), Z_OK);
    z.resize(zl);
    std::vector<uint8_t> zbin = wrap(z, 1, 0, 1, c.payload.size());
    EXPECT_EQ(readContextBinary(zbin.data(), zbin.size(), &out).code(), StatusCode::kCorruptData);
  }
}

TEST(ContextBinary, RandomPayloadMutationsNeverCrash) {
  // Mutations behind valid CRCs reach the parser; it must refuse or accept
  // cleanly (ASan/UBSan catch anything else) and never allocate hugely.
  std::vector<uint8_t> payload = unwrap(sampleBinary());
  std::mt19937 rng(12345);
  int accepted = 0, refused = 0;
  for (int iter = 0; iter < 3000; ++iter) {
    std::vector<uint8_t> p = payload;
    int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      size_t at = rng() % p.size();
      switch (rng() % 4) {
        case 0: p[at] ^= static_cast<uint8_t>(1u << (rng() % 8)); break;
        case 1: p[at] = 0xff; break;
        case 2: p[at] = static_cast<uint8_t>(rng()); break;
        case 3: p.resize(at); break;
      }
      if (p.empty()) break;
    }
    std::vector<uint8_t> bin = wrap(p);
    ContextBinaryContents out;
    gMaxAlloc = 0;
    Status s = readContextBinary(bin.data(), bin.size(), &out);
    ASSERT_LT(gMaxAlloc.load(), size_t{1} << 20) << "iteration " << iter;
    if (s.isOk()) {
      ++accepted;
    } else {
      ASSERT_EQ(s.code(), StatusCode::kCorruptData) << s.message();
      ++refused;
    }
  }
  EXPECT_GT(refused, 0);
}

TEST(ContextBinary, WriterRefusesInconsistentContents) {
  std::vector<uint8_t> bin;
  ContextBinaryContents c = sampleContents();
  c.graphs[0].tensors[2].staticData.pop_back();
  EXPECT_EQ(writeContextBinary(c, &bin).code(), StatusCode::kInvalidArgument);
  c = sampleContents();
  c.graphs[1].nodes[0].inputIds.push_back(777);
  EXPECT_EQ(writeContextBinary(c, &bin).code(), StatusCode::kInvalidArgument);
  c = sampleContents();
  ParamValue p = tensorU32({3}, {1, 2, 3});
  p.data.resize(4);
  c.graphs[0].nodes[0].params.set("bad", p);
  EXPECT_EQ(writeContextBinary(c, &bin).code(), StatusCode::kInvalidArgument);
  c = sampleContents();
  c.graphs[0].name = std::string(70000, 'n');
  EXPECT_EQ(writeContextBinary(c, &bin).code(), StatusCode::kInvalidArgument);
}

TEST(ContextBinary, NullArguments) {
  std::vector<uint8_t> bin = sampleBinary();
  ContextBinaryContents c;
  EXPECT_EQ(readContextBinary(nullptr, 10, &c).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(readContextBinary(bin.data(), bin.size(), nullptr).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(readContextBinary(nullptr, 0, &c).code(), StatusCode::kCorruptData);
  EXPECT_EQ(validateContextBinary(nullptr, 10).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(validateContextBinary(nullptr, 0).code(), StatusCode::kCorruptData);
  EXPECT_EQ(writeContextBinary(sampleContents(), nullptr).code(), StatusCode::kInvalidArgument);
}

TEST(ContextBinary, FailedReadLeavesOutputUntouched) {
  std::vector<uint8_t> bin = sampleBinary();
  ContextBinaryContents c;
  c.backendId = 42;
  c.backendBlob = {1};
  bin.back() ^= 1;
  EXPECT_FALSE(readContextBinary(bin.data(), bin.size(), &c).isOk());
  EXPECT_EQ(c.backendId, 42u);
  EXPECT_EQ(c.backendBlob, std::vector<uint8_t>{1});
}

// ---- 1.3: the weights region ---------------------------------------------------

constexpr size_t kOffWeightsOffset = 40, kOffWeightsSize = 48;
const ContextBinaryWriteOptions kSmallRegion{64};  // the sample's 432-byte conv weights go to the region

std::vector<uint8_t> regionBinary() {
  std::vector<uint8_t> bin;
  EXPECT_TRUE(writeContextBinary(sampleContents(), &bin, kSmallRegion).isOk());
  return bin;
}

TEST(ContextBinaryRegion, WithoutLargeDataTheWriterStays12) {
  std::vector<uint8_t> plain, withOption;
  ASSERT_TRUE(writeContextBinary(sampleContents(), &plain).isOk());
  ASSERT_TRUE(writeContextBinary(sampleContents(), &withOption, ContextBinaryWriteOptions{1u << 20}).isOk());
  EXPECT_EQ(plain, withOption);
  EXPECT_EQ(plain[kOffMinor], 2);
  EXPECT_EQ(getU32(plain, kOffHeaderSize), kHeaderSize);
}

TEST(ContextBinaryRegion, LargeDataGoesToAPageAlignedRegionAndRoundTrips) {
  std::vector<uint8_t> bin = regionBinary();
  EXPECT_EQ(bin[kOffMinor], 3);
  EXPECT_EQ(getU32(bin, kOffHeaderSize), 64u);
  const uint64_t offset = getU64(bin, kOffWeightsOffset), size = getU64(bin, kOffWeightsSize);
  EXPECT_EQ(offset % 4096, 0u);
  EXPECT_EQ(offset + size, bin.size());
  // The conv weights are in the region as they are.
  const ContextBinaryContents sample = sampleContents();
  const SharedBytes& w = sample.graphs[0].tensors.at(2).staticData;
  EXPECT_NE(std::search(bin.begin() + long(offset), bin.end(), w.begin(), w.end()), bin.end());
  ContextBinaryContents out;
  Status s = readContextBinary(bin.data(), bin.size(), &out);
  ASSERT_TRUE(s.isOk()) << s.message();
  expectContentsEq(sampleContents(), out);
  EXPECT_TRUE(out.graphs[0].tensors.at(2).staticData.isView());
  EXPECT_TRUE(validateContextBinary(bin.data(), bin.size()).isOk());
  uint64_t o = 0, n = 0;
  ASSERT_TRUE(contextBinaryWeightsRegion(bin.data(), bin.size(), &o, &n).isOk());
  EXPECT_EQ(o, offset);
  EXPECT_EQ(n, size);
}

TEST(ContextBinaryRegion, AProviderSuppliesTheRegionInPlace) {
  std::vector<uint8_t> bin = regionBinary();
  const uint64_t offset = getU64(bin, kOffWeightsOffset), size = getU64(bin, kOffWeightsSize);
  int calls = 0, released = 0;
  WeightsRegionProvider provider = [&](uint64_t at, uint64_t n, std::shared_ptr<const uint8_t>* out) {
    ++calls;
    EXPECT_EQ(at, offset);
    EXPECT_EQ(n, size);
    *out = std::shared_ptr<const uint8_t>(bin.data() + at, [&](const uint8_t*) { ++released; });
    return Status::ok();
  };
  {
    ContextBinaryContents out;
    // The buffer may stop where the payload ends.
    const size_t metadata = 64 + size_t(getU64(bin, 32));
    Status s = readContextBinary(bin.data(), metadata, &out, provider);
    ASSERT_TRUE(s.isOk()) << s.message();
    expectContentsEq(sampleContents(), out);
    EXPECT_EQ(out.graphs[0].tensors.at(2).staticData.data(), bin.data() + offset);
    EXPECT_EQ(calls, 1);
    EXPECT_EQ(released, 0);
    // Without a provider that buffer lacks the weights.
    expectCorrupt(std::vector<uint8_t>(bin.begin(), bin.begin() + long(metadata)), "is not in the buffer");
  }
  EXPECT_EQ(released, 1) << "the region goes back when the last tensor using it is gone";
  // A provider's failure fails the read.
  ContextBinaryContents out;
  Status s = readContextBinary(bin.data(), bin.size(), &out, [](uint64_t, uint64_t, std::shared_ptr<const uint8_t>*) {
    return corruptData("no");
  });
  EXPECT_EQ(s.code(), StatusCode::kCorruptData);
}

TEST(ContextBinaryRegion, CorruptOrMisplacedRegionsAreRefused) {
  std::vector<uint8_t> bin = regionBinary();
  const uint64_t offset = getU64(bin, kOffWeightsOffset);
  std::vector<uint8_t> flipped = bin;
  flipped[size_t(offset) + 5] ^= 1;
  expectCorrupt(flipped, "weights region CRC mismatch");
  EXPECT_EQ(validateContextBinary(flipped.data(), flipped.size()).code(), StatusCode::kCorruptData);
  std::vector<uint8_t> cut(bin.begin(), bin.end() - 1);
  expectCorrupt(cut, "truncated weights region");
  std::vector<uint8_t> longer = bin;
  longer.push_back(0);
  expectCorrupt(longer, "trailing bytes after the weights region");
  std::vector<uint8_t> moved = bin;  // an offset off the page
  putU32(moved, kOffWeightsOffset, uint32_t(offset + 8));
  refreshHeaderCrc(moved);
  expectCorrupt(moved, "bad weights region");
  std::vector<uint8_t> smaller = bin;  // a region too small for the tensors placed in it
  putU32(smaller, kOffWeightsSize, 16);
  refreshHeaderCrc(smaller);
  smaller.resize(size_t(offset) + 16);
  putU32(smaller, 56, crcOf(smaller.data() + offset, 16));
  refreshHeaderCrc(smaller);
  expectCorrupt(smaller, "lie outside the region");
  // Every truncation is refused, never a crash.
  for (size_t n = 0; n < bin.size(); n += (n < 200 ? 1 : 97)) {
    ContextBinaryContents c;
    Status s = readContextBinary(bin.data(), n, &c);
    EXPECT_FALSE(s.isOk()) << "prefix " << n;
  }
}

TEST(SharedBytesView, ViewsAreReadInPlaceAndCopiedOnWrite) {
  auto storage = std::make_shared<std::vector<uint8_t>>(std::vector<uint8_t>{1, 2, 3, 4});
  SharedBytes v = SharedBytes::view(std::shared_ptr<const uint8_t>(storage, storage->data() + 1), 2);
  EXPECT_TRUE(v.isView());
  EXPECT_EQ(v.size(), 2u);
  EXPECT_EQ(v.data(), storage->data() + 1);
  SharedBytes copy = v;
  EXPECT_TRUE(copy.sharesWith(v));
  copy[0] = 9;  // the copy gets its own bytes
  EXPECT_FALSE(copy.isView());
  EXPECT_EQ((*storage)[1], 2);
  EXPECT_EQ(copy, (std::vector<uint8_t>{9, 3}));
  EXPECT_EQ(v, (std::vector<uint8_t>{2, 3}));
  EXPECT_EQ(v.vector(), (std::vector<uint8_t>{2, 3}));
}

}  // namespace
}  // namespace qnn::sdk
