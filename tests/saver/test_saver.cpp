// The Saver end to end: saver_client records through libQnnSaver.so without and
// with pass-through to libQnnCpu.so; the traces decode to the expected calls and
// arguments, pass-through outputs equal a direct run, truncated and corrupted
// traces decode to their readable prefix, and qnn-trace-dump prints or refuses.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <random>
#include <zlib.h>
#include <sstream>

#include "QnnTypes.h"
#include "tests/saver/saver_test_util.h"
#include "trace/trace_reader.h"
#include "trace/trace_writer.h"

namespace fs = std::filesystem;
using qnn::trace::CallRecord;
using qnn::trace::Trace;
using qnn::trace::Value;
using namespace qnn::saver_test;

namespace {

// Same generator as saver_client.cpp.
std::vector<float> randomData(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& e : v) e = u(rng);
  return v;
}

void writeBytes(const fs::path& p, const uint8_t* data, size_t n) {
  std::ofstream out(p, std::ios::binary);
  out.write(reinterpret_cast<const char*>(data), std::streamsize(n));
}

using RunResult = Outcome;

// Rewrites blob `blobId` of a trace with byte `offset` flipped, re-compressed and
// with a fresh CRC: a well-formed trace whose data differs (an edited weight).
std::vector<uint8_t> editBlob(const std::vector<uint8_t>& bytes, uint64_t blobId, size_t offset) {
  std::vector<uint8_t> out(bytes.begin(), bytes.begin() + 16);
  size_t p = 16;
  auto u32 = [&](size_t at) {
    uint32_t v;
    std::memcpy(&v, &bytes[at], 4);
    return v;
  };
  while (p < bytes.size()) {
    uint32_t type = u32(p + 4), rawSize = u32(p + 8), compSize = u32(p + 12);
    std::vector<uint8_t> raw(rawSize);
    uLongf got = rawSize;
    EXPECT_EQ(uncompress(raw.data(), &got, &bytes[p + 20], compSize), Z_OK);
    uint64_t id;
    std::memcpy(&id, raw.data(), 8);
    if (type == 2 && id == blobId) raw.at(8 + offset) ^= 0x10;
    uLongf cs = compressBound(rawSize);
    std::vector<uint8_t> comp(cs);
    compress2(comp.data(), &cs, raw.data(), rawSize, 1);
    comp.resize(cs);
    uint32_t head[4] = {u32(p), type, rawSize, uint32_t(cs)};
    uint32_t crc = uint32_t(crc32(0, reinterpret_cast<const Bytef*>(&head[1]), 12));
    crc = uint32_t(crc32(crc, comp.data(), uInt(cs)));
    const uint8_t* h = reinterpret_cast<const uint8_t*>(head);
    out.insert(out.end(), h, h + 16);
    const uint8_t* c = reinterpret_cast<const uint8_t*>(&crc);
    out.insert(out.end(), c, c + 4);
    out.insert(out.end(), comp.begin(), comp.end());
    p += 20 + compSize;
  }
  return out;
}

template <typename T>
std::vector<uint8_t> bytesOf(const std::vector<T>& v) {
  const uint8_t* p = reinterpret_cast<const uint8_t*>(v.data());
  return {p, p + v.size() * sizeof(T)};
}

const std::vector<std::string> kExpectedCalls = {
    "QnnSaver_initialize",    "QnnBackend_create",         "QnnContext_create",
    "QnnGraph_create",        "QnnTensor_createGraphTensor", "QnnTensor_createGraphTensor",
    "QnnTensor_createGraphTensor", "QnnTensor_createGraphTensor", "QnnTensor_createGraphTensor",
    "QnnTensor_createGraphTensor", "QnnTensor_createGraphTensor", "QnnGraph_addNode",
    "QnnGraph_addNode",       "QnnGraph_addNode",          "QnnGraph_finalize",
    "QnnGraph_execute",       "QnnGraph_execute",          "QnnGraph_execute",
    "QnnContext_getBinarySize", "QnnContext_getBinary",    "QnnContext_free",
    "QnnContext_createFromBinary", "QnnGraph_retrieve",    "QnnGraph_execute",
    "QnnContext_free",        "QnnBackend_free"};

