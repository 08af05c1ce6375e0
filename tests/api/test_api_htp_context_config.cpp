// QnnHtpContext_CustomConfig_t on QnnContext_create: every option of the 2.32
// headers is accepted with valid values (clients such as ONNX Runtime's QNN EP
// send weight sharing and multi-context group registration), and malformed ones
// are refused with QNN_CONTEXT_ERROR_INVALID_CONFIG.
#include <gtest/gtest.h>

#include "HTP/QnnHtpContext.h"
#include "backend_loader.h"

namespace qnn::test {
namespace {

class HtpContextConfig : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  }
  void TearDown() override { api().backendFree(backend); }
  const QNN_INTERFACE_VER_TYPE& api() { return lib.api(); }

  // Creates a context with one custom config; frees it on success.
  Qnn_ErrorHandle_t create(const QnnHtpContext_CustomConfig_t& custom) {
    QnnContext_Config_t config = QNN_CONTEXT_CONFIG_INIT;
    config.option = QNN_CONTEXT_CONFIG_OPTION_CUSTOM;
    config.customConfig = const_cast<QnnHtpContext_CustomConfig_t*>(&custom);
    const QnnContext_Config_t* configs[] = {&config, nullptr};
    Qnn_ContextHandle_t ctx = nullptr;
    Qnn_ErrorHandle_t rc = api().contextCreate(backend, nullptr, configs, &ctx);
    if (rc == QNN_SUCCESS) {
      EXPECT_EQ(api().contextFree(ctx, nullptr), QNN_SUCCESS);
    }
    return rc;
  }

  LoadedBackend lib{htpBackendPath()};
  Qnn_BackendHandle_t backend = nullptr;
};

TEST_F(HtpContextConfig, EveryOptionWithAValidValueIsAccepted) {
  Qnn_ContextHandle_t first = nullptr;
  ASSERT_EQ(api().contextCreate(backend, nullptr, nullptr, &first), QNN_SUCCESS);
  const QnnHtpContext_ConfigOption_t flags[] = {
      QNN_HTP_CONTEXT_CONFIG_OPTION_WEIGHT_SHARING_ENABLED,   QNN_HTP_CONTEXT_CONFIG_OPTION_DSP_MEMORY_PROFILING_ENABLED,
      QNN_HTP_CONTEXT_CONFIG_OPTION_SHARE_RESOURCES,          QNN_HTP_CONTEXT_CONFIG_OPTION_IO_MEM_ESTIMATION,
      QNN_HTP_CONTEXT_CONFIG_OPTION_PREPARE_ONLY,             QNN_HTP_CONTEXT_CONFIG_OPTION_INIT_ACCELERATION,
      QNN_HTP_CONTEXT_CONFIG_OPTION_SKIP_VALIDATION_ON_BINARY_SECTION, QNN_HTP_CONTEXT_CONFIG_OPTION_USE_EXTENDED_UDMA,
      QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_WEIGHT_SHARING_ENABLED};
  for (QnnHtpContext_ConfigOption_t option : flags) {
    QnnHtpContext_CustomConfig_t c = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
    c.option = option;
    c.weightSharingEnabled = true;  // the union's bool members share storage
    EXPECT_EQ(create(c), QNN_SUCCESS) << "option " << option;
  }
  QnnHtpContext_CustomConfig_t budget = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  budget.option = QNN_HTP_CONTEXT_CONFIG_OPTION_FILE_READ_MEMORY_BUDGET;
  budget.fileReadMemoryBudgetInMb = 64;
  EXPECT_EQ(create(budget), QNN_SUCCESS);
  QnnHtpContext_CustomConfig_t shareType = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  shareType.option = QNN_HTP_CONTEXT_CONFIG_OPTION_SHARE_RESOURCES_OPTIMIZATION_TYPE;
  shareType.shareResOptType = CONCURRENT_OPTIMIZATION;
  EXPECT_EQ(create(shareType), QNN_SUCCESS);
  for (QnnHtpContext_ConfigOption_t option : {QNN_HTP_CONTEXT_CONFIG_OPTION_REGISTER_MULTI_CONTEXTS,
                                              QNN_HTP_CONTEXT_CONFIG_OPTION_REGISTER_CONCURRENT_RESOURCE_SHARING}) {
    QnnHtpContext_CustomConfig_t g = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
    g.option = option;
    g.groupRegistration.firstGroupHandle = first;
    g.groupRegistration.maxSpillFillBuffer = 1 << 20;
    EXPECT_EQ(create(g), QNN_SUCCESS) << "option " << option;
  }
  EXPECT_EQ(api().contextFree(first, nullptr), QNN_SUCCESS);
}

TEST_F(HtpContextConfig, MalformedOptionsAreRefused) {
  QnnHtpContext_CustomConfig_t reserved = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  reserved.option = QNN_HTP_CONTEXT_CONFIG_OPTION_RESERVED_14;
  EXPECT_EQ(create(reserved), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  QnnHtpContext_CustomConfig_t unknown = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;  // option UNKNOWN
  EXPECT_EQ(create(unknown), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  QnnHtpContext_CustomConfig_t noFirst = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  noFirst.option = QNN_HTP_CONTEXT_CONFIG_OPTION_REGISTER_MULTI_CONTEXTS;
  EXPECT_EQ(create(noFirst), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  QnnHtpContext_CustomConfig_t badType = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  badType.option = QNN_HTP_CONTEXT_CONFIG_OPTION_SHARE_RESOURCES_OPTIMIZATION_TYPE;
  badType.shareResOptType = static_cast<QnnHtpContext_ShareResourcesOptimizationType_t>(3);
  EXPECT_EQ(create(badType), QNN_CONTEXT_ERROR_INVALID_CONFIG);
}

}  // namespace
}  // namespace qnn::test
