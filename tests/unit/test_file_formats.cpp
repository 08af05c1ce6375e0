// The file formats whose reader and writer sit side by side in one module: each writer's output
// read back by its reader (the profiling log of sdk/profile_log, safetensors of sdk/safetensors),
// and the bytes the writers lay out, checked against the formats' definitions.
#include <gtest/gtest.h>

#include <cstring>

#include "prepared_blob/htp_prepared_head.h"
#include "profile_log/profile_log.h"
#include "safetensors/safetensors.h"

namespace qnn::sdk {
namespace {

TEST(ProfileLogFormat, WrittenLogReadsBack) {
  ProfileLogEvent node;
  node.type = 404, node.unit = "us", node.value = 7, node.identifier = "conv";
  ProfileLogEvent exec;
  exec.phase = "execute", exec.type = 400, exec.unit = "us", exec.value = 31, exec.identifier = "QNN (execute) time";
  exec.graph = "g", exec.inference = 2, exec.startUs = 1000;
  exec.subEvents = {node};
  ProfileLogEvent bytes;
  bytes.phase = "init", bytes.type = 101, bytes.unit = "bytes", bytes.value = 4096, bytes.startUs = 3;
  const std::string text = profileLogText({"qnn-net-run", "libQnnCpu.so", "b1", "detailed"}, {exec, bytes});
  ProfileLog log;
  ASSERT_TRUE(readProfileLog(text, &log).isOk());
  EXPECT_EQ(log.version, 1);
  EXPECT_EQ(log.tool, "qnn-net-run");
  EXPECT_EQ(log.backend, "libQnnCpu.so");
  EXPECT_EQ(log.backendBuildId, "b1");
  EXPECT_EQ(log.profilingLevel, "detailed");
  ASSERT_EQ(log.events.size(), 2u);
  const ProfileLogEvent& e = log.events[0];
  EXPECT_EQ(e.phase, "execute");
  EXPECT_EQ(e.type, 400u);
  EXPECT_EQ(e.value, 31u);
  EXPECT_EQ(e.graph, "g");
  EXPECT_EQ(e.inference, std::optional<uint64_t>(2));
  EXPECT_EQ(e.startUs, std::optional<uint64_t>(1000));
  ASSERT_EQ(e.subEvents.size(), 1u);
  EXPECT_TRUE(e.subEvents[0].isNode());
  EXPECT_EQ(e.subEvents[0].identifier, "conv");
  EXPECT_FALSE(e.subEvents[0].startUs.has_value());
  EXPECT_FALSE(e.subEvents[0].inference.has_value());
  EXPECT_EQ(log.events[1].unit, "bytes");
  EXPECT_FALSE(log.events[1].isTime());
  EXPECT_TRUE(log.events[1].graph.empty());
  // Keys the writer leaves out stay out: no graph, inference or startUs on the node.
  EXPECT_EQ(text.find("\"graph\"", text.find("\"conv\"")), std::string::npos);
}

TEST(ProfileLogFormat, ReaderRefusesWithTheReason) {
  ProfileLog log;
  Status s = readProfileLog(R"({"format": "openqnn-profile", "version": 1, "events": [{"value": -1}]})", &log);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "event 0: 'value' must be a non-negative integer");
  s = readProfileLog(R"({"format": "openqnn-profile", "version": 9, "events": []})", &log);
  EXPECT_NE(s.message().find("version 9 is newer"), std::string::npos) << s.message();
  EXPECT_FALSE(readProfileLog("[", &log).isOk());
  // A missing unit reads as microseconds.
  ASSERT_TRUE(readProfileLog(R"({"format": "openqnn-profile", "version": 1, "events": [{"value": 5}]})", &log).isOk());
  EXPECT_EQ(log.events.at(0).unit, "us");
}

std::vector<uint8_t> floats(std::initializer_list<float> v) {
  std::vector<uint8_t> b(v.size() * 4);
  std::memcpy(b.data(), v.begin(), b.size());
  return b;
}

TEST(SafetensorsFormat, WrittenFileReadsBackWithAlignedData) {
  std::map<std::string, SafeTensor> in;
  in["lora_A"] = {"F32", {2, 3}, floats({1, -2, 3.5f, 0, 8, -0.25f})};
  in["b"] = {"U8", {3}, {7, 8, 9}};
  in["h"] = {"F16", {1}, {0x00, 0x3c}};  // 1.0
  std::vector<uint8_t> bytes;
  ASSERT_TRUE(safetensorsBytes(in, {{"format", "pt"}}, &bytes).isOk());
  uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i) headerSize = headerSize << 8 | bytes[i];
  EXPECT_EQ(headerSize % 8, 0u);
  ASSERT_EQ(bytes.size(), 8 + headerSize + 3 + 2 + 24);
  // Data in name order: b, h, lora_A.
  EXPECT_EQ(bytes[8 + headerSize], 7);
  EXPECT_EQ(bytes[8 + headerSize + 3], 0x00);
  EXPECT_EQ(bytes[8 + headerSize + 4], 0x3c);
  const std::string header(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(headerSize));
  EXPECT_NE(header.find(R"("lora_A":{"data_offsets":[5,29],"dtype":"F32","shape":[2,3]})"), std::string::npos) << header;
  EXPECT_NE(header.find(R"("__metadata__":{"format":"pt"})"), std::string::npos) << header;

