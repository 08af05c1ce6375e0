// QnnInterface_getProviders for every library of ours (backends and the Saver):
// one provider, API 2.32 by default; with QNN_OPENQNN_PROVIDER_API=2.39 one
// provider of API 2.39 whose table is the 75 members of core/api_members.h
// (a preview: part of 2.39's headers is not public, docs/compatibility.md).
// Also how our libraries and tools take a provider from another library.
#pragma once

#include <cstdint>

#include "QnnInterface.h"
#include "core/api_members.h"

namespace qnn::sdk {

// 39 when QNN_OPENQNN_PROVIDER_API=2.39 (the first time, one info line says
// what that provider is), else 32 (another value is logged once and ignored).
// Read at every call.
uint32_t providerApiMinor();

// The core API a provider of `coreMinor` reports, with the backend's API
// version of that release.
Qnn_ApiVersion_t providerApiVersion(uint32_t coreMinor, Qnn_Version_t backendApi);

// QnnInterface_getProviders for a library with one provider in each form. A
// client asking for an older layout (QNN_OPENQNN_CLIENT_API, sdk/adapters) gets
// that; else `v2_39` under QNN_OPENQNN_PROVIDER_API=2.39, `v2_32` otherwise.
Qnn_ErrorHandle_t getProviders(const QnnInterface_t& v2_32, const Interface2_39& v2_39,
                               const QnnInterface_t*** providerList, uint32_t* numProviders);

// The provider of another library to call through (the Saver's pass-through,
// qnn-trace-replay): an OpenQNN library is asked for its 2.39 provider by name
// (OpenQnn_getProvidersForClientApi, whatever the environment says), any other
// through QnnInterface_getProviders; then pickProvider. Null if none fits.
using GetProvidersFn = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
using GetProvidersForApiFn = Qnn_ErrorHandle_t (*)(uint32_t, uint32_t, const void***, uint32_t*);
inline const QnnInterface_t* providerToCallThrough(GetProvidersForApiFn forApi, GetProvidersFn get,
                                                   InterfaceTable2_39* table) {
  const QnnInterface_t** providers = nullptr;
  uint32_t n = 0;
  if (forApi && forApi(QNN_API_VERSION_MAJOR, 39, reinterpret_cast<const void***>(&providers), &n) == QNN_SUCCESS)
    if (const QnnInterface_t* p = pickProvider(providers, n, table)) return p;
  if (forApi && forApi(QNN_API_VERSION_MAJOR, QNN_API_VERSION_MINOR, reinterpret_cast<const void***>(&providers),
                       &n) == QNN_SUCCESS)
    return pickProvider(providers, n, table);
  if (get && get(&providers, &n) == QNN_SUCCESS) return pickProvider(providers, n, table);
  return nullptr;
}

}  // namespace qnn::sdk
