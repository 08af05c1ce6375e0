// The binary-section format (sdk/context_binary/binary_section.h) and the updateable
// flag of context-binary tensor records (format minor 1).
#include <gtest/gtest.h>

#include <cstring>

#include "context_binary/binary_section.h"
#include "context_binary/context_binary.h"

namespace qnn::sdk {
namespace {

BinarySection sample() {
  BinarySection s;
  s.kind = SectionKind::kUpdatable;
  s.backendId = 6;
  SectionGraph g;
  g.name = "lora";
  g.weightsUpdatable = true;
  SectionTensor a;
  a.info.id = 7;
  a.info.name = "A";
  a.info.kind = TensorKind::kStatic;
  a.info.updateable = true;
  a.info.dtype = DType::kUFixed8;
  a.info.dims = {2, 3};
  a.info.quant.kind = QuantInfo::Kind::kAxisScaleOffset;
  a.info.quant.axis = 0;
  a.info.quant.scales = {0.5f, 0.25f};
  a.info.quant.offsets = {-3, 4};
  a.info.staticData = {1, 2, 3, 4, 5, 6};
  a.hasData = a.hasQuant = true;
  SectionTensor in;
  in.info.id = 1;
  in.info.name = "x";
  in.info.kind = TensorKind::kAppWrite;
  in.info.updateable = true;
  in.info.dtype = DType::kUFixed16;
  in.info.dims = {1, 4};
  in.info.quant.kind = QuantInfo::Kind::kScaleOffset;
  in.info.quant.scale = 0.125f;
  in.info.quant.offset = -100;
  in.hasQuant = true;
  g.tensors = {a, in};
  s.graphs.push_back(g);
  return s;
}

std::vector<uint8_t> bytesOf(const BinarySection& s) {
  std::vector<uint8_t> out;
  EXPECT_TRUE(writeBinarySection(s, &out).isOk());
  return out;
}

void expectCorrupt(const std::vector<uint8_t>& b, const std::string& fragment) {
  BinarySection s;
  Status st = readBinarySection(b.data(), b.size(), &s);
  EXPECT_EQ(st.code(), StatusCode::kCorruptData) << st.message();
  EXPECT_NE(st.message().find(fragment), std::string::npos) << st.message();
}

TEST(BinarySection, RoundTrips) {
  BinarySection in = sample();
  std::vector<uint8_t> b = bytesOf(in);
  EXPECT_TRUE(looksLikeBinarySection(b.data(), b.size()));
  BinarySection out;
  ASSERT_TRUE(readBinarySection(b.data(), b.size(), &out).isOk());
  EXPECT_EQ(out.kind, in.kind);
  EXPECT_EQ(out.backendId, 6u);
  EXPECT_TRUE(out.updatable);
  ASSERT_EQ(out.graphs.size(), 1u);
  EXPECT_EQ(out.graphs[0].name, "lora");
  EXPECT_TRUE(out.graphs[0].weightsUpdatable);
  ASSERT_EQ(out.graphs[0].tensors.size(), 2u);
  const SectionTensor& a = out.graphs[0].tensors[0];
  EXPECT_EQ(a.info.id, 7u);
  EXPECT_EQ(a.info.name, "A");
  EXPECT_EQ(a.info.kind, TensorKind::kStatic);
  EXPECT_TRUE(a.info.updateable);
  EXPECT_EQ(a.info.dims, (std::vector<uint32_t>{2, 3}));
  EXPECT_TRUE(a.info.quant == in.graphs[0].tensors[0].info.quant);
  EXPECT_EQ(a.info.staticData, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
  const SectionTensor& x = out.graphs[0].tensors[1];
  EXPECT_EQ(x.info.kind, TensorKind::kAppWrite);
  EXPECT_FALSE(x.hasData);
  EXPECT_TRUE(x.hasQuant);
  EXPECT_EQ(x.info.quant.offset, -100);
}

TEST(BinarySection, DamageIsRefusedWithAReason) {
  std::vector<uint8_t> b = bytesOf(sample());
  for (size_t n : {size_t{0}, size_t{10}, b.size() - 1}) {
    std::vector<uint8_t> cut(b.begin(), b.begin() + static_cast<long>(n));
    BinarySection s;
    EXPECT_FALSE(readBinarySection(cut.data(), cut.size(), &s).isOk()) << n;
  }
  std::vector<uint8_t> flipped = b;
  flipped[b.size() - 3] ^= 1;
  expectCorrupt(flipped, "CRC");
  std::vector<uint8_t> magic = b;
  magic[0] = 'X';
  expectCorrupt(magic, "bad magic");
  std::vector<uint8_t> major = b;
  major[8] = 2;
  expectCorrupt(major, "major version 2");
  // Every single-byte flip anywhere but the minor version (a newer minor is
  // accepted by design): refused, never a crash.
  for (size_t i = 0; i < b.size(); ++i) {
    if (i == 10 || i == 11) continue;
    std::vector<uint8_t> m = b;
    m[i] ^= 0xff;
    BinarySection s;
    EXPECT_FALSE(readBinarySection(m.data(), m.size(), &s).isOk()) << i;
  }
}

TEST(BinarySection, WriterRefusesWhatTheReaderWould) {
  BinarySection s = sample();
  s.graphs[0].tensors[0].info.updateable = false;
  std::vector<uint8_t> out;
  EXPECT_FALSE(writeBinarySection(s, &out).isOk());
}

TEST(ContextBinaryUpdateable, FlagRoundTripsAndMinor0FilesReadWithoutIt) {
  ContextBinaryContents c;
  c.backendId = 6;
  GraphIR g;
  g.name = "g";
  TensorInfo t;
  t.id = 1;
  t.name = "w";
  t.kind = TensorKind::kStatic;
  t.updateable = true;
  t.dtype = DType::kFloat32;
  t.dims = {2};
  t.staticData.assign(8, 0);
  g.tensors[1] = t;
  c.graphs.push_back(g);
  std::vector<uint8_t> bin;
  ASSERT_TRUE(writeContextBinary(c, &bin).isOk());
  ContextBinaryContents back;
  ASSERT_TRUE(readContextBinary(bin.data(), bin.size(), &back).isOk());
  ASSERT_NE(back.graphs[0].findTensor(1), nullptr);
  EXPECT_TRUE(back.graphs[0].findTensor(1)->updateable);
  EXPECT_EQ(back.graphs[0].findTensor(1)->qnnTensorType(), 6u);  // QNN_TENSOR_TYPE_UPDATEABLE_STATIC
}

}  // namespace
}  // namespace qnn::sdk

namespace qnn::sdk {
namespace {

GraphIR graphWithWeights(const std::string& name, const std::vector<uint8_t>& weights) {
  GraphIR g;
  g.name = name;
  TensorInfo w;
  w.id = 3;
  w.name = "w";
  w.kind = TensorKind::kStatic;
  w.dtype = DType::kUInt8;
  w.dims = {static_cast<uint32_t>(weights.size())};
  w.staticData = weights;
  g.tensors[3] = w;
  return g;
}

// Static data repeated across graphs is stored once (minor 2): two graphs with
// the same weights take little more room than one, and read back whole.
TEST(ContextBinaryDedupe, RepeatedWeightsAreStoredOnce) {
  std::vector<uint8_t> weights(64 * 1024);
  uint32_t x = 12345;
  for (auto& b : weights) b = static_cast<uint8_t>((x = x * 1103515245u + 12345u) >> 24);  // incompressible
  ContextBinaryContents one, two;
  one.graphs = {graphWithWeights("a", weights)};
  two.graphs = {graphWithWeights("a", weights), graphWithWeights("b", weights)};
  std::vector<uint8_t> binOne, binTwo;
  ASSERT_TRUE(writeContextBinary(one, &binOne).isOk());
  ASSERT_TRUE(writeContextBinary(two, &binTwo).isOk());
  EXPECT_LT(binTwo.size(), binOne.size() + 1024) << "the second graph's weights were stored again";
  ContextBinaryContents back;
  ASSERT_TRUE(readContextBinary(binTwo.data(), binTwo.size(), &back).isOk());
  ASSERT_EQ(back.graphs.size(), 2u);
  EXPECT_EQ(back.graphs[1].findTensor(3)->staticData, weights);
  EXPECT_EQ(back.graphs[0].findTensor(3)->staticData, weights);
  // Different weights are not shared.
  std::vector<uint8_t> other = weights;
  other[100] ^= 1;
  two.graphs[1] = graphWithWeights("b", other);
  ASSERT_TRUE(writeContextBinary(two, &binTwo).isOk());
  ASSERT_TRUE(readContextBinary(binTwo.data(), binTwo.size(), &back).isOk());
  EXPECT_EQ(back.graphs[1].findTensor(3)->staticData, other);
}

}  // namespace
}  // namespace qnn::sdk
