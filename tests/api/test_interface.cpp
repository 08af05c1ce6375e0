// The provider and its function table: version, every entry present, the
// post-2.7 entries either working or answering NOT_SUPPORTED.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "QnnSdkBuildId.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

TEST(Interface, ProviderReportsVersionAndFullTable) {
  LoadedBackend lib(cpuBackendPath());
  ASSERT_TRUE(lib.ok()) << lib.error();
  const QnnInterface_t& p = lib.provider();
  EXPECT_EQ(p.backendId, QNN_BACKEND_ID_CPU);
  EXPECT_STREQ(p.providerName, QNN_CPU_INTERFACE_PROVIDER_NAME);
  EXPECT_EQ(p.apiVersion.coreApiVersion.major, QNN_API_VERSION_MAJOR);
  EXPECT_EQ(p.apiVersion.coreApiVersion.minor, QNN_API_VERSION_MINOR);
  const auto* entries = reinterpret_cast<void* const*>(&p.QNN_INTERFACE_VER_NAME);
  for (size_t i = 0; i < sizeof(QNN_INTERFACE_VER_TYPE) / sizeof(void*); ++i)
    EXPECT_NE(entries[i], nullptr) << "table entry " << i << " is null";
  Qnn_ApiVersion_t v;
  ASSERT_EQ(lib.api().backendGetApiVersion(&v), QNN_SUCCESS);
  EXPECT_EQ(v.coreApiVersion.minor, QNN_API_VERSION_MINOR);
  EXPECT_EQ(v.backendApiVersion.major, QNN_CPU_API_VERSION_MAJOR);
}

// Every library reports the one build id of QnnSdkBuildId.h, in the vendor's form
// v<sdk>.<yymmddHHMMSS>_<build>: ONNX Runtime splits it at the dots into exactly four
// parts and reads the SDK version from the first three; API 2.32 is SDK 2.43
// (docs/compatibility.md). It used to be "OpenQNN CPU backend 2.22.0".
TEST(Interface, BuildIdIsTheSdkBuildIdInTheVendorsForm) {
  static_assert(QNN_API_VERSION_MAJOR == 2 && QNN_API_VERSION_MINOR == 32, "API 2.32 is SDK 2.43: update both");
  const std::string id = QNN_SDK_BUILD_ID;
  std::vector<std::string> parts;
  for (size_t from = 0;;) {
    size_t dot = id.find('.', from);
    parts.push_back(id.substr(from, dot - from));
    if (dot == std::string::npos) break;
    from = dot + 1;
  }
  ASSERT_EQ(parts.size(), 4u) << id;
  EXPECT_EQ(parts[0], "v2");
  EXPECT_EQ(parts[1], "43");
  EXPECT_EQ(parts[2], "0");
  size_t underscore = parts[3].find('_');
  ASSERT_EQ(underscore, 12u) << id;  // yymmddHHMMSS
  EXPECT_EQ(parts[3].find_first_not_of("0123456789"), 12u) << id;
  EXPECT_GT(parts[3].size(), 13u) << id;
  for (const std::string& path : {cpuBackendPath(), htpBackendPath()}) {
    LoadedBackend lib(path);
    ASSERT_TRUE(lib.ok()) << lib.error();
    const char* reported = nullptr;
    ASSERT_EQ(lib.api().backendGetBuildId(&reported), QNN_SUCCESS);
    EXPECT_STREQ(reported, QNN_SDK_BUILD_ID) << path;
  }
}

TEST(Interface, ErrorMessagesAndUnimplementedEntries) {
  LoadedBackend lib(cpuBackendPath());
  ASSERT_TRUE(lib.ok()) << lib.error();
  const auto& api = lib.api();
  const char* msg = nullptr;
  ASSERT_EQ(api.errorGetMessage(QNN_GRAPH_ERROR_INVALID_HANDLE, &msg), QNN_SUCCESS);
  EXPECT_STREQ(msg, "invalid graph handle");
  ASSERT_EQ(api.errorGetVerboseMessage(QNN_SUCCESS, &msg), QNN_SUCCESS);
  EXPECT_EQ(api.errorFreeVerboseMessage(msg), QNN_SUCCESS);
  Qnn_GraphHandle_t sub = nullptr;
  EXPECT_EQ(api.graphCreateSubgraph(nullptr, "s", &sub), QNN_GRAPH_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api.contextFinalize(nullptr, nullptr), QNN_CONTEXT_ERROR_INVALID_HANDLE);  // implemented: a null handle
  uint8_t junk[64] = {1, 2, 3};
  EXPECT_EQ(api.contextValidateBinary(nullptr, nullptr, nullptr, junk, sizeof junk), QNN_CONTEXT_ERROR_CREATE_FROM_BINARY);
}

TEST(Interface, SupportedOperationsCoverTheCoreOpSet) {
  LoadedBackend lib(cpuBackendPath());
  ASSERT_TRUE(lib.ok()) << lib.error();
  Qnn_BackendHandle_t b = nullptr;
  ASSERT_EQ(lib.api().backendCreate(nullptr, nullptr, &b), QNN_SUCCESS);
  uint32_t n = 0;
  const QnnBackend_OperationName_t* ops = nullptr;
  ASSERT_EQ(lib.api().backendGetSupportedOperations(b, &n, &ops), QNN_SUCCESS);
  std::set<std::string> names;
  for (uint32_t i = 0; i < n; ++i) names.insert(ops[i].name);
  for (const char* op : {"Conv2d", "DepthWiseConv2d", "TransposeConv2d", "FullyConnected", "MatMul", "Softmax",
                         "LayerNorm", "Resize", "Gather", "StridedSlice", "TopK", "Quantize", "Dequantize"})
    EXPECT_TRUE(names.count(op)) << op;
  EXPECT_EQ(lib.api().propertyHasCapability(QNN_PROPERTY_GRAPH_SUPPORT_EXECUTE), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(lib.api().propertyHasCapability(QNN_PROPERTY_BACKEND_SUPPORT_OP_PACKAGE), QNN_PROPERTY_SUPPORTED);
  EXPECT_EQ(lib.api().backendFree(b), QNN_SUCCESS);
}

}  // namespace
}  // namespace qnn::test
