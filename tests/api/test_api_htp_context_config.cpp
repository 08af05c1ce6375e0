// QnnHtpContext_CustomConfig_t on QnnContext_create: every option of the 2.32
// headers is accepted with valid values (clients such as ONNX Runtime's QNN EP
// send weight sharing and multi-context group registration), and malformed ones
// are refused with QNN_CONTEXT_ERROR_INVALID_CONFIG. The options API 2.39 added
// are checked as the header describes them, and log one line when they change
// nothing off a device.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include "HTP/QnnHtpContext.h"
#include "tests/api/backend_loader.h"

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

// What the backend logged, for the 2.39 options' lines.
std::mutex logMutex;
std::string logText;
void logCallback(const char* fmt, QnnLog_Level_t, uint64_t, va_list args) {
  char buf[2048];
  vsnprintf(buf, sizeof buf, fmt, args);
  std::lock_guard<std::mutex> lock(logMutex);
  logText += buf;
  logText += "\n";
}
std::string takeLog() {
  std::lock_guard<std::mutex> lock(logMutex);
  std::string t;
  t.swap(logText);
  return t;
}

class HtpContextConfig239 : public HtpContextConfig {
 protected:
  void SetUp() override {
    ASSERT_TRUE(lib.ok()) << lib.error();
    ASSERT_EQ(api().logCreate(logCallback, QNN_LOG_LEVEL_WARN, &log), QNN_SUCCESS);
    ASSERT_EQ(api().backendCreate(log, nullptr, &backend), QNN_SUCCESS);
    takeLog();
  }
  void TearDown() override {
    HtpContextConfig::TearDown();
    api().logFree(log);
  }
  Qnn_LogHandle_t log = nullptr;
};

TEST_F(HtpContextConfig239, LoaderOnlyOptionsAreAcceptedAndLogged) {
  struct Flag {
    QnnHtpContext_ConfigOption_t option;
    const char* line;
  };
  for (const Flag& f : {Flag{QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_WEIGHT_SHARING_RAM_PRELOAD_ENABLED,
                             "LORA_WEIGHT_SHARING_RAM_PRELOAD_ENABLED accepted with no effect"},
                        Flag{QNN_HTP_CONTEXT_CONFIG_OPTION_REFERENCE_WEIGHT_SHARING_ENABLED,
                             "REFERENCE_WEIGHT_SHARING_ENABLED accepted with no effect"},
                        Flag{QNN_HTP_CONTEXT_CONFIG_OPTION_GRAPH_SPLITTING_ENABLED,
                             "GRAPH_SPLITTING_ENABLED (deprecated) accepted with no effect"}}) {
    QnnHtpContext_CustomConfig_t c = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
    c.option = f.option;
    c.weightSharingEnabled = true;  // the union's bool members share storage
    EXPECT_EQ(create(c), QNN_SUCCESS) << "option " << f.option;
    EXPECT_NE(takeLog().find(f.line), std::string::npos) << f.line;
    c.weightSharingEnabled = false;  // disabled: nothing to say
    EXPECT_EQ(create(c), QNN_SUCCESS) << "option " << f.option;
    EXPECT_EQ(takeLog().find("HTP context config"), std::string::npos);
  }
  QnnHtpContext_CustomConfig_t split = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  split.option = QNN_HTP_CONTEXT_CONFIG_OPTION_GRAPH_SPLITTING_CONFIGS;
  split.graphSplittingConfigs.graphSplittingEnabled = true;
  EXPECT_EQ(create(split), QNN_SUCCESS);
  EXPECT_NE(takeLog().find("GRAPH_SPLITTING_CONFIGS accepted with no effect"), std::string::npos);
  QnnHtpContext_CustomConfig_t io = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  io.option = QNN_HTP_CONTEXT_CONFIG_OPTION_REUSED_IO_LIMIT;
  io.reusedIoLimitMb = 8;
  EXPECT_EQ(create(io), QNN_SUCCESS);
  EXPECT_NE(takeLog().find("REUSED_IO_LIMIT of 8 MB recorded"), std::string::npos);
}

