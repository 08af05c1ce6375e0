#include "tools/qnn-context-binary-generator/adapter_sections.h"

#include <cstring>

#include "safetensors/safetensors.h"
#include "tools/common/adapter_encodings.h"
#include "tools/common/data_convert.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

std::vector<uint8_t> fullSection(const QnnBackend& backend, Qnn_ContextHandle_t ctx) {
  const auto& api = backend.api();
  Qnn_ContextBinarySize_t size = 0, written = 0;
  backend.check(api.contextGetBinarySectionSize(ctx, nullptr, QNN_CONTEXT_SECTION_UPDATABLE, &size),
                "QnnContext_getBinarySectionSize");
  std::vector<uint8_t> bytes(size);
  QnnContext_Buffer_t buffer;
  std::memset(&buffer, 0, sizeof buffer);
  buffer.version = QNN_CONTEXT_BUFFER_VERSION_1;
  buffer.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
  buffer.v1.binaryBuf.data = bytes.data();
  buffer.v1.binaryBuf.dataSize = size;
  backend.check(api.contextGetBinarySection(ctx, nullptr, QNN_CONTEXT_SECTION_UPDATABLE, &buffer, &written, nullptr,
                                            nullptr),
                "QnnContext_getBinarySection");
  bytes.resize(written);
  return bytes;
}

// The adapter tensor's values in the graph tensor's datatype.
std::vector<uint8_t> nativeData(const std::string& useCase, const std::string& name, const sdk::SafeTensor& t,
                                const TensorSpec& spec) {
  const std::string who = "use case '" + useCase + "': tensor '" + name + "'";
  uint64_t elements = 1;
  for (uint64_t d : t.shape) elements *= d;
  if (elements != spec.elementCount())
    throw ToolError(who + " has " + std::to_string(elements) + " values, the graph's tensor " + spec.shapeString() +
                    " holds " + std::to_string(spec.elementCount()));
  if (t.dtype == "F32" || t.dtype == "F16") {
    std::vector<float> values(elements);
    if (t.dtype == "F32") {
      std::memcpy(values.data(), t.data.data(), t.data.size());
    } else {
      for (size_t i = 0; i < elements; ++i) {
        uint16_t h;
        std::memcpy(&h, t.data.data() + 2 * i, 2);
        values[i] = halfToFloat(h);
      }
    }
    return floatToNative(values.data(), values.size(), spec);  // quantized with the tensor's own encoding
  }
  // Integer data: already in the tensor's representation when the widths agree.
  const bool integral = t.dtype[0] == 'I' || t.dtype[0] == 'U';
  if (integral && sdk::safetensorsDtypeSize(t.dtype) == dataTypeSize(spec.dataType) && !spec.perAxisQuantized &&
      spec.dataType != QNN_DATATYPE_FLOAT_32 && spec.dataType != QNN_DATATYPE_FLOAT_16)
    return t.data;
  throw ToolError(who + " is " + t.dtype + ", which cannot fill a " + dataTypeName(spec.dataType) +
                  " tensor (give F32/F16 values, or integers of the tensor's width)");
}

}  // namespace

