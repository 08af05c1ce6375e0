// Core function tables for clients older than API 2.14 (see client_interface.h). Members
// whose arguments hold tensors, params or memory descriptors convert them by the client's
// layout; every other member is the current entry itself.
#include "adapters/client_interface.h"

#include <dlfcn.h>

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>

#include "adapters/client_layouts.h"
#include "core/logger.h"

namespace qnn::adapters {
namespace {

using Table = QNN_INTERFACE_VER_TYPE;

// The library's current table: one backend per library, set before any adapter is handed out.
const Table* g_current = nullptr;

// Layout index: 0 = API 2.7 clients, 1 = API 2.9 .. 2.13 clients.
template <int L>
const ClientLayout& layout() {
  static const ClientLayout l = layoutForMinor(L == 0 ? 7 : 13);
  return l;
}

template <int L>
struct Adapter {
  static Qnn_ErrorHandle_t backendValidateOpConfig(Qnn_BackendHandle_t b, Qnn_OpConfig_t op) {
    Converted c(layout<L>());
    return g_current->backendValidateOpConfig(b, c.opConfig(op));
  }
  static Qnn_ErrorHandle_t graphAddNode(Qnn_GraphHandle_t g, Qnn_OpConfig_t op) {
    Converted c(layout<L>());
    return g_current->graphAddNode(g, c.opConfig(op));
  }
  static Qnn_ErrorHandle_t tensorCreateGraphTensor(Qnn_GraphHandle_t g, Qnn_Tensor_t* t) {
    Converted c(layout<L>());
    Qnn_Tensor_t* mine = c.tensor(t);
    Qnn_ErrorHandle_t err = g_current->tensorCreateGraphTensor(g, mine);
    if (err == QNN_SUCCESS) writeBackTensors(layout<L>(), mine, t, 1);
    return err;
  }
  static Qnn_ErrorHandle_t tensorCreateContextTensor(Qnn_ContextHandle_t x, Qnn_Tensor_t* t) {
    Converted c(layout<L>());
    Qnn_Tensor_t* mine = c.tensor(t);
    Qnn_ErrorHandle_t err = g_current->tensorCreateContextTensor(x, mine);
    if (err == QNN_SUCCESS) writeBackTensors(layout<L>(), mine, t, 1);
    return err;
  }
  static Qnn_ErrorHandle_t graphExecute(Qnn_GraphHandle_t g, const Qnn_Tensor_t* in, uint32_t ni, Qnn_Tensor_t* out,
                                        uint32_t no, Qnn_ProfileHandle_t p, Qnn_SignalHandle_t s) {
    Converted c(layout<L>());
    Qnn_Tensor_t* myOut = c.tensors(out, no);
    Qnn_ErrorHandle_t err = g_current->graphExecute(g, c.tensors(in, ni), ni, myOut, no, p, s);
    // Output sizes and dimensions are written even on failure, as the backend wrote them.
    writeBackTensors(layout<L>(), myOut, out, no);
    return err;
  }

  // Asynchronous execution: the converted arrays live until the notification, which writes
  // the outputs back before the client's own callback sees them.
  struct AsyncCall {
    explicit AsyncCall() : conv(layout<L>()) {}
    Converted conv;
    Qnn_Tensor_t* clientOut = nullptr;
    Qnn_Tensor_t* myOut = nullptr;
    uint32_t numOut = 0;
    Qnn_NotifyFn_t notify = nullptr;
    void* notifyParam = nullptr;
  };
  static void asyncDone(void* param, Qnn_NotifyStatus_t status) {
    std::unique_ptr<AsyncCall> call(static_cast<AsyncCall*>(param));
    writeBackTensors(layout<L>(), call->myOut, call->clientOut, call->numOut);
    if (call->notify) call->notify(call->notifyParam, status);
  }
  static Qnn_ErrorHandle_t graphExecuteAsync(Qnn_GraphHandle_t g, const Qnn_Tensor_t* in, uint32_t ni,
                                             Qnn_Tensor_t* out, uint32_t no, Qnn_ProfileHandle_t p,
                                             Qnn_SignalHandle_t s, Qnn_NotifyFn_t fn, void* fnParam) {
    auto call = std::make_unique<AsyncCall>();
    call->clientOut = out;
    call->numOut = no;
    call->myOut = call->conv.tensors(out, no);
    call->notify = fn;
    call->notifyParam = fnParam;
    const Qnn_Tensor_t* myIn = call->conv.tensors(in, ni);
    Qnn_ErrorHandle_t err =
        g_current->graphExecuteAsync(g, myIn, ni, call->myOut, no, p, s, &Adapter::asyncDone, call.get());
    if (err == QNN_SUCCESS) call.release();  // asyncDone owns it now
    return err;
  }
  static Qnn_ErrorHandle_t memRegister(Qnn_ContextHandle_t x, const Qnn_MemDescriptor_t* d, uint32_t n,
                                       Qnn_MemHandle_t* h) {
    Converted c(layout<L>());
    return g_current->memRegister(x, c.memDescriptors(d, n), n, h);
  }

