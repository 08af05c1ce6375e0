// QnnInterface_getProviders for every backend library and the Saver (providers.h).
// Kept apart from the runtime so that libraries without a Runtime (the Saver) link it alone.
#include "runtime/providers.h"

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string>

#include "adapters/client_interface.h"
#include "core/logger.h"

namespace qnn::sdk {

// Read at every call (a process may change it between loads); each line is said once.
uint32_t providerApiMinor() {
  static std::atomic<bool> saidBad{false}, saidPreview{false};
  const char* v = std::getenv("QNN_OPENQNN_PROVIDER_API");
  if (!v || !*v || std::strcmp(v, "2.32") == 0) return uint32_t(QNN_API_VERSION_MINOR);
  if (std::strcmp(v, "2.39") != 0) {
    if (!saidBad.exchange(true))
      logMessage(nullptr, QNN_LOG_LEVEL_WARN,
                 std::string("QNN_OPENQNN_PROVIDER_API='") + v + "' is not 2.32 or 2.39; the 2.32 provider is offered");
    return uint32_t(QNN_API_VERSION_MINOR);
  }
  if (!saidPreview.exchange(true))
    logMessage(nullptr, QNN_LOG_LEVEL_INFO,
               "QNN_OPENQNN_PROVIDER_API=2.39: offering a preview API 2.39.0 provider (75-member table); facts of "
               "the 2.39 headers that are not public (QnnTensor.h, QnnMem.h, QnnLog.h, QnnProfile.h, QnnOpPackage.h, "
               "QnnError.h, QnnSignal.h, QnnGlobalConfig.h, CPU/ and Saver/ headers) are assumed unchanged from 2.32");
  return 39u;
}

Qnn_ApiVersion_t providerApiVersion(uint32_t coreMinor, Qnn_Version_t backendApi) {
  Qnn_ApiVersion_t v;
  v.coreApiVersion = {QNN_API_VERSION_MAJOR, coreMinor, coreMinor == QNN_API_VERSION_MINOR ? QNN_API_VERSION_PATCH : 0};
  v.backendApiVersion = backendApi;
  return v;
}

Qnn_ErrorHandle_t getProviders(const QnnInterface_t& v2_32, const Interface2_39& v2_39,
                               const QnnInterface_t*** providerList, uint32_t* numProviders) {
  if (!providerList || !numProviders) {
    // No log handle exists yet: the line reaches stderr under QNN_LOG_TO_STDERR.
    logMessage(nullptr, QNN_LOG_LEVEL_ERROR,
               std::string("QnnInterface_getProviders: ") + (providerList ? "numProviders" : "providerList") + " is null");
    return QNN_INTERFACE_ERROR_INVALID_PARAMETER;
  }
  // A client built against older headers may ask for its own layout through the environment
  // (the compat/api-2.<minor>/ shims do the same through OpenQnn_getProvidersForClientApi).
  uint32_t major = 0, minor = 0;
  if (adapters::clientApiFromEnvironment(&major, &minor))
    return adapters::providersForClient(v2_32, major, minor, reinterpret_cast<const void***>(providerList),
                                      numProviders, &v2_39);
  // One backend library holds one runtime, so one list per form suffices.
  static const QnnInterface_t* list2_32[1];
  static const QnnInterface_t* list2_39[1];
  const QnnInterface_t** list = list2_32;
  if (providerApiMinor() == 39) {
    list = list2_39;
    list[0] = reinterpret_cast<const QnnInterface_t*>(&v2_39);
  } else {
    list[0] = &v2_32;
  }
  *providerList = list;
  *numProviders = 1;
  return QNN_SUCCESS;
}

}  // namespace qnn::sdk
