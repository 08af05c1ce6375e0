// libQnnHtp.so's C entry points: the function table handed out by
// QnnInterface_getProviders. Each entry forwards to the shared Runtime; the HTP
// specifics live in the engine (htp_engine.h) and the hooks (htp_hooks.h).
#include "HTP/QnnHtpCommon.h"
#include "QnnInterface.h"
#include "htp_sim/htp_engine.h"
#include "htp_sim/htp_hooks.h"
#include "adapters/client_interface.h"
#include "runtime/api_table.h"
#include "QnnSdkBuildId.h"

namespace {

qnn::sdk::Runtime& runtime() {
  static qnn::sdk::Runtime rt([] {
    qnn::sdk::BackendDescriptor d;
    d.backendId = QNN_BACKEND_ID_HTP;
    d.providerName = QNN_HTP_INTERFACE_PROVIDER_NAME;
    d.buildId = QNN_SDK_BUILD_ID;
    d.backendApiMajor = QNN_HTP_API_VERSION_MAJOR;
    d.backendApiMinor = QNN_HTP_API_VERSION_MINOR;
    d.backendApiPatch = QNN_HTP_API_VERSION_PATCH;
    d.backendApi2_39 = {5, 50, 0};  // QNN_HTP_API_VERSION_* of the 2.39 HTP/QnnHtpCommon.h (QAIRT 2.50.40)
    d.createEngine = qnn::htp::createHtpEngine;
    d.hooks = qnn::htp::createHtpHooks();
    d.opTrace = true;  // per-node trace events on the estimated cycle timeline (htp_engine.cpp)
    return d;
  }());
  return rt;
}

using HtpApi = qnn::sdk::ApiTable<runtime>;

}  // namespace

extern "C" QNN_API Qnn_ErrorHandle_t QnnInterface_getProviders(const QnnInterface_t*** providerList,
                                                                uint32_t* numProviders) {
  return qnn::sdk::getProviders(HtpApi::provider(), HtpApi::provider2_39(), providerList, numProviders);
}

// Compat shims (lib/x86_64-linux-clang/compat/api-2.<minor>/) ask for an older client's layout here.
extern "C" QNN_API Qnn_ErrorHandle_t OpenQnn_getProvidersForClientApi(uint32_t major, uint32_t minor,
                                                                      const void*** providerList,
                                                                      uint32_t* numProviders) {
  return qnn::adapters::providersForClient(HtpApi::provider(), major, minor, providerList, numProviders,
                                         &HtpApi::provider2_39());
}