  // Current entries with the converting ones swapped in.
  static Table table() {
    Table t = *g_current;
    t.backendValidateOpConfig = backendValidateOpConfig;
    t.graphAddNode = graphAddNode;
    t.tensorCreateGraphTensor = tensorCreateGraphTensor;
    t.tensorCreateContextTensor = tensorCreateContextTensor;
    t.graphExecute = graphExecute;
    t.graphExecuteAsync = graphExecuteAsync;
    t.memRegister = memRegister;
    return t;
  }
};

// QnnInterface_t as old clients read it: the table starts at offset 40 and holds
// `N` members in the client's order.
template <size_t N>
struct LegacyProvider {
  uint32_t backendId;
  const char* providerName;
  Qnn_ApiVersion_t apiVersion;
  void* members[N];
};
static_assert(offsetof(LegacyProvider<1>, members) == offsetof(QnnInterface_t, v2_32), "provider header moved");

#define QNN_SLOT(name) (offsetof(Table, name) / sizeof(void*))

// Member order of API 2.7 (44 members): the later order minus backendSetConfig,
// graphCreateSubgraph, profileSetConfig and profileGetExtendedEventData, which 2.8/2.9 inserted.
constexpr size_t kOrder2_7[] = {
    QNN_SLOT(propertyHasCapability), QNN_SLOT(backendCreate), QNN_SLOT(backendGetApiVersion),
    QNN_SLOT(backendGetBuildId), QNN_SLOT(backendRegisterOpPackage), QNN_SLOT(backendGetSupportedOperations),
    QNN_SLOT(backendValidateOpConfig), QNN_SLOT(backendFree), QNN_SLOT(contextCreate), QNN_SLOT(contextSetConfig),
    QNN_SLOT(contextGetBinarySize), QNN_SLOT(contextGetBinary), QNN_SLOT(contextCreateFromBinary),
    QNN_SLOT(contextFree), QNN_SLOT(graphCreate), QNN_SLOT(graphSetConfig), QNN_SLOT(graphAddNode),
    QNN_SLOT(graphFinalize), QNN_SLOT(graphRetrieve), QNN_SLOT(graphExecute), QNN_SLOT(graphExecuteAsync),
    QNN_SLOT(tensorCreateContextTensor), QNN_SLOT(tensorCreateGraphTensor), QNN_SLOT(logCreate),
    QNN_SLOT(logSetLogLevel), QNN_SLOT(logFree), QNN_SLOT(profileCreate), QNN_SLOT(profileGetEvents),
    QNN_SLOT(profileGetSubEvents), QNN_SLOT(profileGetEventData), QNN_SLOT(profileFree), QNN_SLOT(memRegister),
    QNN_SLOT(memDeRegister), QNN_SLOT(deviceGetPlatformInfo), QNN_SLOT(deviceFreePlatformInfo),
    QNN_SLOT(deviceGetInfrastructure), QNN_SLOT(deviceCreate), QNN_SLOT(deviceSetConfig), QNN_SLOT(deviceGetInfo),
    QNN_SLOT(deviceFree), QNN_SLOT(signalCreate), QNN_SLOT(signalSetConfig), QNN_SLOT(signalTrigger),
    QNN_SLOT(signalFree)};
static_assert(sizeof(kOrder2_7) / sizeof(kOrder2_7[0]) == 44, "the 2.7 table has 44 members");

// API 2.9 .. 2.13 use the current order; 2.13 has its first 55 members (through contextValidateBinary).
constexpr size_t kMembers2_13 = QNN_SLOT(contextValidateBinary) + 1;
static_assert(kMembers2_13 == 55, "the 2.13 table has 55 members");

template <int L, size_t N>
const LegacyProvider<N>& buildProvider(const QnnInterface_t& current, const size_t* order, uint32_t minor,
                                       uint32_t patch) {
  static LegacyProvider<N> p;
  static Table adapted;
  static std::once_flag once;
  std::call_once(once, [&] {
    g_current = &current.v2_32;
    adapted = Adapter<L>::table();
    void* const* slots = reinterpret_cast<void* const*>(&adapted);
    p.backendId = current.backendId;
    p.providerName = current.providerName;
    p.apiVersion = current.apiVersion;
    p.apiVersion.coreApiVersion = {2, minor, patch};
    for (size_t i = 0; i < N; ++i) p.members[i] = slots[order ? order[i] : i];
  });
  return p;
}

}  // namespace

Qnn_ErrorHandle_t providersForClient(const QnnInterface_t& current, uint32_t major, uint32_t minor,
                                     const void*** providerList, uint32_t* numProviders,
                                     const sdk::Interface2_39* v2_39) {
  if (!providerList || !numProviders) {
    sdk::logMessage(nullptr, QNN_LOG_LEVEL_ERROR,
                    std::string("QnnInterface_getProviders: ") + (providerList ? "numProviders" : "providerList") +
                        " is null");
    return QNN_INTERFACE_ERROR_INVALID_PARAMETER;
  }
  // One list per layout, so that answers to different clients never overwrite each other.
  static const void* currentList[1];
  static const void* list2_13[1];
  static const void* list2_7[1];
  static const void* list2_39[1];
  const void** list = nullptr;
  if (major == QNN_API_VERSION_MAJOR && minor == 39 && v2_39) {
    list = list2_39;
    list[0] = v2_39;
  } else if (major == QNN_API_VERSION_MAJOR && minor >= 14 && minor <= QNN_API_VERSION_MINOR) {
    list = currentList;
    list[0] = &current;
  } else if (major == 2 && minor >= 9 && minor <= 13) {
    list = list2_13;
    list[0] = &buildProvider<1, kMembers2_13>(current, nullptr, 13, 0);
  } else if (major == 2 && minor == 7) {
    list = list2_7;
    list[0] = &buildProvider<0, 44>(current, kOrder2_7, 7, 2);
  } else {
    sdk::logMessage(nullptr, QNN_LOG_LEVEL_ERROR,
                    "no function table for clients of QNN API " + std::to_string(major) + "." +
                        std::to_string(minor) + " (served: 2.7, 2.9-2.13, 2.14-" +
                        std::to_string(QNN_API_VERSION_MAJOR) + "." + std::to_string(QNN_API_VERSION_MINOR) +
                        (v2_39 ? ", 2.39" : "") + ")");
    return QNN_INTERFACE_ERROR_NOT_SUPPORTED;
  }
  *providerList = list;
  *numProviders = 1;
  return QNN_SUCCESS;
}

bool olderClientCalledLogCreate(const void* tensor) {
  uintptr_t level = reinterpret_cast<uintptr_t>(tensor);
  if (level < QNN_LOG_LEVEL_ERROR || level > QNN_LOG_LEVEL_DEBUG) return false;
  static std::atomic<bool> said{false};
  if (said.exchange(true)) return true;
  // Name this library's compat/api-2.7/ twin from where it was loaded.
  Dl_info info{};
  std::string path = "lib/x86_64-linux-clang/libQnn<Backend>.so", dir, name = path;
  if (dladdr(reinterpret_cast<void*>(&olderClientCalledLogCreate), &info) && info.dli_fname) path = info.dli_fname;
  size_t slash = path.rfind('/');
  dir = slash == std::string::npos ? "." : path.substr(0, slash);
  name = slash == std::string::npos ? path : path.substr(slash + 1);
  std::string message =
      "QnnTensor_createContextTensor was called with log level " + std::to_string(level) +
      " for a tensor: the client reads this library's function table in the order of QNN API 2.7 headers "
      "(SDK 2.11-2.13), where that slot is QnnLog_create. Load " + dir + "/compat/api-2.7/" + name +
      " instead, or set QNN_OPENQNN_CLIENT_API=2.7 (docs/compatibility.md)";
  sdk::logMessage(nullptr, QNN_LOG_LEVEL_ERROR, message);
  if (!std::getenv("QNN_LOG_TO_STDERR")) std::fprintf(stderr, "[qnn ERROR] %s\n", message.c_str());
  return true;
}

size_t interfaceMembersForMinor(uint32_t minor) {
  // {first minor, members} in order; a row holds until the next one.
  static constexpr struct {
    uint32_t minor;
    size_t members;
  } kSizes[] = {{7, 44},  {8, 46},  {9, 48},  {11, 51}, {12, 54}, {13, 55}, {15, 56}, {17, 59}, {18, 62},
                {22, 64}, {25, 66}, {26, 67}, {27, 68}, {28, 69}, {31, 71}, {33, 0},  {39, 75}, {40, 0}};
  size_t members = 0;
  for (const auto& row : kSizes)
    if (minor >= row.minor) members = row.members;
  return minor < 7 ? 0 : members;
}

uint32_t minorForInterfaceMembers(size_t members, bool* ambiguous) {
  if (ambiguous) *ambiguous = members == 55;
  for (uint32_t minor = 7; minor <= 39; ++minor)
    if (interfaceMembersForMinor(minor) == members) return minor;
  return 0;
}

bool clientApiFromEnvironment(uint32_t* major, uint32_t* minor) {
  const char* v = std::getenv("QNN_OPENQNN_CLIENT_API");
  if (!v || !*v) return false;
  char* end = nullptr;
  unsigned long ma = std::strtoul(v, &end, 10);
  if (end && *end == '.') {
    char* end2 = nullptr;
    unsigned long mi = std::strtoul(end + 1, &end2, 10);
    if (end2 != end + 1 && *end2 == '\0' && ma < 100 && mi < 1000) {
      *major = static_cast<uint32_t>(ma);
      *minor = static_cast<uint32_t>(mi);
      return true;
    }
  }
  sdk::logMessage(nullptr, QNN_LOG_LEVEL_WARN,
                  std::string("QNN_OPENQNN_CLIENT_API='") + v + "' is not of the form 2.<minor>; ignored");
  return false;
}

}  // namespace qnn::adapters
