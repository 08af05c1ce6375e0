// The system table for clients older than API 2.14 (system API 1.1, four members). Binary
// info is the only thing whose layout differs for them: graph infos were 48 bytes (version
// and GraphInfoV1; 88 now) and tensor arrays had the 120-byte stride. The adapter returns a
// copy in the client's layout, owned by the system context handle like the original.
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <vector>

#include "adapters/client_layouts.h"
#include "adapters/client_interface.h"
#include "core/logger.h"

namespace qnn::adapters {
namespace {

using SystemTable = QNN_SYSTEM_INTERFACE_VER_TYPE;
const SystemTable* g_currentSystem = nullptr;

constexpr size_t kLegacyGraphInfoSize = 48;  // version, pad, GraphInfoV1 (40 bytes)
constexpr size_t kGraphInfoV1Offset = offsetof(QnnSystemContext_GraphInfo_t, graphInfoV1);
static_assert(kGraphInfoV1Offset == 8 && sizeof(QnnSystemContext_GraphInfoV1_t) == 40, "GraphInfoV1 moved");

// Converted binary infos, per system context handle, freed with the handle.
std::mutex g_mutex;
std::map<QnnSystemContext_Handle_t, std::deque<std::vector<unsigned char>>> g_copies;

unsigned char* keep(QnnSystemContext_Handle_t h, size_t bytes) {
  auto& list = g_copies[h];
  list.emplace_back(bytes, 0);
  return list.back().data();
}

// A tensor array in the client's stride (nullptr for none).
Qnn_Tensor_t* legacyTensors(QnnSystemContext_Handle_t h, const ClientLayout& l, const Qnn_Tensor_t* t, uint32_t n) {
  if (!t || n == 0) return nullptr;
  unsigned char* out = keep(h, n * l.tensorStride);
  for (uint32_t i = 0; i < n; ++i) storeTensor(l, t[i], out + i * l.tensorStride);
  return reinterpret_cast<Qnn_Tensor_t*>(out);
}

// Graph infos as version-1 entries of 48 bytes.
QnnSystemContext_GraphInfo_t* legacyGraphs(QnnSystemContext_Handle_t h, const ClientLayout& l,
                                           const QnnSystemContext_GraphInfo_t* graphs, uint32_t n) {
  if (!graphs || n == 0) return nullptr;
  unsigned char* out = keep(h, n * kLegacyGraphInfoSize);
  for (uint32_t i = 0; i < n; ++i) {
    // V2 and V3 start with the V1 fields, so any version reads as V1.
    QnnSystemContext_GraphInfoV1_t v1 = graphs[i].graphInfoV1;
    v1.graphInputs = legacyTensors(h, l, v1.graphInputs, v1.numGraphInputs);
    v1.graphOutputs = legacyTensors(h, l, v1.graphOutputs, v1.numGraphOutputs);
    const QnnSystemContext_GraphInfoVersion_t version = QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1;
    unsigned char* slot = out + i * kLegacyGraphInfoSize;
    std::memcpy(slot, &version, sizeof version);
    std::memcpy(slot + kGraphInfoV1Offset, &v1, sizeof v1);
  }
  return reinterpret_cast<QnnSystemContext_GraphInfo_t*>(out);
}

const QnnSystemContext_BinaryInfo_t* legacyInfo(QnnSystemContext_Handle_t h, const QnnSystemContext_BinaryInfo_t* in) {
  const ClientLayout l = layoutForMinor(13);  // tensor stride is what matters: 120 for every client < 2.14
  std::lock_guard<std::mutex> lock(g_mutex);
  auto* out = reinterpret_cast<QnnSystemContext_BinaryInfo_t*>(keep(h, sizeof(QnnSystemContext_BinaryInfo_t)));
  *out = *in;
  // V1 and V2 share their leading fields; V3 is newer than these clients: offer it as V2.
  // V3 has no hardware-info blob, so its fields sit elsewhere: copied one by one.
  if (out->version == QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3) {
    const QnnSystemContext_BinaryInfoV3_t& v3 = in->contextBinaryInfoV3;
    QnnSystemContext_BinaryInfoV2_t v2 = QNN_SYSTEM_CONTEXT_BINARY_INFO_V2_INIT;
    v2.backendId = v3.backendId;
    v2.buildId = v3.buildId;
    v2.coreApiVersion = v3.coreApiVersion;
    v2.backendApiVersion = v3.backendApiVersion;
    v2.socVersion = v3.socVersion;
    v2.contextBlobVersion = v3.contextBlobVersion;
    v2.contextBlobSize = v3.contextBlobSize;
    v2.numContextTensors = v3.numContextTensors;
    v2.contextTensors = v3.contextTensors;
    v2.numGraphs = v3.numGraphs;
    v2.graphs = v3.graphs;
    v2.platformInfo = v3.platformInfo;
    out->version = QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2;
    out->contextBinaryInfoV2 = v2;
  }
  auto& v1 = out->contextBinaryInfoV1;  // graphs and context tensors sit at the same offsets in V1/V2
  static_assert(offsetof(QnnSystemContext_BinaryInfoV1_t, graphs) == offsetof(QnnSystemContext_BinaryInfoV2_t, graphs),
                "V1/V2 graphs moved");
  v1.contextTensors = legacyTensors(h, l, v1.contextTensors, v1.numContextTensors);
  v1.graphs = legacyGraphs(h, l, v1.graphs, v1.numGraphs);
  return out;
}

Qnn_ErrorHandle_t getBinaryInfo(QnnSystemContext_Handle_t h, void* buffer, uint64_t size,
                                const QnnSystemContext_BinaryInfo_t** info, Qnn_ContextBinarySize_t* infoSize) {
  const QnnSystemContext_BinaryInfo_t* current = nullptr;
  Qnn_ErrorHandle_t err = g_currentSystem->systemContextGetBinaryInfo(h, buffer, size, &current, infoSize);
  if (err != QNN_SUCCESS || !info) return err;
  *info = legacyInfo(h, current);
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t getMetaData(QnnSystemContext_Handle_t h, const void* buffer, uint64_t size,
                              const QnnSystemContext_BinaryInfo_t** info) {
  const QnnSystemContext_BinaryInfo_t* current = nullptr;
  Qnn_ErrorHandle_t err = g_currentSystem->systemContextGetMetaData(h, buffer, size, &current);
  if (err != QNN_SUCCESS || !info) return err;
  *info = legacyInfo(h, current);
  return QNN_SUCCESS;
}

Qnn_ErrorHandle_t freeContext(QnnSystemContext_Handle_t h) {
  Qnn_ErrorHandle_t err = g_currentSystem->systemContextFree(h);
  if (err == QNN_SUCCESS) {
    std::lock_guard<std::mutex> lock(g_mutex);
    g_copies.erase(h);
  }
  return err;
}

// QnnSystemInterface_t as system API 1.1 clients read it: the table starts at offset 32.
struct LegacySystemProvider {
  uint32_t backendId;
  const char* providerName;
  Qnn_Version_t systemApiVersion;
  void* members[4];
};
static_assert(offsetof(LegacySystemProvider, members) == offsetof(QnnSystemInterface_t, v1_7), "provider moved");

}  // namespace

Qnn_ErrorHandle_t systemProvidersForClient(const QnnSystemInterface_t& current, uint32_t major, uint32_t minor,
                                           const void*** providerList, uint32_t* numProviders) {
  if (!providerList || !numProviders) return QNN_SYSTEM_INTERFACE_ERROR_INVALID_PARAMETER;
  static const void* currentList[1];
  static const void* legacyList[1];
  if (major == QNN_API_VERSION_MAJOR && minor >= 14 && minor <= QNN_API_VERSION_MINOR) {
    currentList[0] = &current;
    *providerList = currentList;
  } else if (major == 2 && minor >= 7 && minor <= 13) {
    static LegacySystemProvider p;
    static std::once_flag once;
    std::call_once(once, [&] {
      g_currentSystem = &current.v1_7;
      p.backendId = current.backendId;
      p.providerName = current.providerName;
      p.systemApiVersion = {1, 1, 0};
      p.members[0] = reinterpret_cast<void*>(current.v1_7.systemContextCreate);
      p.members[1] = reinterpret_cast<void*>(&getBinaryInfo);
      p.members[2] = reinterpret_cast<void*>(&getMetaData);
      p.members[3] = reinterpret_cast<void*>(&freeContext);
    });
    legacyList[0] = &p;
    *providerList = legacyList;
  } else {
    sdk::logMessage(nullptr, QNN_LOG_LEVEL_ERROR,
                    "no system table for clients of QNN API " + std::to_string(major) + "." + std::to_string(minor));
    return QNN_SYSTEM_INTERFACE_ERROR_NOT_SUPPORTED;
  }
  *numProviders = 1;
  return QNN_SUCCESS;
}

}  // namespace qnn::adapters
