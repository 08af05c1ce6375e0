// qnn-context-binary-utility run as a process on the fixture binary: its JSON
// (parsed here with nlohmann_json) lists every graph input and output with the
// dims, datatypes and quantization the client created; bad input gives one
// error line, a non-zero exit and no JSON file.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include <fstream>

#include "tests/tools/system/context_binary_fixture.h"
#include "tests/tools/system/tool_runner.h"
#include "QnnSdkBuildId.h"

namespace qnn::test {
namespace {

const char* dtypeName(Qnn_DataType_t t) {
  switch (t) {
    case QNN_DATATYPE_FLOAT_32: return "QNN_DATATYPE_FLOAT_32";
    case QNN_DATATYPE_UFIXED_POINT_8: return "QNN_DATATYPE_UFIXED_POINT_8";
    case QNN_DATATYPE_SFIXED_POINT_8: return "QNN_DATATYPE_SFIXED_POINT_8";
    default: return "?";
  }
}

class ContextBinaryUtility : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_FALSE(dir.path().empty());
    ASSERT_TRUE(contextBinaryFixture().error.empty()) << contextBinaryFixture().error;
    binaryPath = dir.file("model.bin");
    writeFile(binaryPath, contextBinaryFixture().bytes);
  }
  ToolResult run(const std::vector<std::string>& args) { return runTool(QNN_TEST_UTILITY_PATH, args, dir.path()); }
  // A failed run: non-zero exit, one error line of the tool on stderr (after the
  // library's line naming the cause when libQnnSystem.so refused the binary:
  // `libraryCause`), nothing written.
  void expectRefused(const std::vector<std::string>& args, const std::string& jsonPath, const std::string& needle,
                     const std::string& libraryCause = "") {
    ToolResult r = run(args);
    EXPECT_NE(r.exitCode, 0) << r.out;
    const std::string libraryLine = "[qnn ERROR] QnnSystemContext_getBinaryInfo: context binary: " + libraryCause;
    EXPECT_EQ(countLines(r.err), libraryCause.empty() ? 1u : 2u) << r.err;
    if (!libraryCause.empty()) { EXPECT_EQ(r.err.rfind(libraryLine, 0), 0u) << r.err; }
    EXPECT_NE(r.err.find("error"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
    EXPECT_FALSE(fileExists(jsonPath)) << jsonPath;
  }

  TempDir dir;
  std::string binaryPath;
};

void expectTensorJson(const nlohmann::json& j, const ExpectedTensor& want) {
  SCOPED_TRACE(want.name);
  EXPECT_EQ(j.at("name"), want.name);
  EXPECT_EQ(j.at("id"), want.id);
  EXPECT_EQ(j.at("dataType"), dtypeName(want.dtype));
  EXPECT_EQ(j.at("dims").get<std::vector<uint32_t>>(), want.dims);
  EXPECT_EQ(j.at("rank"), want.dims.size());
  const auto& q = j.at("quantization");
  if (want.encoding == QNN_QUANTIZATION_ENCODING_UNDEFINED) {
    EXPECT_EQ(q.at("encoding"), "QNN_QUANTIZATION_ENCODING_UNDEFINED");
  } else if (want.encoding == QNN_QUANTIZATION_ENCODING_SCALE_OFFSET) {
    EXPECT_EQ(q.at("encoding"), "QNN_QUANTIZATION_ENCODING_SCALE_OFFSET");
    EXPECT_EQ(q.at("scale").get<float>(), want.scale);
    EXPECT_EQ(q.at("offset"), want.offset);
  } else {
    EXPECT_EQ(q.at("encoding"), "QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET");
    EXPECT_EQ(q.at("axis"), want.axis);
    EXPECT_EQ(q.at("scales").get<std::vector<float>>(), want.scales);
    EXPECT_EQ(q.at("offsets").get<std::vector<int32_t>>(), want.offsets);
  }
}

TEST_F(ContextBinaryUtility, JsonListsEveryGraphInputAndOutput) {
  const std::string json = dir.file("info.json");
  ToolResult r = run({"--context_binary", binaryPath, "--json_file", json});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::ifstream in(json);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(doc.is_discarded()) << "not JSON";
  const auto& f = contextBinaryFixture();
  EXPECT_EQ(doc.at("backend").at("id"), f.backendId);
  EXPECT_FALSE(doc.at("backend").at("buildId").get<std::string>().empty());
  EXPECT_EQ(doc.at("backend").at("coreApiVersion"), "2.32.0");
  EXPECT_EQ(doc.at("context").at("blobSize"), f.bytes.size());
  EXPECT_EQ(doc.at("context").at("numGraphs"), f.graphs.size());
  const auto& graphs = doc.at("graphs");
  ASSERT_EQ(graphs.size(), f.graphs.size());
  for (size_t g = 0; g < f.graphs.size(); ++g) {
    const ExpectedGraph& want = f.graphs[g];
    SCOPED_TRACE(want.name);
    EXPECT_EQ(graphs[g].at("name"), want.name);
    ASSERT_EQ(graphs[g].at("inputs").size(), want.inputs.size());
    ASSERT_EQ(graphs[g].at("outputs").size(), want.outputs.size());
    for (size_t i = 0; i < want.inputs.size(); ++i) {
      expectTensorJson(graphs[g]["inputs"][i], want.inputs[i]);
      EXPECT_EQ(graphs[g]["inputs"][i].at("type"), "QNN_TENSOR_TYPE_APP_WRITE");
    }
    for (size_t i = 0; i < want.outputs.size(); ++i) {
      expectTensorJson(graphs[g]["outputs"][i], want.outputs[i]);
      EXPECT_EQ(graphs[g]["outputs"][i].at("type"), "QNN_TENSOR_TYPE_APP_READ");
    }
  }
}

TEST_F(ContextBinaryUtility, ExplicitSystemLibrary) {
  const std::string json = dir.file("info.json");
  ToolResult r = run({"--context_binary", binaryPath, "--json_file", json, "--system_library", QNN_TEST_SYSTEM_LIBRARY_PATH});
  ASSERT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(fileExists(json));
  expectRefused({"--context_binary", binaryPath, "--json_file", json + "2", "--system_library", dir.file("nope.so")},
                json + "2", "nope.so");
}

TEST_F(ContextBinaryUtility, HelpAndVersion) {
  ToolResult help = run({"--help"});
  EXPECT_EQ(help.exitCode, 0);
  EXPECT_NE(help.out.find("--context_binary"), std::string::npos);
  EXPECT_NE(help.out.find("--json_file"), std::string::npos);
  ToolResult version = run({"--version"});
  EXPECT_EQ(version.exitCode, 0);
  EXPECT_NE(version.out.find(QNN_SDK_BUILD_ID), std::string::npos);
}

TEST_F(ContextBinaryUtility, BadInputIsRefused) {
  const std::string json = dir.file("out.json");
  const auto& good = contextBinaryFixture().bytes;
  expectRefused({"--context_binary", dir.file("missing.bin"), "--json_file", json}, json, "missing.bin");
  expectRefused({"--json_file", json}, json, "--context_binary");
  expectRefused({"--context_binary", binaryPath}, json, "--json_file");
  expectRefused({"--context_binary", binaryPath, "--json_file", dir.file("no/such/dir/out.json")},
                dir.file("no/such/dir/out.json"), "does not exist");
  expectRefused({"--context_binary", binaryPath, "--json_file", json, "--bogus"}, json, "--bogus");

  writeFile(dir.file("truncated.bin"), std::vector<uint8_t>(good.begin(), good.begin() + good.size() / 2));
  expectRefused({"--context_binary", dir.file("truncated.bin"), "--json_file", json}, json, "MALFORMED_BINARY",
                "truncated payload");
  std::vector<uint8_t> corrupted = good;
  corrupted[corrupted.size() / 2] ^= 0x5a;
  writeFile(dir.file("corrupted.bin"), corrupted);
  expectRefused({"--context_binary", dir.file("corrupted.bin"), "--json_file", json}, json, "not a valid context binary",
                "payload CRC mismatch");
  writeFile(dir.file("foreign.bin"), std::vector<uint8_t>{'{', '"', 'a', '"', ':', '1', '}', '\n', 0, 0, 0, 0});
  expectRefused({"--context_binary", dir.file("foreign.bin"), "--json_file", json}, json, "not a valid context binary",
                "bad magic (7b 22 61 22 3a 31 7d 0a): not an OpenQNN context binary");
  writeFile(dir.file("empty.bin"), {});
  expectRefused({"--context_binary", dir.file("empty.bin"), "--json_file", json}, json, "empty");
  expectRefused({"--context_binary", dir.path(), "--json_file", json}, json, dir.path());
}

}  // namespace
}  // namespace qnn::test
