// The Runtime object itself; its entry points live in one file per API
// component (runtime_<component>.cpp), sharing runtime_support.h.
#include "runtime/runtime.h"

namespace qnn::sdk {

Runtime::Runtime(BackendDescriptor descriptor) : desc_(std::move(descriptor)) {}

Qnn_ApiVersion_t Runtime::apiVersion() const {
  Qnn_ApiVersion_t v;
  v.coreApiVersion = {QNN_API_VERSION_MAJOR, QNN_API_VERSION_MINOR, QNN_API_VERSION_PATCH};
  v.backendApiVersion = {desc_.backendApiMajor, desc_.backendApiMinor, desc_.backendApiPatch};
  return v;
}

}  // namespace qnn::sdk
