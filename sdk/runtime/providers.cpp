// QnnInterface_getProviders for every backend library: exactly one provider, of the newest
// API, unless the client asked for an older layout (QNN_OPENQNN_CLIENT_API, sdk/compat).
// Kept apart from the runtime so that libraries without a Runtime (the Saver) link it alone.
#include <string>

#include "compat/legacy_interface.h"
#include "core/logger.h"
#include "runtime/api_table.h"

namespace qnn::sdk {

Qnn_ErrorHandle_t getProviders(const QnnInterface_t& provider, const QnnInterface_t*** providerList,
                               uint32_t* numProviders) {
  if (!providerList || !numProviders) {
    // No log handle exists yet: the line reaches stderr under QNN_LOG_TO_STDERR.
    logMessage(nullptr, QNN_LOG_LEVEL_ERROR,
               std::string("QnnInterface_getProviders: ") + (providerList ? "numProviders" : "providerList") + " is null");
    return QNN_INTERFACE_ERROR_INVALID_PARAMETER;
  }
  // A client built against older headers may ask for its own layout through the environment
  // (the compat/api-2.<minor>/ shims do the same through OpenQnn_getProvidersForClientApi).
  uint32_t major = 0, minor = 0;
  if (compat::clientApiFromEnvironment(&major, &minor))
    return compat::providersForClient(provider, major, minor, reinterpret_cast<const void***>(providerList),
                                      numProviders);
  // One backend library holds one runtime, so one list per library suffices.
  static const QnnInterface_t* const list[1] = {&provider};
  *providerList = const_cast<const QnnInterface_t**>(list);
  *numProviders = 1;
  return QNN_SUCCESS;
}

}  // namespace qnn::sdk