class Saver : public ::testing::Test {
 protected:
  static void SetUpTestSuite() {
    dir_ = fs::temp_directory_path() / ("qnn_saver_test_" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    // Recording only.
    recordOnly_ = run(std::string("env -u QNN_SAVER_BACKEND ") + QNN_TEST_SAVER_CLIENT + " " + QNN_TEST_SAVER_PATH +
                          " " + (dir_ / "rec.bin").string() + " " + (dir_ / "rec").string(),
                      dir_);
    // Pass-through to the CPU backend, and the same client directly on it.
    passThrough_ = run(std::string("QNN_SAVER_BACKEND=") + QNN_TEST_CPU_BACKEND_PATH + " " + QNN_TEST_SAVER_CLIENT +
                           " " + QNN_TEST_SAVER_PATH + " " + (dir_ / "pass.bin").string() + " " +
                           (dir_ / "pass").string(),
                       dir_);
    direct_ = run(std::string(QNN_TEST_SAVER_CLIENT) + " " + QNN_TEST_CPU_BACKEND_PATH + " " +
                      (dir_ / "direct.bin").string(),
                  dir_);
  }
  static void TearDownTestSuite() { fs::remove_all(dir_); }

  static fs::path tracePath(const char* run) { return dir_ / run / "saver_output.qnntrace"; }

  static void expectSequence(const Trace& t) {
    ASSERT_EQ(t.calls.size(), kExpectedCalls.size());
    for (size_t k = 0; k < t.calls.size(); ++k) {
      EXPECT_EQ(qnn::trace::callName(t.calls[k].callId), kExpectedCalls[k]) << k;
      EXPECT_EQ(t.calls[k].seq, k);
      EXPECT_EQ(t.calls[k].result, 0u) << kExpectedCalls[k];
    }
  }

  static fs::path dir_;
  static RunResult recordOnly_, passThrough_, direct_;
};

fs::path Saver::dir_;
RunResult Saver::recordOnly_, Saver::passThrough_, Saver::direct_;

TEST_F(Saver, RecordOnlyCallsSucceedAndTraceHoldsCallsAndArguments) {
  ASSERT_EQ(recordOnly_.exitCode, 0) << recordOnly_.err;
  // Without pass-through nothing executes: outputs are left untouched (the client zeroed them).
  std::vector<uint8_t> outputs = readBytes(dir_ / "rec.bin");
  ASSERT_EQ(outputs.size(), 4u * 5 * 6 * 4 * 4);
  for (uint8_t b : outputs) ASSERT_EQ(b, 0);

  Trace t;
  ASSERT_TRUE(qnn::trace::readTrace(tracePath("rec").string(), t)) << t.error;
  expectSequence(t);
  const auto& c = t.calls;
  EXPECT_EQ(at(at(c[0].args, "config").items.at(0), "outputDirectory").s, (dir_ / "rec").string());

  // Handles are recorded as ids and connect the calls.
  uint64_t backend = at(c[1].args, "backend").u, context = at(c[2].args, "context").u;
  uint64_t graph = at(c[3].args, "graph").u;
  EXPECT_EQ(at(c[2].args, "backend").u, backend);
  EXPECT_EQ(at(c[3].args, "context").u, context);
  EXPECT_EQ(at(c[3].args, "graphName").s, "conv_relu_add");
  EXPECT_EQ(at(c[15].args, "graph").u, graph);

  // Static tensor: structure and data.
  const Value& w = at(c[5].args, "tensor");
  EXPECT_EQ(at(w, "name").s, "w");
  EXPECT_EQ(at(w, "type").u, uint64_t(QNN_TENSOR_TYPE_STATIC));
  EXPECT_EQ(at(w, "dataType").u, uint64_t(QNN_DATATYPE_FLOAT_32));
  ASSERT_EQ(at(w, "dims").items.size(), 4u);
  EXPECT_EQ(at(w, "dims").items[3].u, 4u);
  const std::vector<uint8_t>* wData = t.blob(at(w, "data"));
  ASSERT_NE(wData, nullptr);
  EXPECT_EQ(*wData, bytesOf(randomData(3 * 3 * 3 * 4, 1)));

  // Op config with its tensor params.
  const Value& conv = at(c[11].args, "opConfig");
  EXPECT_EQ(at(conv, "typeName").s, "Conv2d");
  EXPECT_EQ(at(conv, "inputs").items.size(), 3u);
  const Value& stride = at(at(conv, "params").items.at(0), "tensor");
  EXPECT_EQ(at(at(conv, "params").items.at(0), "name").s, "stride");
  const std::vector<uint8_t>* strideData = t.blob(at(stride, "data"));
  ASSERT_NE(strideData, nullptr);
  EXPECT_EQ(*strideData, bytesOf(std::vector<uint32_t>{1, 1}));

  // Execute inputs are stored once: run 1 and the run after the binary round trip use the same data.
  const Value& in1 = at(at(c[15].args, "inputs").items.at(0), "data");
  const Value& in4 = at(at(c[23].args, "inputs").items.at(0), "data");
  ASSERT_NE(t.blob(in1), nullptr);
  EXPECT_EQ(*t.blob(in1), bytesOf(randomData(5 * 6 * 3, 10)));
  EXPECT_EQ(in1.u, in4.u);
  // No output data without a real run.
  EXPECT_EQ(at(c[15].args, "outputs").items.at(0).field("data"), nullptr);
}

TEST_F(Saver, PassThroughOutputsEqualDirectRunAndAreRecorded) {
  ASSERT_EQ(direct_.exitCode, 0) << direct_.err;
  ASSERT_EQ(passThrough_.exitCode, 0) << passThrough_.err;
  std::vector<uint8_t> direct = readBytes(dir_ / "direct.bin"), passed = readBytes(dir_ / "pass.bin");
  ASSERT_EQ(direct.size(), 4u * 5 * 6 * 4 * 4);
  EXPECT_EQ(direct, passed);

  Trace t;
  ASSERT_TRUE(qnn::trace::readTrace(tracePath("pass").string(), t)) << t.error;
  expectSequence(t);
  // Each execute's recorded output is the real one.
  size_t perRun = 5 * 6 * 4 * 4, run = 0;
  for (const CallRecord& c : t.calls) {
    if (std::string(qnn::trace::callName(c.callId)) != "QnnGraph_execute") continue;
    const std::vector<uint8_t>* out = t.blob(at(at(c.args, "outputs").items.at(0), "data"));
    ASSERT_NE(out, nullptr) << run;
    EXPECT_EQ(*out, std::vector<uint8_t>(direct.begin() + run * perRun, direct.begin() + (run + 1) * perRun)) << run;
    ++run;
  }
  EXPECT_EQ(run, 4u);
  // The real binary went through: it is larger than the Saver's placeholder.
  EXPECT_GT(at(t.calls[19].args, "writtenBufferSize").u, 64u);
}

TEST_F(Saver, TruncatedTraceDecodesToLastCompleteCall) {
  std::vector<uint8_t> bytes = readBytes(tracePath("pass"));
  Trace full;
  ASSERT_TRUE(qnn::trace::readTraceBuffer(bytes.data(), bytes.size(), full)) << full.error;
  ASSERT_FALSE(full.blockEnds.empty());
  Trace header;
  EXPECT_TRUE(qnn::trace::readTraceBuffer(bytes.data(), 16, header));
  EXPECT_TRUE(header.calls.empty());
  size_t previousCalls = 0, previousEnd = 16;
  for (uint64_t end : full.blockEnds) {
    Trace cut;
    EXPECT_TRUE(qnn::trace::readTraceBuffer(bytes.data(), end, cut)) << end << ": " << cut.error;
    ASSERT_GE(cut.calls.size(), previousCalls);
    ASSERT_LE(cut.calls.size(), previousCalls + 1);
    for (size_t k = 0; k < cut.calls.size(); ++k) EXPECT_EQ(cut.calls[k].callId, full.calls[k].callId);
    // Inside the block (header, middle, last byte missing): the prefix before it and an error.
    for (uint64_t inside : {previousEnd + 3, (previousEnd + end) / 2, end - 1}) {
      if (inside <= previousEnd || inside >= end) continue;
      Trace partial;
      EXPECT_FALSE(qnn::trace::readTraceBuffer(bytes.data(), inside, partial)) << inside;
      EXPECT_EQ(partial.calls.size(), previousCalls) << inside;
      EXPECT_NE(partial.error.find("truncated"), std::string::npos) << partial.error;
    }
    previousCalls = cut.calls.size();
    previousEnd = end;
  }
  EXPECT_EQ(previousCalls, full.calls.size());
}

TEST_F(Saver, CorruptedAndWrongVersionTracesAreRefused) {
  std::vector<uint8_t> bytes = readBytes(tracePath("pass"));
  Trace full;
  ASSERT_TRUE(qnn::trace::readTraceBuffer(bytes.data(), bytes.size(), full));
  // Flip one byte inside block 5's payload: blocks 0-4 still decode.
  ASSERT_GT(full.blockEnds.size(), 6u);
  std::vector<uint8_t> corrupt = bytes;
  corrupt[full.blockEnds[4] + 24] ^= 0x40;
  Trace t;
  EXPECT_FALSE(qnn::trace::readTraceBuffer(corrupt.data(), corrupt.size(), t));
  EXPECT_NE(t.error.find("CRC"), std::string::npos) << t.error;
  EXPECT_EQ(t.errorOffset, full.blockEnds[4]);
  Trace prefix;
  qnn::trace::readTraceBuffer(bytes.data(), full.blockEnds[4], prefix);
  EXPECT_EQ(t.calls.size(), prefix.calls.size());

  std::vector<uint8_t> version = bytes;
  version[8] = 99;
  EXPECT_FALSE(qnn::trace::readTraceBuffer(version.data(), version.size(), t));
  EXPECT_NE(t.error.find("version 99"), std::string::npos) << t.error;

  const char garbage[] = "this is not a trace at all, just text";
  EXPECT_FALSE(qnn::trace::readTraceBuffer(reinterpret_cast<const uint8_t*>(garbage), sizeof garbage, t));
  EXPECT_NE(t.error.find("magic"), std::string::npos);

  // A block claiming more decompressed bytes than deflate can produce from its compressed size (found
  // by fuzz_trace: the reader used to allocate and clear up to 1 GiB first): refused before allocating.
  std::vector<uint8_t> inflated = bytes;
  const size_t block = full.blockEnds[4];  // block header: magic, type, rawSize, compSize, crc
  uint32_t compSize = 0, huge = 1u << 29;
  std::memcpy(&compSize, inflated.data() + block + 12, 4);
  ASSERT_LT(uint64_t(compSize) * 1032 + 64, huge);
  std::memcpy(inflated.data() + block + 8, &huge, 4);
  EXPECT_FALSE(qnn::trace::readTraceBuffer(inflated.data(), inflated.size(), t));
  EXPECT_NE(t.error.find("block size out of range"), std::string::npos) << t.error;
  EXPECT_EQ(t.errorOffset, block);
}

// The client's API is an info block: a client built against include/QNN asked for the default
// provider, so the recording names the API of these headers.
TEST_F(Saver, TraceRecordsTheClientApi) {
  Trace t;
  ASSERT_TRUE(qnn::trace::readTrace(tracePath("pass").string(), t)) << t.error;
  uint32_t major = 0, minor = 0;
  ASSERT_TRUE(t.clientApi(&major, &minor));
  EXPECT_EQ(major, uint32_t(QNN_API_VERSION_MAJOR));
  EXPECT_EQ(minor, uint32_t(QNN_API_VERSION_MINOR));
}

// Info blocks merge field by field (a later one wins) and do not count as calls; one that is
// not a struct is refused like any malformed block.
TEST_F(Saver, InfoBlocksMergeAndMalformedOnesAreRefused) {
  fs::path path = dir_ / "info.qnntrace";
  auto api = [](uint32_t minor) {
    Value v = Value::record(), info = Value::record();
    v.add("major", Value::uint(2));
    v.add("minor", Value::uint(minor));
    info.add("clientApi", std::move(v));
    return info;
  };
  {
    qnn::trace::TraceWriter w;
    ASSERT_TRUE(w.open(path.string(), nullptr));
    w.writeInfo(api(7));
    CallRecord call;
    call.callId = uint32_t(qnn::trace::Call::backendFree);
    w.writeCall(call);
    Value other = Value::record();
    other.add("note", Value::str("kept"));
    w.writeInfo(other);
    w.writeInfo(api(13));
    w.writeInfo(Value::uint(1));  // not a struct
  }
  std::vector<uint8_t> bytes = readBytes(path);
  Trace t;
  EXPECT_FALSE(qnn::trace::readTraceBuffer(bytes.data(), bytes.size(), t));
  EXPECT_NE(t.error.find("malformed info block"), std::string::npos) << t.error;
  ASSERT_EQ(t.blockEnds.size(), 4u);
  ASSERT_TRUE(qnn::trace::readTraceBuffer(bytes.data(), t.blockEnds[3], t)) << t.error;
  EXPECT_EQ(t.calls.size(), 1u);
  uint32_t major = 0, minor = 0;
  ASSERT_TRUE(t.clientApi(&major, &minor));
  EXPECT_EQ(major, 2u);
  EXPECT_EQ(minor, 13u);
  ASSERT_NE(t.info.field("note"), nullptr);
  EXPECT_EQ(t.info.field("note")->s, "kept");
  Trace headerOnly;
  ASSERT_TRUE(qnn::trace::readTraceBuffer(bytes.data(), 16, headerOnly));
  EXPECT_FALSE(headerOnly.clientApi(&major, &minor));
}

TEST_F(Saver, ProcessKilledAfterSecondExecuteLeavesReadableTrace) {
  RunResult r = run(std::string("SAVER_CLIENT_KILL_AFTER=2 QNN_SAVER_BACKEND=") + QNN_TEST_CPU_BACKEND_PATH + " " +
                        QNN_TEST_SAVER_CLIENT + " " + QNN_TEST_SAVER_PATH + " " + (dir_ / "killed.bin").string() +
                        " " + (dir_ / "killed").string(),
                    dir_);
  EXPECT_NE(r.exitCode, 0);
  Trace t;
  ASSERT_TRUE(qnn::trace::readTrace(tracePath("killed").string(), t)) << t.error;
  // Everything up to and including the second execute, with its real output.
  ASSERT_EQ(t.calls.size(), 17u);
  for (size_t k = 0; k < t.calls.size(); ++k) EXPECT_EQ(qnn::trace::callName(t.calls[k].callId), kExpectedCalls[k]);
  EXPECT_NE(t.blob(at(at(t.calls[16].args, "outputs").items.at(0), "data")), nullptr);
  RunResult dump = run(std::string(QNN_TEST_TRACE_DUMP) + " --trace " + tracePath("killed").string(), dir_);
  EXPECT_EQ(dump.exitCode, 0) << dump.err;
  EXPECT_NE(dump.out.find("17 calls"), std::string::npos);
  // The prefix replays, and its two executes match the recording.
  RunResult replay = run(std::string(QNN_TEST_TRACE_REPLAY) + " --backend " + QNN_TEST_CPU_BACKEND_PATH +
                             " --compare --trace " + tracePath("killed").string(),
                         dir_);
  EXPECT_EQ(replay.exitCode, 0) << replay.out << replay.err;
  EXPECT_NE(replay.out.find("replayed 16 calls, skipped 1 (QnnSaver_initialize), compared 2 outputs"),
            std::string::npos)
      << replay.out;
}

TEST_F(Saver, TraceDumpPrintsCallsAndJson) {
  fs::path json = dir_ / "trace.json";
  RunResult r = run(std::string(QNN_TEST_TRACE_DUMP) + " --trace " + tracePath("pass").string() + " --json " +
                        json.string(),
                    dir_);
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("QnnGraph_execute(graph=@"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("name=\"w\""), std::string::npos);
  EXPECT_NE(r.out.find("26 calls"), std::string::npos);
  std::ifstream in(json);
  nlohmann::json j = nlohmann::json::parse(in);
  ASSERT_EQ(j["calls"].size(), kExpectedCalls.size());
  EXPECT_EQ(j["calls"][3]["call"], "QnnGraph_create");
  EXPECT_EQ(j["calls"][3]["args"]["graphName"], "conv_relu_add");
}

TEST_F(Saver, TraceDumpReportsTruncationAndRefusesGarbage) {
  std::vector<uint8_t> bytes = readBytes(tracePath("pass"));
  Trace full;
  ASSERT_TRUE(qnn::trace::readTraceBuffer(bytes.data(), bytes.size(), full));
  fs::path cut = dir_ / "cut.qnntrace";
  writeBytes(cut, bytes.data(), bytes.size() - 5);
  RunResult r = run(std::string(QNN_TEST_TRACE_DUMP) + " --trace " + cut.string(), dir_);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.out.find("QnnBackend_create"), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(r.err.rfind("qnn-trace-dump: error: ", 0), 0u) << r.err;
  EXPECT_NE(r.err.find("truncated"), std::string::npos) << r.err;

  fs::path garbage = dir_ / "garbage.qnntrace";
  const char text[] = "garbage garbage garbage garbage";
  writeBytes(garbage, reinterpret_cast<const uint8_t*>(text), sizeof text);
  r = run(std::string(QNN_TEST_TRACE_DUMP) + " --trace " + garbage.string(), dir_);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("bad magic"), std::string::npos) << r.err;
}

