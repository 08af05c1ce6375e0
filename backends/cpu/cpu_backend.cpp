// libQnnCpu.so's C entry points: the function table handed out by
// QnnInterface_getProviders. Each entry forwards to the shared Runtime, which
// checks handles, runs the C++ inside and turns the outcome into an error code.
#include "CPU/QnnCpuCommon.h"
#include "QnnInterface.h"
#include "cpu/cpu_engine.h"
#include "cpu/cpu_op_package_kernel.h"
#include "adapters/client_interface.h"
#include "runtime/api_table.h"
#include "QnnSdkBuildId.h"

namespace {

qnn::sdk::Runtime& runtime() {
  static qnn::sdk::Runtime rt([] {
    qnn::sdk::BackendDescriptor d;
    d.backendId = QNN_BACKEND_ID_CPU;
    d.providerName = QNN_CPU_INTERFACE_PROVIDER_NAME;
    d.buildId = QNN_SDK_BUILD_ID;
    d.backendApiMajor = QNN_CPU_API_VERSION_MAJOR;
    d.backendApiMinor = QNN_CPU_API_VERSION_MINOR;
    d.backendApiPatch = QNN_CPU_API_VERSION_PATCH;
    d.createEngine = qnn::cpu::createCpuEngine;
    d.opPackageInfrastructure = qnn::cpu::cpuOpPackageInfrastructure();
    d.opPackageTargets = {"CPU"};
    return d;
  }());
  return rt;
}

using CpuApi = qnn::sdk::ApiTable<runtime>;

}  // namespace

extern "C" QNN_API Qnn_ErrorHandle_t QnnInterface_getProviders(const QnnInterface_t*** providerList,
                                                                uint32_t* numProviders) {
  return qnn::sdk::getProviders(CpuApi::provider(), CpuApi::provider2_39(), providerList, numProviders);
}

// Compat shims (lib/x86_64-linux-clang/compat/api-2.<minor>/) ask for an older client's layout here.
extern "C" QNN_API Qnn_ErrorHandle_t OpenQnn_getProvidersForClientApi(uint32_t major, uint32_t minor,
                                                                      const void*** providerList,
                                                                      uint32_t* numProviders) {
  return qnn::adapters::providersForClient(CpuApi::provider(), major, minor, providerList, numProviders,
                                         &CpuApi::provider2_39());
}
