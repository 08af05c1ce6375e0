// Shared helpers of the HTP backend tests: the loaded library, a log capture
// and a backend fixture.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "HTP/QnnHtpCommon.h"
#include "HTP/QnnHtpDevice.h"
#include "HTP/QnnHtpGraph.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {

inline LoadedBackend& htpLib() {
  static LoadedBackend lib(QNN_TEST_HTP_BACKEND_PATH);
  return lib;
}

// Everything the backend logs, for asserting on refusal messages.
struct LogCapture {
  static std::mutex mutex;
  static std::string text;
  static void callback(const char* fmt, QnnLog_Level_t, uint64_t, va_list args) {
    char buf[4096];
    vsnprintf(buf, sizeof buf, fmt, args);
    std::lock_guard<std::mutex> lock(mutex);
    text += buf;
    text += "\n";
  }
  static std::string take() {
    std::lock_guard<std::mutex> lock(mutex);
    std::string t;
    t.swap(text);
    return t;
  }
};

class HtpTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(htpLib().ok()) << htpLib().error();
    ASSERT_EQ(api().logCreate(LogCapture::callback, QNN_LOG_LEVEL_ERROR, &log), QNN_SUCCESS);
    ASSERT_EQ(api().backendCreate(log, nullptr, &backend), QNN_SUCCESS);
    LogCapture::take();
  }
  void TearDown() override {
    if (backend) {
      EXPECT_EQ(api().backendFree(backend), QNN_SUCCESS);
    }
    if (log) {
      EXPECT_EQ(api().logFree(log), QNN_SUCCESS);
    }
  }
  static const QNN_INTERFACE_VER_TYPE& api() { return htpLib().api(); }

  // A device with the given HTP custom configs (nullptr-terminated list built here).
  Qnn_ErrorHandle_t makeDevice(std::vector<QnnHtpDevice_CustomConfig_t> customs, Qnn_DeviceHandle_t* device) {
    std::vector<QnnDevice_Config_t> configs(customs.size());
    std::vector<const QnnDevice_Config_t*> list;
    for (size_t i = 0; i < customs.size(); ++i) {
      configs[i].option = QNN_DEVICE_CONFIG_OPTION_CUSTOM;
      configs[i].customConfig = &customs[i];
      list.push_back(&configs[i]);
    }
    list.push_back(nullptr);
    return api().deviceCreate(log, list.data(), device);
  }
  // Graph configs from HTP custom configs.
  Qnn_ErrorHandle_t makeGraph(Qnn_ContextHandle_t ctx, const char* name, std::vector<QnnHtpGraph_CustomConfig_t> customs,
                              Qnn_GraphHandle_t* graph) {
    std::vector<QnnGraph_Config_t> configs(customs.size());
    std::vector<const QnnGraph_Config_t*> list;
    for (size_t i = 0; i < customs.size(); ++i) {
      configs[i].option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
      configs[i].customConfig = &customs[i];
      list.push_back(&configs[i]);
    }
    list.push_back(nullptr);
    return api().graphCreate(ctx, name, list.data(), graph);
  }

  Qnn_LogHandle_t log = nullptr;
  Qnn_BackendHandle_t backend = nullptr;
};

// A tensor with a per-tensor scale/offset encoding (perChannel() switches it to a
// per-axis one whose array the object owns, so keep it alive while the tensor is used).
struct QuantSpec : TensorSpec {
  std::vector<Qnn_ScaleOffset_t> channels;
  QuantSpec(std::string n, Qnn_TensorType_t type, Qnn_DataType_t dtype, std::vector<uint32_t> d, float scale,
            int32_t offset, void* data = nullptr, uint32_t size = 0)
      : TensorSpec(std::move(n), type, dtype, std::move(d), data, size) {
    tensor.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
    tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
    tensor.v1.quantizeParams.scaleOffsetEncoding = {scale, offset};
  }
  void perChannel(int32_t axis, const float* scales, uint32_t n) {
    for (uint32_t i = 0; i < n; ++i) channels.push_back({scales[i], 0});
    tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET;
    tensor.v1.quantizeParams.axisScaleOffsetEncoding = {axis, n, channels.data()};
  }
};

