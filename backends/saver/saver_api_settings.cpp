// Entries added after API 2.7 that configure or query: profile configs and
// extended event data, global configs, and the backend/context/graph property
// getters. They forward to the pass-through backend; without one the configs
// are accepted as recorded and the queries answer NOT_SUPPORTED (nothing to ask).
// A property's custom struct is backend-specific: the Saver forwards the
// client's pointer and records the options, not the struct's bytes.
#include "saver/saver_api.h"
#include "saver/saver_forward.h"

namespace qnn::saver {

using trace::Value;

namespace {

// The options of a get-property list; false if the list itself is malformed.
template <typename Property>
bool propertyOptions(Value& a, Property** properties) {
  if (!properties) return false;
  Value list = Value::list();
  for (size_t i = 0; properties[i]; ++i) list.push(Value::uint(uint32_t(properties[i]->option)));
  a.add("options", std::move(list));
  return true;
}

}  // namespace

Qnn_ErrorHandle_t profileSetConfig(Qnn_ProfileHandle_t profile, const QnnProfile_Config_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "profile", profile, Kind::Profile, false, &real)) return QNN_PROFILE_ERROR_INVALID_HANDLE;
    Value list = Value::list();
    for (size_t i = 0; config && config[i]; ++i) {
      Value c = Value::record();
      c.add("option", Value::uint(uint32_t(config[i]->option)));
      if (config[i]->option == QNN_PROFILE_CONFIG_OPTION_MAX_EVENTS)
        c.add("numMaxEvents", Value::uint(config[i]->numMaxEvents));
      else if (config[i]->option == QNN_PROFILE_CONFIG_OPTION_ENABLE_OPTRACE)
        c.add("enableOptrace", Value::uint(config[i]->enableOptrace));
      list.push(std::move(c));
    }
    a.add("config", std::move(list));
    return pass() ? forward(pass()->profileSetConfig, real, config) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t profileGetExtendedEventData(QnnProfile_EventId_t event, QnnProfile_ExtendedEventData_t* data) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    a.add("eventId", Value::uint(event));
    if (!data) return QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    if (!pass()) return QNN_PROFILE_ERROR_INVALID_HANDLE;  // no events exist when only recording
    Qnn_ErrorHandle_t rc = forward(pass()->profileGetExtendedEventData, event, data);
    if (rc == QNN_SUCCESS && data->version == QNN_PROFILE_DATA_VERSION_1) {
      a.add("type", Value::uint(data->v1.type));
      a.add("unit", Value::uint(uint32_t(data->v1.unit)));
      if (data->v1.unit != QNN_PROFILE_EVENTUNIT_OBJECT && data->v1.value.dataType == QNN_DATATYPE_UINT_64)
        a.add("value", Value::uint(data->v1.value.uint64Value));
      a.add("timestamp", Value::uint(data->v1.timestamp));
      a.add("identifier", Value::str(data->v1.identifier ? data->v1.identifier : ""));
    }
    return rc;
  });
}

Qnn_ErrorHandle_t globalConfigSet(const QnnGlobalConfig_t** config) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    Value list = Value::list();
    for (size_t i = 0; config && config[i]; ++i) {
      Value c = Value::record();
      c.add("option", Value::uint(uint32_t(config[i]->option)));
      if (config[i]->option == QNN_GLOBAL_CONFIG_OPTION_SOC_MODEL)
        c.add("socModel", Value::uint(uint32_t(config[i]->socModel)));
      list.push(std::move(c));
    }
    a.add("config", std::move(list));
    return pass() ? forward(pass()->globalConfigSet, config) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t backendGetProperty(Qnn_BackendHandle_t backend, QnnBackend_Property_t** properties) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "backend", backend, Kind::Backend, false, &real)) return QNN_BACKEND_ERROR_INVALID_HANDLE;
    if (!propertyOptions(a, properties)) return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
    return pass() ? forward(pass()->backendGetProperty, real, properties)
                  : Qnn_ErrorHandle_t(QNN_BACKEND_ERROR_NOT_SUPPORTED);
  });
}

Qnn_ErrorHandle_t contextGetProperty(Qnn_ContextHandle_t context, QnnContext_Property_t** properties) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!propertyOptions(a, properties)) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    return pass() ? forward(pass()->contextGetProperty, real, properties)
                  : Qnn_ErrorHandle_t(QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE);
  });
}

Qnn_ErrorHandle_t graphGetProperty(Qnn_GraphHandle_t graph, QnnGraph_Property_t** properties) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_GRAPH_ERROR_INVALID_HANDLE;
    if (!propertyOptions(a, properties)) return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
    return pass() ? forward(pass()->graphGetProperty, real, properties)
                  : Qnn_ErrorHandle_t(QNN_GRAPH_ERROR_UNSUPPORTED_FEATURE);
  });
}

}  // namespace qnn::saver