  std::map<std::string, SafeTensor> out;
  ASSERT_TRUE(parseSafetensors(bytes.data(), bytes.size(), "mem", &out).isOk());
  ASSERT_EQ(out.size(), 3u);
  for (const auto& [name, t] : in) {
    EXPECT_EQ(out.at(name).dtype, t.dtype) << name;
    EXPECT_EQ(out.at(name).shape, t.shape) << name;
    EXPECT_EQ(out.at(name).data, t.data) << name;
  }
}

TEST(SafetensorsFormat, WriterAndReaderRefuseInconsistentTensors) {
  std::vector<uint8_t> bytes;
  EXPECT_EQ(safetensorsBytes({{"x", {"F32", {2}, {1, 2, 3}}}}, {}, &bytes).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(safetensorsBytes({{"x", {"Q4", {1}, {1}}}}, {}, &bytes).code(), StatusCode::kInvalidArgument);
  ASSERT_TRUE(safetensorsBytes({{"x", {"F32", {2}, floats({1, 2})}}}, {}, &bytes).isOk());
  std::map<std::string, SafeTensor> out;
  // One byte short: the tensor's data_offsets run past the file's data.
  Status s = parseSafetensors(bytes.data(), bytes.size() - 1, "cut", &out);
  EXPECT_EQ(s.message(), "safetensors file 'cut': tensor 'x' has data_offsets outside the file's data");
  EXPECT_FALSE(parseSafetensors(bytes.data(), 7, "tiny", &out).isOk());
  EXPECT_EQ(readSafetensors("/nonexistent/a.safetensors", &out).message(),
            "cannot open safetensors file '/nonexistent/a.safetensors'");
}

// The head of the HTP's prepared graph, which libQnnHtp.so writes and reads and libQnnSystem.so
// reads for binary info: "HTPP", the version, then socModel, arch, vtcmMB, optMode, fp16,
// hvxThreads, foldReluIntoConv, contextPriority, u32 little-endian each
// (docs/context-binary-format.md, "HTP prepared graph").
TEST(HtpPreparedHead, BytesAsDocumentedAndReadBack) {
  std::vector<uint8_t> bytes;
  binary::ByteWriter w(&bytes);
  writeHtpPreparedHead(w, 4, {60, 0x73, 8, 2, 1, 6, 0, 300});
  const uint32_t want[] = {4, 60, 0x73, 8, 2, 1, 6, 0, 300};
  ASSERT_EQ(bytes.size(), 4 + sizeof want);
  EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "HTPP");
  for (size_t i = 0; i < 9; ++i) {
    const uint8_t* p = bytes.data() + 4 + 4 * i;
    EXPECT_EQ(uint32_t(p[0]) | uint32_t(p[1]) << 8 | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24, want[i]) << i;
  }
  binary::ByteReader r(bytes.data(), bytes.size());
  uint32_t version = 0;
  HtpPreparedOptions o;
  ASSERT_TRUE(readHtpPreparedMagic(r));
  ASSERT_TRUE(r.u32(&version));
  ASSERT_TRUE(readHtpPreparedOptions(r, &o));
  EXPECT_EQ(version, 4u);
  EXPECT_EQ(o.socModel, 60u);
  EXPECT_EQ(o.arch, 0x73u);
  EXPECT_EQ(o.vtcmMB, 8u);
  EXPECT_EQ(o.optMode, 2u);
  EXPECT_EQ(o.fp16, 1u);
  EXPECT_EQ(o.hvxThreads, 6u);
  EXPECT_EQ(o.foldReluIntoConv, 0u);
  EXPECT_EQ(o.contextPriority, 300u);
  EXPECT_TRUE(r.atEnd());
}

TEST(HtpPreparedHead, ForeignOrTruncatedBytesRefused) {
  std::vector<uint8_t> bytes;
  binary::ByteWriter w(&bytes);
  writeHtpPreparedHead(w, 4, {});
  binary::ByteReader truncated(bytes.data(), bytes.size() - 1);
  uint32_t version = 0;
  HtpPreparedOptions o;
  ASSERT_TRUE(readHtpPreparedMagic(truncated) && truncated.u32(&version));
  EXPECT_FALSE(readHtpPreparedOptions(truncated, &o));
  bytes[0] = 'X';
  binary::ByteReader foreign(bytes.data(), bytes.size());
  EXPECT_FALSE(readHtpPreparedMagic(foreign));
  binary::ByteReader empty(bytes.data(), 0);
  EXPECT_FALSE(readHtpPreparedMagic(empty));
}

}  // namespace
}  // namespace qnn::sdk
