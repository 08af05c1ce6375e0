// The provider and its function table: version, every entry present, the
// post-2.7 entries either working or answering NOT_SUPPORTED.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "backend_loader.h"

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