TEST_F(HtpContextConfig239, ConcurrentDeserializationExtraSizeIsClampedTo100MB) {
  QnnHtpContext_CustomConfig_t c = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  c.option = QNN_HTP_CONTEXT_CONFIG_OPTION_CONCURRENT_DESERIALIZATION_EXTRA_SIZE;
  c.concurrentDeserializationExtraSizeKB = 102400;  // the maximum: taken as is
  EXPECT_EQ(create(c), QNN_SUCCESS);
  EXPECT_EQ(takeLog().find("clamped"), std::string::npos);
  c.concurrentDeserializationExtraSizeKB = 200000;
  EXPECT_EQ(create(c), QNN_SUCCESS);
  EXPECT_NE(takeLog().find("CONCURRENT_DESERIALIZATION_EXTRA_SIZE 200000 KB clamped to 102400 KB"), std::string::npos);
}

TEST_F(HtpContextConfig239, PatchFileDescriptorMustBeOpen) {
  int fds[2];
  ASSERT_EQ(pipe(fds), 0);
  QnnHtpContext_CustomConfig_t c = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  c.option = QNN_HTP_CONTEXT_CONFIG_OPTION_CONCURRENT_DESERIALIZATION_PATCH;
  c.concurrentDeserializationPatchFd = fds[0];
  EXPECT_EQ(create(c), QNN_SUCCESS);
  EXPECT_NE(takeLog().find("CONCURRENT_DESERIALIZATION_PATCH accepted with no effect"), std::string::npos);
  close(fds[0]);
  close(fds[1]);
  EXPECT_EQ(create(c), QNN_CONTEXT_ERROR_INVALID_CONFIG);  // closed now
  c.concurrentDeserializationPatchFd = -1;
  EXPECT_EQ(create(c), QNN_CONTEXT_ERROR_INVALID_CONFIG);
}

TEST_F(HtpContextConfig239, LoraPreloadGroupsAreChecked) {
  const char* names[] = {"g1", "g4"};
  QnnHtpContext_LoraPreloadGroup_t group{names, 2};
  QnnHtpContext_LoraPreloadBufferGroups_t groups{&group, 1};
  QnnHtpContext_CustomConfig_t c = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  c.option = QNN_HTP_CONTEXT_CONFIG_OPTION_LORA_PRELOAD_BUFFER_GROUPS;
  c.loraPreloadBufferGroups = &groups;
  EXPECT_EQ(create(c), QNN_SUCCESS);
  EXPECT_NE(takeLog().find("LORA_PRELOAD_BUFFER_GROUPS (1 groups) accepted"), std::string::npos);
  names[1] = nullptr;
  EXPECT_EQ(create(c), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  EXPECT_NE(takeLog().find("group 0: graph name 1 is NULL"), std::string::npos);
  c.loraPreloadBufferGroups = nullptr;
  EXPECT_EQ(create(c), QNN_CONTEXT_ERROR_INVALID_CONFIG);
}

TEST_F(HtpContextConfig239, ParallelWeightLoadingModes) {
  QnnHtpContext_CustomConfig_t c = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  c.option = QNN_HTP_CONTEXT_CONFIG_OPTION_PARALLEL_WEIGHT_LOADING;
  c.parallelWeightLoading = {QNN_HTP_PARALLEL_WEIGHT_LOADING_MODE_ADAPTIVE, 0};  // the default: silent
  EXPECT_EQ(create(c), QNN_SUCCESS);
  EXPECT_EQ(takeLog().find("PARALLEL_WEIGHT_LOADING"), std::string::npos);
  for (QnnHtpContext_ParallelWeightLoadingMode_t m : {QNN_HTP_PARALLEL_WEIGHT_LOADING_MODE_ON,
                                                      QNN_HTP_PARALLEL_WEIGHT_LOADING_MODE_OFF}) {
    c.parallelWeightLoading = {m, 0};
    EXPECT_EQ(create(c), QNN_SUCCESS) << m;
    EXPECT_NE(takeLog().find("PARALLEL_WEIGHT_LOADING accepted with no effect"), std::string::npos);
  }
  c.parallelWeightLoading = {static_cast<QnnHtpContext_ParallelWeightLoadingMode_t>(3), 0};
  EXPECT_EQ(create(c), QNN_CONTEXT_ERROR_INVALID_CONFIG);
  EXPECT_NE(takeLog().find("unknown parallel weight loading mode 3"), std::string::npos);
  QnnHtpContext_CustomConfig_t reserved = QNN_HTP_CONTEXT_CUSTOM_CONFIG_INIT;
  reserved.option = QNN_HTP_CONTEXT_CONFIG_OPTION_RESERVED_24;
  EXPECT_EQ(create(reserved), QNN_CONTEXT_ERROR_INVALID_CONFIG);
}

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