std::vector<std::string> writeAdapterSections(const QnnBackend& backend, ContextSession& session,
                                              const TensorCatalog& catalog, const std::vector<AdapterUseCase>& useCases,
                                              const std::string& outputDir, const std::string& binaryName) {
  const auto& api = backend.api();
  Qnn_ContextHandle_t ctx = session.context();
  std::vector<std::string> written;
  std::vector<uint8_t> base = fullSection(backend, ctx);
  const std::string basePath = outputDir + "/" + binaryName + "_default_adapter.bin";
  writeBinaryFile(basePath, base.data(), base.size());
  written.push_back(basePath);
  for (const AdapterUseCase& u : useCases) {
    std::map<std::string, sdk::SafeTensor> weights;
    if (sdk::Status s = sdk::readSafetensors(u.weights, &weights); !s.isOk()) throw ToolError(s.message());
    // The adapter's own quantization: its float values are quantized with it,
    // and the section carries it as the tensors' new encoding.
    std::map<std::string, AdapterEncoding> encodings;
    if (!u.encodings.empty()) encodings = readAdapterEncodings(u.encodings);
    for (const auto& [name, e] : encodings)
      if (!weights.count(name))
        throw ToolError("use case '" + u.name + "': " + u.encodings + " has an encoding for '" + name +
                        "', which " + u.weights + " gives no values for");
    // Back to the base weights: a use case changes only the tensors its file holds.
    QnnContext_Buffer_t reset;
    std::memset(&reset, 0, sizeof reset);
    reset.version = QNN_CONTEXT_BUFFER_VERSION_1;
    reset.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
    reset.v1.binaryBuf.data = base.data();
    reset.v1.binaryBuf.dataSize = base.size();
    backend.check(api.contextApplyBinarySection(ctx, nullptr, QNN_CONTEXT_SECTION_UPDATABLE, &reset, nullptr, nullptr),
                  "QnnContext_applyBinarySection (base weights)");
    bool graphFound = u.graph.empty();
    std::map<std::string, bool> used;
    for (const auto& [name, t] : weights) used[name] = false;
    for (LoadedGraph& g : session.graphs()) {
      if (!u.graph.empty() && g.spec.name != u.graph) continue;
      graphFound = true;
      const auto& updateable = catalog.updateable(g.handle);
      std::vector<TensorSpec> specs;
      std::vector<std::vector<uint8_t>> data;
      for (const auto& [name, t] : weights) {
        auto it = updateable.find(name);
        if (it == updateable.end()) continue;
        if (it->second.type != QNN_TENSOR_TYPE_UPDATEABLE_STATIC)
          throw ToolError("use case '" + u.name + "': tensor '" + name + "' of graph '" + g.spec.name +
                          "' is updateable in its encoding only, not in its data");
        auto enc = encodings.find(name);
        if (enc != encodings.end() && t.dtype != "F32" && t.dtype != "F16")
          throw ToolError("use case '" + u.name + "': tensor '" + name + "' has an encoding, so its values must be "
                          "F32/F16, not " + t.dtype);
        specs.push_back(enc == encodings.end()
                            ? it->second
                            : withAdapterEncoding(it->second, enc->second,
                                                  "use case '" + u.name + "': tensor '" + name + "'"));
        data.push_back(nativeData(u.name, name, t, specs.back()));
        used[name] = true;
      }
      if (specs.empty()) continue;
      std::vector<Qnn_Tensor_t> tensors;
      for (size_t k = 0; k < specs.size(); ++k)
        tensors.push_back(makeClientTensor(specs[k], data[k].data(), static_cast<uint32_t>(data[k].size())));
      std::vector<const Qnn_Tensor_t*> pointers;
      for (auto& t : tensors) pointers.push_back(&t);
      backend.check(api.tensorUpdateGraphTensors(g.handle, pointers.data(), pointers.size()),
                    "QnnTensor_updateGraphTensors of graph '" + g.spec.name + "' (use case '" + u.name + "')");
      backend.check(api.graphFinalize(g.handle, nullptr, nullptr),
                    "QnnGraph_finalize of graph '" + g.spec.name + "' (use case '" + u.name + "')");
    }
    if (!graphFound) throw ToolError("use case '" + u.name + "': the model has no graph named '" + u.graph + "'");
    for (const auto& [name, isUsed] : used)
      if (!isUsed)
        throw ToolError("use case '" + u.name + "': tensor '" + name + "' of " + u.weights +
                        " is not an UPDATEABLE tensor of " + (u.graph.empty() ? "any graph" : "graph '" + u.graph + "'"));
    std::vector<uint8_t> section = fullSection(backend, ctx);
    const std::string path = outputDir + "/" + binaryName + "_" + u.name + ".bin";
    writeBinaryFile(path, section.data(), section.size());
    written.push_back(path);
  }
  return written;
}

}  // namespace qnn::tools