TEST_F(Saver, ReplayOnCpuMatchesRecordingAndFindsAnEditedWeight) {
  std::string replay = std::string(QNN_TEST_TRACE_REPLAY) + " --backend " + QNN_TEST_CPU_BACKEND_PATH + " --compare --trace ";
  RunResult r = run(replay + tracePath("pass").string(), dir_);
  ASSERT_EQ(r.exitCode, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("replayed 25 calls, skipped 1 (QnnSaver_initialize), compared 4 outputs"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("no divergence"), std::string::npos);

  // One byte of the weights changed: the first execute's output diverges.
  std::vector<uint8_t> bytes = readBytes(tracePath("pass"));
  Trace t;
  ASSERT_TRUE(qnn::trace::readTraceBuffer(bytes.data(), bytes.size(), t));
  uint64_t weights = at(at(t.calls[5].args, "tensor"), "data").u;
  std::vector<uint8_t> edited = editBlob(bytes, weights, 2);
  Trace check;
  ASSERT_TRUE(qnn::trace::readTraceBuffer(edited.data(), edited.size(), check)) << check.error;
  fs::path editedPath = dir_ / "edited.qnntrace";
  writeBytes(editedPath, edited.data(), edited.size());
  r = run(replay + editedPath.string(), dir_);
  EXPECT_EQ(r.exitCode, 2) << r.out << r.err;
  EXPECT_NE(r.out.find("first divergence: call #15 QnnGraph_execute output 'out' element"), std::string::npos) << r.out;

  // A recording without pass-through has no outputs to compare, and replays.
  r = run(replay + tracePath("rec").string(), dir_);
  EXPECT_EQ(r.exitCode, 0) << r.out << r.err;
  // Garbage is refused with one error line.
  fs::path garbage = dir_ / "garbage2.qnntrace";
  writeBytes(garbage, reinterpret_cast<const uint8_t*>("QNNTRACE"), 8);
  r = run(replay + garbage.string(), dir_);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST_F(Saver, RecordedArgumentsAreTheListedOnes) {
  for (const char* run : {"rec", "pass"}) {
    Trace t;
    ASSERT_TRUE(qnn::trace::readTrace(tracePath(run).string(), t)) << t.error;
    EXPECT_GT(expectArgsAsListed(t), 20u) << run;
  }
}

}  // namespace
