#include "tools/common/system_library.h"

#include "QnnCommon.h"
#include "System/QnnSystemInterface.h"
#include "tools/common/dynamic_library.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

std::vector<GraphSpec> copyGraphs(const QnnSystemContext_GraphInfo_t* graphs, uint32_t n) {
  std::vector<GraphSpec> out;
  for (uint32_t i = 0; i < n; ++i) {
    const auto version = graphs[i].version;
    if (version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1 && version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_2 &&
        version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3)
      throw ToolError("system library returned graph info version " + std::to_string(version));
    const auto& g = graphs[i].graphInfoV1;  // versions 2 and 3 start with version 1's fields
    GraphSpec s;
    s.name = g.graphName ? g.graphName : "";
    for (uint32_t k = 0; k < g.numGraphInputs; ++k) s.inputs.push_back(TensorSpec::fromQnn(g.graphInputs[k]));
    for (uint32_t k = 0; k < g.numGraphOutputs; ++k) s.outputs.push_back(TensorSpec::fromQnn(g.graphOutputs[k]));
    out.push_back(std::move(s));
  }
  return out;
}

}  // namespace

std::vector<GraphSpec> graphSpecsFromSystemLibrary(const std::string& libraryPath, const std::vector<uint8_t>& binary) {
  DynamicLibrary lib;
  if (!lib.open(libraryPath)) throw ToolError("cannot load system library '" + libraryPath + "': " + lib.error());
  using GetProviders = Qnn_ErrorHandle_t (*)(const QnnSystemInterface_t***, uint32_t*);
  auto get = lib.function<GetProviders>("QnnSystemInterface_getProviders");
  const QnnSystemInterface_t** providers = nullptr;
  uint32_t n = 0;
  if (!get || get(&providers, &n) != QNN_SUCCESS || n == 0 || !providers || !providers[0])
    throw ToolError("'" + libraryPath + "' is not a QNN system library");
  const auto& api = providers[0]->QNN_SYSTEM_INTERFACE_VER_NAME;
  if (!api.systemContextCreate || !api.systemContextGetBinaryInfo || !api.systemContextFree)
    throw ToolError("system library '" + libraryPath + "' lacks the system context functions");
  QnnSystemContext_Handle_t ctx = nullptr;
  if (api.systemContextCreate(&ctx) != QNN_SUCCESS) throw ToolError("QnnSystemContext_create failed");
  // The binary info lives in ctx: copy it before freeing ctx.
  std::vector<uint8_t> copy(binary);
  const QnnSystemContext_BinaryInfo_t* info = nullptr;
  Qnn_ContextBinarySize_t infoSize = 0;
  Qnn_ErrorHandle_t st = api.systemContextGetBinaryInfo(ctx, copy.data(), copy.size(), &info, &infoSize);
  std::vector<GraphSpec> graphs;
  std::string error;
  try {
    if (st != QNN_SUCCESS || !info) {
      error = "QnnSystemContext_getBinaryInfo failed (error " + std::to_string(QNN_GET_ERROR_CODE(st)) + ")";
    } else if (info->version == QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_1) {
      graphs = copyGraphs(info->contextBinaryInfoV1.graphs, info->contextBinaryInfoV1.numGraphs);
    } else if (info->version == QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2) {
      graphs = copyGraphs(info->contextBinaryInfoV2.graphs, info->contextBinaryInfoV2.numGraphs);
    } else if (info->version == QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3) {
      graphs = copyGraphs(info->contextBinaryInfoV3.graphs, info->contextBinaryInfoV3.numGraphs);
    } else {
      error = "unknown binary info version " + std::to_string(info->version);
    }
  } catch (const ToolError& e) {
    error = e.what();
  }
  api.systemContextFree(ctx);
  if (!error.empty()) throw ToolError(error);
  return graphs;
}

}  // namespace qnn::tools
