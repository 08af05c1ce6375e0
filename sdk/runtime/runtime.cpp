// The Runtime object itself; its entry points live in one file per API
// component (runtime_<component>.cpp), sharing runtime_support.h.
#include "runtime/runtime.h"

#include "runtime/providers.h"

namespace qnn::sdk {

Runtime::Runtime(BackendDescriptor descriptor) : desc_(std::move(descriptor)) {}

Qnn_ApiVersion_t Runtime::apiVersion() const { return apiVersion(providerApiMinor()); }

Qnn_ApiVersion_t Runtime::apiVersion(uint32_t coreMinor) const {
  Qnn_Version_t backend = {desc_.backendApiMajor, desc_.backendApiMinor, desc_.backendApiPatch};
  const Qnn_Version_t& v39 = desc_.backendApi2_39;
  if (coreMinor == 39 && (v39.major || v39.minor || v39.patch)) backend = v39;
  return providerApiVersion(coreMinor, backend);
}

}  // namespace qnn::sdk
