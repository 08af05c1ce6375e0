// QnnSystemLog_* and QnnSystemTensor_getMemoryFootprint of libQnnSystem.so through dlopen and
// the public headers: a system log handle receives the errors of the DLC calls given it; log
// misuse; footprints worked out by hand (dims x element size, 4-bit packed two per byte).
#include <gtest/gtest.h>

#include <cstdarg>
#include <cstdio>
#include <mutex>
#include <string>

#include "tests/tools/system/system_loader.h"

namespace qnn::test {
namespace {

std::mutex gMutex;
std::string gLog;
void capture(const char* fmt, QnnLog_Level_t, uint64_t, va_list args) {
  char buf[1024];
  std::vsnprintf(buf, sizeof buf, fmt, args);
  std::lock_guard<std::mutex> lock(gMutex);
  gLog += buf;
  gLog += "\n";
}

class SystemLogTensor : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(sys.ok()) << sys.error(); }
  const QNN_SYSTEM_INTERFACE_VER_TYPE& api() { return sys.api(); }
  LoadedSystemLibrary sys{systemLibraryPath()};
};

TEST_F(SystemLogTensor, SystemLogReceivesTheDlcErrors) {
  Qnn_LogHandle_t log = nullptr;
  ASSERT_EQ(api().systemLogCreate(capture, QNN_LOG_LEVEL_ERROR, &log), QNN_SUCCESS);
  ASSERT_NE(log, nullptr);
  {
    std::lock_guard<std::mutex> lock(gMutex);
    gLog.clear();
  }
  QnnSystemDlc_Handle_t dlc = nullptr;
  EXPECT_EQ(api().systemDlcCreateFromFile(log, "/nonexistent/model.dlc", &dlc), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);
  {
    std::lock_guard<std::mutex> lock(gMutex);
    EXPECT_NE(gLog.find("/nonexistent/model.dlc"), std::string::npos) << gLog;
    gLog.clear();
  }
  // Below the level: nothing delivered after setLogLevel... ERROR is the lowest, so raise then check both.
  EXPECT_EQ(api().systemLogSetLogLevel(log, QNN_LOG_LEVEL_DEBUG), QNN_SUCCESS);
  EXPECT_EQ(api().systemLogSetLogLevel(log, QnnLog_Level_t(0)), QNN_LOG_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemLogSetLogLevel(log, QnnLog_Level_t(6)), QNN_LOG_ERROR_INVALID_ARGUMENT);
  // A handle that is not a log's.
  EXPECT_EQ(api().systemDlcCreateFromFile(reinterpret_cast<Qnn_LogHandle_t>(0x77), "/x.dlc", &dlc),
            QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE);
  EXPECT_EQ(dlc, nullptr);
  EXPECT_EQ(api().systemLogFree(log), QNN_SUCCESS);
  EXPECT_EQ(api().systemLogFree(log), QNN_LOG_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().systemLogSetLogLevel(log, QNN_LOG_LEVEL_ERROR), QNN_LOG_ERROR_INVALID_HANDLE);
  EXPECT_EQ(api().systemLogCreate(capture, QNN_LOG_LEVEL_ERROR, nullptr), QNN_LOG_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(api().systemLogCreate(capture, QnnLog_Level_t(9), &log), QNN_LOG_ERROR_INVALID_ARGUMENT);
  Qnn_LogHandle_t silent = nullptr;  // a null callback is a silent logger
  ASSERT_EQ(api().systemLogCreate(nullptr, QNN_LOG_LEVEL_WARN, &silent), QNN_SUCCESS);
  EXPECT_EQ(api().systemLogFree(silent), QNN_SUCCESS);
}

Qnn_Tensor_t tensorV1(Qnn_DataType_t dt, uint32_t rank, uint32_t* dims) {
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.version = QNN_TENSOR_VERSION_1;
  t.v1.dataType = dt;
  t.v1.dataFormat = QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER;
  t.v1.rank = rank;
  t.v1.dimensions = dims;
  return t;
}

TEST_F(SystemLogTensor, MemoryFootprintIsDimsTimesElementSize) {
  uint32_t dims[] = {2, 3, 4};
  uint64_t bytes = 0;
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_FLOAT_32, 3, dims), &bytes), QNN_SUCCESS);
  EXPECT_EQ(bytes, 96u);
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_UFIXED_POINT_16, 3, dims), &bytes), QNN_SUCCESS);
  EXPECT_EQ(bytes, 48u);
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_BOOL_8, 3, dims), &bytes), QNN_SUCCESS);
  EXPECT_EQ(bytes, 24u);
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_INT_64, 3, dims), &bytes), QNN_SUCCESS);
  EXPECT_EQ(bytes, 192u);
  uint32_t five[] = {5};
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_SFIXED_POINT_4, 1, five), &bytes), QNN_SUCCESS);
  EXPECT_EQ(bytes, 3u);  // five 4-bit values, two per byte
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_FLOAT_16, 0, nullptr), &bytes), QNN_SUCCESS);
  EXPECT_EQ(bytes, 2u);  // rank 0: one element
  uint32_t empty[] = {4, 0};
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_FLOAT_32, 2, empty), &bytes), QNN_SUCCESS);
  EXPECT_EQ(bytes, 0u);
  Qnn_Tensor_t v2 = QNN_TENSOR_INIT;
  v2.version = QNN_TENSOR_VERSION_2;
  v2.v2.dataType = QNN_DATATYPE_INT_32;
  v2.v2.rank = 3;
  v2.v2.dimensions = dims;
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(v2, &bytes), QNN_SUCCESS);
  EXPECT_EQ(bytes, 96u);

  bytes = 12345;
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_FLOAT_32, 3, nullptr), &bytes),
            QNN_SYSTEM_TENSOR_ERROR_INVALID_TENSOR);
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(Qnn_DataType_t(0x7777), 3, dims), &bytes),
            QNN_SYSTEM_TENSOR_ERROR_INVALID_TENSOR);
  Qnn_Tensor_t future = tensorV1(QNN_DATATYPE_FLOAT_32, 3, dims);
  future.version = Qnn_TensorVersion_t(9);
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(future, &bytes), QNN_SYSTEM_TENSOR_ERROR_INVALID_TENSOR);
  Qnn_Tensor_t sparse = tensorV1(QNN_DATATYPE_FLOAT_32, 3, dims);
  sparse.v1.dataFormat = QNN_TENSOR_DATA_FORMAT_SPARSE;
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(sparse, &bytes), QNN_SYSTEM_TENSOR_ERROR_UNSUPPORTED_FEATURE);
  EXPECT_EQ(bytes, 12345u);  // untouched on error
  EXPECT_EQ(api().systemTensorGetMemoryFootprint(tensorV1(QNN_DATATYPE_FLOAT_32, 3, dims), nullptr),
            QNN_SYSTEM_TENSOR_ERROR_INVALID_ARGUMENT);
}

}  // namespace
}  // namespace qnn::test
