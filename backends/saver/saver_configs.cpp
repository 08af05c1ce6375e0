#include "saver/saver_configs.h"

#include <cstring>

#include "CPU/QnnCpuCommon.h"
#include "CPU/QnnCpuGraph.h"
#include "HTP/QnnHtpCommon.h"
#include "HTP/QnnHtpDevice.h"
#include "HTP/QnnHtpGraph.h"
#include "saver/saver_encode.h"
#include "saver/saver_state.h"

namespace qnn::saver {

using trace::Value;

namespace {

enum class Group { Backend, Context, Graph, Device, Signal };

// The custom config struct a backend defines for an API group, if the public
// headers name one. Structs holding pointers are recorded but not replayable.
struct CustomLayout {
  size_t size;
  bool hasPointers;
  const char* type;
};

const CustomLayout* customLayout(uint32_t backendId, Group group) {
  static const CustomLayout cpuGraph{sizeof(QnnCpuGraph_CustomConfig_t), true, "QnnCpuGraph_CustomConfig_t"};
  static const CustomLayout htpGraph{sizeof(QnnHtpGraph_CustomConfig_t), false, "QnnHtpGraph_CustomConfig_t"};
  static const CustomLayout htpDevice{sizeof(QnnHtpDevice_CustomConfig_t), false, "QnnHtpDevice_CustomConfig_t"};
  if (backendId == QNN_BACKEND_ID_CPU && group == Group::Graph) return &cpuGraph;
  if (backendId == QNN_BACKEND_ID_HTP && group == Group::Graph) return &htpGraph;
  if (backendId == QNN_BACKEND_ID_HTP && group == Group::Device) return &htpDevice;
  return nullptr;
}

void addCustom(Value& v, const void* payload, Group group) {
  uint32_t backendId = SaverState::get().customConfigBackendId();
  const CustomLayout* layout = customLayout(backendId, group);
  if (!payload || !layout) {
    v.add("customNote", Value::str(payload ? "payload layout unknown for backend id " + std::to_string(backendId)
                                           : std::string("null payload")));
    return;
  }
  size_t size = layout->size;
  bool hasPointers = layout->hasPointers;
  // HTP device options 4-6 exist only in API 2.39's headers, whose QnnHtpDevice_CustomConfig_t is
  // 24 bytes with the payload at offset 8 (docs/abi-deviations-2.39-part.txt); option 5 holds a pointer.
  if (layout == customLayout(QNN_BACKEND_ID_HTP, Group::Device)) {
    QnnHtpDevice_ConfigOption_t option;
    std::memcpy(&option, payload, sizeof(option));
    if (option == QNN_HTP_DEVICE_CONFIG_OPTION_ASYNC_EXECUTE || option == QNN_HTP_DEVICE_CONFIG_OPTION_APP_UID ||
        option == QNN_HTP_DEVICE_CONFIG_OPTION_DYNAMIC_PARTITIONING) {
      size = 8 + sizeof(QnnHtpDevice_UseDynamicPartitioning_t);
      hasPointers = option == QNN_HTP_DEVICE_CONFIG_OPTION_DYNAMIC_PARTITIONING;
    }
  }
  v.add("customType", Value::str(layout->type));
  // Pointers inside mean nothing in another process: kept for inspection only.
  v.add(hasPointers ? "customWithPointers" : "custom", SaverState::get().blob(payload, size));
}

// A null-terminated list of names (graph names of context configs); null stays null.
Value names(const char* const* list) {
  if (!list) return Value::null();
  Value out = Value::list();
  for (size_t i = 0; list[i]; ++i) out.push(Value::str(list[i]));
  return out;
}

Value errorReporting(const Qnn_ErrorReportingConfig_t& e) {
  Value r = Value::record();
  r.add("reportingLevel", Value::uint(uint32_t(e.reportingLevel)));
  r.add("storageLimit", Value::uint(e.storageLimit));
  return r;
}

Value entry(const QnnBackend_Config_t& c) {
  Value v = Value::record();
  v.add("option", Value::uint(uint32_t(c.option)));
  if (c.option == QNN_BACKEND_CONFIG_OPTION_CUSTOM) addCustom(v, c.customConfig, Group::Backend);
  if (c.option == QNN_BACKEND_CONFIG_OPTION_ERROR_REPORTING) v.add("errorReporting", errorReporting(c.errorConfig));
  if (c.option == QNN_BACKEND_CONFIG_OPTION_PLATFORM) v.add("platformOption", Value::str(c.platformOption));
  return v;
}

Value entry(const QnnContext_Config_t& c) {
  Value v = Value::record();
  v.add("option", Value::uint(uint32_t(c.option)));
  switch (c.option) {
    case QNN_CONTEXT_CONFIG_OPTION_CUSTOM: addCustom(v, c.customConfig, Group::Context); break;
    case QNN_CONTEXT_CONFIG_OPTION_PRIORITY: v.add("priority", Value::uint(uint32_t(c.priority))); break;
    case QNN_CONTEXT_CONFIG_OPTION_ERROR_REPORTING: v.add("errorReporting", errorReporting(c.errorConfig)); break;
    case QNN_CONTEXT_CONFIG_OPTION_OEM_STRING: v.add("oemString", Value::str(c.oemString)); break;
    case QNN_CONTEXT_CONFIG_ASYNC_EXECUTION_QUEUE_DEPTH: {
      Value d = Value::record();
      d.add("type", Value::uint(uint32_t(c.asyncExeQueueDepth.type)));
      d.add("depth", Value::uint(c.asyncExeQueueDepth.depth));
      v.add("asyncQueueDepth", std::move(d));
      break;
    }
    case QNN_CONTEXT_CONFIG_ENABLE_GRAPHS: v.add("enableGraphs", names(c.enableGraphs)); break;
    case QNN_CONTEXT_CONFIG_MEMORY_LIMIT_HINT: v.add("memoryLimitHint", Value::uint(c.memoryLimitHint)); break;
    case QNN_CONTEXT_CONFIG_PERSISTENT_BINARY: v.add("isPersistentBinary", Value::uint(c.isPersistentBinary)); break;
    case QNN_CONTEXT_CONFIG_BINARY_COMPATIBILITY:
      v.add("binaryCompatibilityType", Value::uint(uint32_t(c.binaryCompatibilityType)));
      break;
    case QNN_CONTEXT_CONFIG_OPTION_DEFER_GRAPH_INIT:
      v.add("isGraphInitDeferred", Value::uint(c.isGraphInitDeferred));
      break;
    case QNN_CONTEXT_CONFIG_GRAPH_RETENTION_ORDER: v.add("graphRetentionOrder", names(c.graphRetentionOrder)); break;
    default: break;
  }
  return v;
}

Value entry(const QnnGraph_Config_t& c) {
  Value v = Value::record();
  v.add("option", Value::uint(uint32_t(c.option)));
  if (c.option == QNN_GRAPH_CONFIG_OPTION_CUSTOM) addCustom(v, c.customConfig, Group::Graph);
  if (c.option == QNN_GRAPH_CONFIG_OPTION_PRIORITY) v.add("priority", Value::uint(uint32_t(c.priority)));
  if (c.option == QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE) v.add("profile", handleValue(c.profileHandle));
  if (c.option == QNN_GRAPH_CONFIG_OPTION_SET_PROFILING_STATE)
    v.add("profilingState", Value::uint(uint32_t(c.profilingState)));
  if (c.option == QNN_GRAPH_CONFIG_OPTION_SET_PROFILING_NUM_EXECUTIONS)
    v.add("numProfilingExecutions", Value::uint(c.numProfilingExecutions));
  if (c.option == QNN_GRAPH_CONFIG_OPTION_ENABLE_BINARY_SECTION_WEIGHTS_UPDATES)
    v.add("enableBinarySectionWeightsUpdates", Value::uint(c.enableBinarySectionWeightsUpdates));
  return v;
}

Value entry(const QnnDevice_Config_t& c) {
  Value v = Value::record();
  v.add("option", Value::uint(uint32_t(c.option)));
  if (c.option == QNN_DEVICE_CONFIG_OPTION_CUSTOM) addCustom(v, c.customConfig, Group::Device);
  if (c.option == QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO)
    v.add("customNote", Value::str("platform info contents not recorded"));
  return v;
}

Value entry(const QnnSignal_Config_t& c) {
  Value v = Value::record();
  v.add("option", Value::uint(uint32_t(c.option)));
  if (c.option == QNN_SIGNAL_CONFIG_OPTION_CUSTOM) addCustom(v, c.customConfig, Group::Signal);
  if (c.option == QNN_SIGNAL_CONFIG_OPTION_TIMEOUT) v.add("timeoutUs", Value::uint(c.timeoutDurationUs));
  if (c.option == QNN_SIGNAL_CONFIG_OPTION_ABORT) v.add("flag", Value::uint(1));  // the option alone says it
  return v;
}

template <typename Config>
Value listOf(const Config* const* config) {
  if (!config) return Value::null();
  Value list = Value::list();
  for (size_t k = 0; config[k]; ++k) list.push(entry(*config[k]));
  return list;
}

}  // namespace

Value configListValue(const QnnBackend_Config_t* const* config) { return listOf(config); }
Value configListValue(const QnnContext_Config_t* const* config) { return listOf(config); }
Value configListValue(const QnnGraph_Config_t* const* config) { return listOf(config); }
Value configListValue(const QnnDevice_Config_t* const* config) { return listOf(config); }
Value configListValue(const QnnSignal_Config_t* const* config) { return listOf(config); }

bool mapGraphConfig(const QnnGraph_Config_t* const* config, GraphConfigCopy& storage,
                    const QnnGraph_Config_t*** mapped) {
  *mapped = const_cast<const QnnGraph_Config_t**>(config);
  if (!config) return true;
  size_t n = 0;
  while (config[n]) ++n;
  storage.entries.assign(n, QnnGraph_Config_t{});
  storage.list.assign(n + 1, nullptr);
  for (size_t k = 0; k < n; ++k) {
    storage.entries[k] = *config[k];
    if (config[k]->option == QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE && config[k]->profileHandle) {
      void* real = nullptr;
      if (!SaverState::get().handles().find(config[k]->profileHandle, Kind::Profile, &real)) return false;
      storage.entries[k].profileHandle = real;
    }
    storage.list[k] = &storage.entries[k];
  }
  *mapped = storage.list.data();
  return true;
}

}  // namespace qnn::saver