// Every event (and sub-event) of a profile: type, unit, value, identifier.
inline std::vector<QnnProfile_EventData_t> profileEvents(const QNN_INTERFACE_VER_TYPE& api, Qnn_ProfileHandle_t p) {
  std::vector<QnnProfile_EventData_t> all;
  const QnnProfile_EventId_t* ids = nullptr;
  uint32_t n = 0;
  EXPECT_EQ(api.profileGetEvents(p, &ids, &n), QNN_SUCCESS);
  std::vector<QnnProfile_EventId_t> todo(ids, ids + n);
  while (!todo.empty()) {
    QnnProfile_EventId_t id = todo.back();
    todo.pop_back();
    QnnProfile_EventData_t d;
    EXPECT_EQ(api.profileGetEventData(id, &d), QNN_SUCCESS);
    all.push_back(d);
    const QnnProfile_EventId_t* subs = nullptr;
    uint32_t ns = 0;
    EXPECT_EQ(api.profileGetSubEvents(id, &subs, &ns), QNN_SUCCESS);
    todo.insert(todo.end(), subs, subs + ns);
  }
  return all;
}
inline bool hasEvent(const std::vector<QnnProfile_EventData_t>& ev, uint32_t type, const std::string& text = "") {
  for (auto& e : ev)
    if (e.type == type && std::string(e.identifier ? e.identifier : "").find(text) != std::string::npos) return true;
  return false;
}

// Independent reference of the fixed-point rule (docs/htp-fixed-point.md): the
// multiplier as a Q31 mantissa, one round-half-away-from-zero of the exact product.
inline int64_t requantizeRef(int64_t acc, double multiplier) {
  int e = 0;
  double frac = std::frexp(multiplier, &e);
  int64_t m = std::llround(std::ldexp(frac, 31));
  if (m == (int64_t(1) << 31)) m >>= 1, ++e;
  const int shift = 31 - e;
  __extension__ typedef __int128 Wide;
  Wide p = Wide(acc) * m, half = Wide(1) << (shift - 1);
  return int64_t(p >= 0 ? (p + half) >> shift : -((-p + half) >> shift));
}

inline QnnHtpDevice_CustomConfig_t socConfig(uint32_t soc) {
  QnnHtpDevice_CustomConfig_t c{};
  c.option = QNN_HTP_DEVICE_CONFIG_OPTION_SOC;
  c.socModel = soc;
  return c;
}
inline QnnHtpDevice_CustomConfig_t archConfig(QnnHtpDevice_Arch_t arch) {
  QnnHtpDevice_CustomConfig_t c{};
  c.option = QNN_HTP_DEVICE_CONFIG_OPTION_ARCH;
  c.arch.deviceId = 0;
  c.arch.arch = arch;
  return c;
}
inline QnnHtpGraph_CustomConfig_t precisionConfig(Qnn_Precision_t p) {
  QnnHtpGraph_CustomConfig_t c{};
  c.option = QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION;
  c.precision = p;
  return c;
}
inline QnnHtpGraph_CustomConfig_t optimizationConfig(QnnHtpGraph_OptimizationType_t type, float value) {
  QnnHtpGraph_CustomConfig_t c{};
  c.option = QNN_HTP_GRAPH_CONFIG_OPTION_OPTIMIZATION;
  c.optimizationOption.type = type;
  c.optimizationOption.floatValue = value;
  return c;
}
inline QnnHtpGraph_CustomConfig_t vtcmConfig(uint32_t mb) {
  QnnHtpGraph_CustomConfig_t c{};
  c.option = QNN_HTP_GRAPH_CONFIG_OPTION_VTCM_SIZE;
  c.vtcmSizeInMB = mb;
  return c;
}
inline QnnHtpGraph_CustomConfig_t hvxThreadsConfig(uint64_t n) {
  QnnHtpGraph_CustomConfig_t c{};
  c.option = QNN_HTP_GRAPH_CONFIG_OPTION_NUM_HVX_THREADS;
  c.numHvxThreads = n;
  return c;
}

}  // namespace qnn::test
