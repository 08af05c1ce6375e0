// Broken op packages for the registration error paths, one interface provider
// each, public headers only. Registration fails for all of them, so the library
// is closed after every attempt and each starts from a fresh state.
#include <cstring>

#include "CPU/QnnCpuOpPackage.h"
#include "QnnOpPackage.h"

namespace {

const char* kOps[] = {"Nop"};
const char* gPackageName = "openqnn.test.BadPackage";
Qnn_ApiVersion_t gApiVersion = QNN_CPU_API_VERSION_INIT;

Qnn_ErrorHandle_t init(QnnOpPackage_GlobalInfrastructure_t) { return QNN_SUCCESS; }
Qnn_ErrorHandle_t initFails(QnnOpPackage_GlobalInfrastructure_t) { return QNN_OP_PACKAGE_ERROR_INVALID_INFRASTRUCTURE; }
Qnn_ErrorHandle_t terminate() { return QNN_SUCCESS; }
Qnn_ErrorHandle_t getInfo(const QnnOpPackage_Info_t** info) {
  static QnnOpPackage_Info_t packageInfo = QNN_OP_PACKAGE_INFO_INIT;
  packageInfo.packageName = gPackageName;
  packageInfo.operationNames = kOps;
  packageInfo.numOperations = 1;
  packageInfo.sdkApiVersion = &gApiVersion;
  *info = &packageInfo;
  return QNN_SUCCESS;
}
Qnn_ErrorHandle_t createOpImpl(QnnOpPackage_GraphInfrastructure_t, QnnOpPackage_Node_t, QnnOpPackage_OpImpl_t*) {
  return QNN_OP_PACKAGE_ERROR_GENERAL;
}
Qnn_ErrorHandle_t freeOpImpl(QnnOpPackage_OpImpl_t) { return QNN_SUCCESS; }

void fillWorking(QnnOpPackage_Interface_t* i) {
  const Qnn_ApiVersion_t fresh = QNN_CPU_API_VERSION_INIT;
  gApiVersion = fresh;
  gPackageName = "openqnn.test.BadPackage";
  i->interfaceVersion = QNN_OP_PACKAGE_API_VERSION_1_4_0;
  i->v1_4.init = init;
  i->v1_4.terminate = terminate;
  i->v1_4.getInfo = getInfo;
  i->v1_4.createOpImpl = createOpImpl;
  i->v1_4.freeOpImpl = freeOpImpl;
}

}  // namespace

#define PROVIDER(name) extern "C" __attribute__((visibility("default"))) Qnn_ErrorHandle_t name(QnnOpPackage_Interface_t* i)

PROVIDER(ProviderReturnsError) {
  (void)i;
  return QNN_OP_PACKAGE_ERROR_GENERAL;
}

PROVIDER(ProviderInterfaceV2) {
  fillWorking(i);
  i->interfaceVersion = QNN_OP_PACKAGE_API_VERSION_2_0_0;
  return QNN_SUCCESS;
}

PROVIDER(ProviderOldCoreApi) {
  fillWorking(i);
  gApiVersion.coreApiVersion.major = 1;
  return QNN_SUCCESS;
}

PROVIDER(ProviderOtherBackendApi) {
  fillWorking(i);
  gApiVersion.backendApiVersion.major = QNN_CPU_API_VERSION_MAJOR + 7;
  return QNN_SUCCESS;
}

PROVIDER(ProviderInitFails) {
  fillWorking(i);
  i->v1_4.init = initFails;
  return QNN_SUCCESS;
}

PROVIDER(ProviderMissingFunctions) {
  fillWorking(i);
  i->v1_4.createOpImpl = nullptr;
  return QNN_SUCCESS;
}

PROVIDER(ProviderBuiltinName) {
  fillWorking(i);
  gPackageName = "qti.aisw";
  return QNN_SUCCESS;
}

// Loads fine; every createOpImpl fails (finalize must report it, not crash).
PROVIDER(ProviderCreateFails) {
  fillWorking(i);
  return QNN_SUCCESS;
}
