// BackendHooks: the backend-specific answers to API calls that carry no backend
// handle or carry a backend's CUSTOM config structs (QnnDevice_*, custom
// backend/context configs, properties). A backend without hooks behaves as the
// host CPU: devices without a description, custom configs ignored, no infrastructure. The graph
// custom config, which needs the engine, is ExecutionEngine::applyGraphCustomConfig.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "core/status.h"

namespace qnn::sdk {

// Backend-specific settings taken from custom configs. They flow device ->
// context -> graph (GraphIR::backendConfig), so prepare sees all of them.
// Keys are "<scope>.<name>" (e.g. "device.arch"); values are decimal text.
using BackendSettings = std::map<std::string, std::string>;

// What a config call accepted but changed, as the vendor's backends do with
// meaningful out-of-range values (clamped, overridden, applied later or not at
// all). The runtime logs each at QNN_LOG_LEVEL_WARN; the call succeeds.
using ConfigWarnings = std::vector<std::string>;

// What a context holds, for the backend's custom context properties: its
// weights (static tensors of all graphs and the context, each counted once) and
// the largest scratch arena one of its graphs needs (graph/memory_needs.h).
struct ContextMemoryFacts {
  uint64_t weightsBytes = 0;
  uint64_t maxScratchBytes = 0;
};

// Owns one QnnDevice_PlatformInfo_t and whatever it points to.
class PlatformInfoStorage {
 public:
  virtual ~PlatformInfoStorage() = default;
  virtual const QnnDevice_PlatformInfo_t* info() const = 0;
};

// Where a QNN_MEM_TYPE_CUSTOM descriptor says a tensor's bytes are: a mappable
// file descriptor, the tensor's offset in it and the size the client gives for
// the whole buffer (0: not stated; the file's size bounds the tensor then).
struct FdRegion {
  int fd = -1;
  uint64_t offset = 0;
  uint64_t totalSize = 0;
};

class BackendHooks {
 public:
  virtual ~BackendHooks() = default;
  // QNN_BACKEND_CONFIG_OPTION_CUSTOM / QNN_CONTEXT_CONFIG_OPTION_CUSTOM /
  // QNN_DEVICE_CONFIG_OPTION_CUSTOM: parse and validate the backend's struct
  // (never null here) into settings. An error refuses the create/setConfig call.
  virtual Status applyBackendCustomConfig(const void*) { return Status::ok(); }
  virtual Status applyContextCustomConfig(const void*, BackendSettings*, ConfigWarnings*) { return Status::ok(); }
  virtual Status applyDeviceCustomConfig(const void*, BackendSettings*, ConfigWarnings*) { return Status::ok(); }
  // QNN_DEVICE_CONFIG_OPTION_PLATFORM_INFO (never null here): the hardware a
  // client describes for offline preparation. Default: nothing to take from it.
  virtual Status applyDevicePlatformInfo(const QnnDevice_PlatformInfo_t&, BackendSettings*, ConfigWarnings*) {
    return Status::ok();
  }
  // Platform info of a device with these settings (empty: QnnDevice_getPlatformInfo).
  // nullptr: the backend describes no devices; the queries answer QNN_DEVICE_ERROR_UNSUPPORTED_FEATURE.
  virtual std::unique_ptr<PlatformInfoStorage> platformInfo(const BackendSettings&) { return nullptr; }
  // QnnDevice_getInfrastructure; the pointed-to struct lives as long as the library.
  virtual Status getInfrastructure(const QnnDevice_Infrastructure_t*) {
    return {StatusCode::kNotSupported, "this backend has no device infrastructure"};
  }
  // QnnContext_getProperty with QNN_CONTEXT_PROPERTY_OPTION_CUSTOM (struct never
  // null). Every struct is checked before any is answered, so a refused call
  // changes none. kNotSupported: the backend defines no such property;
  // kInvalidArgument: an option it does not know.
  virtual Status checkContextCustomProperty(const void*) {
    return {StatusCode::kNotSupported, "this backend defines no custom context properties"};
  }
  virtual void answerContextCustomProperty(void*, const ContextMemoryFacts&) {}
  // QnnGlobalConfig_Set's SoC model (never QNN_SOC_MODEL_UNKNOWN here): an error
  // refuses the call. Accepted, it lands in every later device and context's
  // settings as "global.soc", below what device configs say.
  virtual Status checkGlobalSocModel(uint32_t) { return Status::ok(); }
  // Alignment the backend's buffers start at and sizes are rounded to.
  virtual uint64_t bufferAlignment() const { return 1; }
  // QnnMem_register with QNN_MEM_TYPE_CUSTOM (customInfo may be null): the
  // backend's descriptor read into a region to map. kNotSupported: the backend
  // has no custom memory (the call answers QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE).
  virtual Status customMemory(const void* /*customInfo*/, FdRegion*) {
    return {StatusCode::kNotSupported, "this backend defines no custom memory type"};
  }
  // Properties the backend answers itself; false: the runtime's answer stands.
  virtual bool hasCapability(QnnProperty_Key_t, Qnn_ErrorHandle_t*) { return false; }
};

}  // namespace qnn::sdk
