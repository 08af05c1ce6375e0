// What the CPU backend's fusion tests look at from the API: the node names a
// detailed profile lists, and every node output an op debug callback sees;
// and their random inputs.
#pragma once

#include <gtest/gtest.h>

#include <random>
#include <string>
#include <vector>

#include "CPU/QnnCpuGraph.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {

// n values uniform in [-1, 1), the same for the same seed.
inline std::vector<float> randomValues(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  for (auto& e : v) e = u(rng);
  return v;
}

// The "name (Type)" identifiers of the per-node sub-events of `profile`.
inline std::vector<std::string> profiledNodes(const QNN_INTERFACE_VER_TYPE& api, Qnn_ProfileHandle_t profile) {
  std::vector<std::string> names;
  const QnnProfile_EventId_t* events = nullptr;
  uint32_t numEvents = 0;
  EXPECT_EQ(api.profileGetEvents(profile, &events, &numEvents), QNN_SUCCESS);
  for (uint32_t e = 0; e < numEvents; ++e) {
    const QnnProfile_EventId_t* subs = nullptr;
    uint32_t numSubs = 0;
    EXPECT_EQ(api.profileGetSubEvents(events[e], &subs, &numSubs), QNN_SUCCESS);
    for (uint32_t s = 0; s < numSubs; ++s) {
      QnnProfile_EventData_t data;
      EXPECT_EQ(api.profileGetEventData(subs[s], &data), QNN_SUCCESS);
      if (data.type == QNN_PROFILE_EVENTTYPE_NODE && data.identifier) names.push_back(data.identifier);
    }
  }
  return names;
}

// One node's first output as the op debug callback saw it.
struct SeenOp {
  std::string name;
  std::vector<float> values;
};

// Sets an op debug callback on `graph` that appends to `seen` (which must
// outlive the graph's executes).
inline void recordEveryOp(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t graph, std::vector<SeenOp>* seen) {
  QnnCpuGraph_CustomConfig_t debug{};
  debug.option = QNN_CPU_GRAPH_CONFIG_OPTION_OP_DEBUG_CALLBACK;
  debug.cpuGraphOpDebug.cpuGraphOpDebugCallback = [](Qnn_OpConfig_t* op, void* param) -> Qnn_ErrorHandle_t {
    const Qnn_TensorV1_t& out = op->v1.outputTensors[0].v1;
    const auto* data = static_cast<const float*>(out.clientBuf.data);
    static_cast<std::vector<SeenOp>*>(param)->push_back(
        {op->v1.name, std::vector<float>(data, data + out.clientBuf.dataSize / sizeof(float))});
    return QNN_SUCCESS;
  };
  debug.cpuGraphOpDebug.callBackParam = seen;
  QnnGraph_Config_t config = QNN_GRAPH_CONFIG_INIT;
  config.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
  config.customConfig = &debug;
  const QnnGraph_Config_t* list[] = {&config, nullptr};
  ASSERT_EQ(api.graphSetConfig(graph, list), QNN_SUCCESS);
}

}  // namespace qnn::test
