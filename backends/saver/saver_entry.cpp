// libQnnSaver.so's C entry points: QnnInterface_getProviders (backend id
// QNN_BACKEND_ID_SAVER, the 2.32 table of recording entries) and
// QnnSaver_initialize (Saver/QnnSaver.h).
#include "QnnInterface.h"
#include "Saver/QnnSaver.h"
#include "Saver/QnnSaverCommon.h"
#include "saver/saver_call.h"
#include "saver/saver_state.h"
#include "saver/saver_table.h"
#include "adapters/client_interface.h"
#include "runtime/providers.h"

namespace {

// Every recording entry (API 2.39's 75).
const qnn::sdk::InterfaceTable2_39& table() {
  static const qnn::sdk::InterfaceTable2_39 t = [] {
    qnn::sdk::InterfaceTable2_39 full{};
    qnn::saver::fillTable(full);
    return full;
  }();
  return t;
}

const QnnInterface_t& provider() {
  static const QnnInterface_t iface = [] {
    QnnInterface_t p = QNN_INTERFACE_INIT;
    p.backendId = QNN_BACKEND_ID_SAVER;
    p.providerName = QNN_SAVER_INTERFACE_PROVIDER_NAME;
    p.apiVersion = Qnn_ApiVersion_t QNN_SAVER_API_VERSION_INIT;
    p.QNN_INTERFACE_VER_NAME = qnn::sdk::prefixOf2_32(table());
    return p;
  }();
  return iface;
}

// The opt-in 2.39 provider (QNN_OPENQNN_PROVIDER_API=2.39): every recording entry. The
// Saver's own API version of that release is not public: the current one is reported.
const qnn::sdk::Interface2_39& provider2_39() {
  static const qnn::sdk::Interface2_39 iface = [] {
    qnn::sdk::Interface2_39 p{};
    p.backendId = QNN_BACKEND_ID_SAVER;
    p.providerName = QNN_SAVER_INTERFACE_PROVIDER_NAME;
    p.apiVersion = qnn::sdk::providerApiVersion(
        39, Qnn_Version_t{QNN_SAVER_API_VERSION_MAJOR, QNN_SAVER_API_VERSION_MINOR, QNN_SAVER_API_VERSION_PATCH});
    p.v2_39 = table();
    return p;
  }();
  return iface;
}

}  // namespace

extern "C" QNN_API Qnn_ErrorHandle_t QnnInterface_getProviders(const QnnInterface_t*** providerList,
                                                                uint32_t* numProviders) {
  try {
    Qnn_ErrorHandle_t rc = qnn::sdk::getProviders(provider(), provider2_39(), providerList, numProviders);
    uint32_t major = QNN_API_VERSION_MAJOR, minor = qnn::sdk::providerApiMinor();
    qnn::adapters::clientApiFromEnvironment(&major, &minor);
    if (rc == QNN_SUCCESS) qnn::saver::noteClientApi(major, minor);
    return rc;
  } catch (...) {
    return QNN_COMMON_ERROR_GENERAL;
  }
}

extern "C" QNN_API Qnn_ErrorHandle_t QnnSaver_initialize(const QnnSaver_Config_t** config) {
  return qnn::saver::recordedAs(qnn::trace::Call::saverInitialize, [&](qnn::trace::Value& a) {
    return qnn::saver::SaverState::get().initialize(config, a);
  });
}

// Compat shims (lib/x86_64-linux-clang/compat/api-2.<minor>/) ask for an older client's layout here.
extern "C" QNN_API Qnn_ErrorHandle_t OpenQnn_getProvidersForClientApi(uint32_t major, uint32_t minor,
                                                                      const void*** providerList,
                                                                      uint32_t* numProviders) {
  try {
    Qnn_ErrorHandle_t rc =
        qnn::adapters::providersForClient(provider(), major, minor, providerList, numProviders, &provider2_39());
    if (rc == QNN_SUCCESS) qnn::saver::noteClientApi(major, minor);
    return rc;
  } catch (...) {
    return QNN_COMMON_ERROR_GENERAL;
  }
}
