#include "tools/qnn-context-binary-utility/binary_info_json.h"

#include <string>
#include <type_traits>

#include "HTP/QnnHtpSystemContext.h"

#include "tools/common/tool_error.h"
#include "tools/qnn-context-binary-utility/qnn_names.h"

namespace qnn::tools {
namespace {

using Json = nlohmann::ordered_json;

std::string versionString(const Qnn_Version_t& v) {
  return std::to_string(v.major) + "." + std::to_string(v.minor) + "." + std::to_string(v.patch);
}

std::string str(const char* s) { return s ? s : ""; }

Json quantizationJson(const Qnn_QuantizeParams_t& q) {
  Json j;
  j["definition"] = definitionName(q.encodingDefinition);
  j["encoding"] = encodingName(q.quantizationEncoding);
  // The union is only meaningful for a defined encoding.
  if (q.encodingDefinition != QNN_DEFINITION_DEFINED) return j;
  switch (q.quantizationEncoding) {
    case QNN_QUANTIZATION_ENCODING_SCALE_OFFSET:
      j["scale"] = q.scaleOffsetEncoding.scale;
      j["offset"] = q.scaleOffsetEncoding.offset;
      break;
    case QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET:
      j["bitwidth"] = q.bwScaleOffsetEncoding.bitwidth;
      j["scale"] = q.bwScaleOffsetEncoding.scale;
      j["offset"] = q.bwScaleOffsetEncoding.offset;
      break;
    case QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET: {
      const auto& a = q.axisScaleOffsetEncoding;
      Json scales = Json::array(), offsets = Json::array();
      for (uint32_t i = 0; a.scaleOffset && i < a.numScaleOffsets; ++i) {
        scales.push_back(a.scaleOffset[i].scale);
        offsets.push_back(a.scaleOffset[i].offset);
      }
      j["axis"] = a.axis;
      j["scales"] = std::move(scales);
      j["offsets"] = std::move(offsets);
      break;
    }
    case QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET: {
      const auto& a = q.bwAxisScaleOffsetEncoding;
      Json scales = Json::array(), offsets = Json::array();
      for (uint32_t i = 0; a.scales && i < a.numElements; ++i) {
        scales.push_back(a.scales[i]);
        offsets.push_back(a.offsets ? a.offsets[i] : 0);
      }
      j["bitwidth"] = a.bitwidth;
      j["axis"] = a.axis;
      j["scales"] = std::move(scales);
      j["offsets"] = std::move(offsets);
      break;
    }
    default: break;
  }
  return j;
}

Json tensorJson(const Qnn_Tensor_t& t) {
  // Version 2 starts with version 1's fields in the same order.
  if (t.version != QNN_TENSOR_VERSION_1 && t.version != QNN_TENSOR_VERSION_2)
    throw ToolError("the system library returned a tensor of unknown version " + std::to_string(t.version));
  const Qnn_TensorV1_t& v = t.v1;
  Json j;
  j["name"] = str(v.name);
  j["id"] = v.id;
  j["type"] = tensorTypeName(v.type);
  j["dataFormat"] = v.dataFormat;
  j["dataType"] = dataTypeName(v.dataType);
  j["rank"] = v.rank;
  Json dims = Json::array();
  for (uint32_t i = 0; v.dimensions && i < v.rank; ++i) dims.push_back(v.dimensions[i]);
  j["dims"] = std::move(dims);
  j["quantization"] = quantizationJson(v.quantizeParams);
  return j;
}

Json tensorsJson(const Qnn_Tensor_t* tensors, uint32_t n) {
  if (n && !tensors) throw ToolError("the system library returned a null tensor array");
  Json out = Json::array();
  for (uint32_t i = 0; i < n; ++i) out.push_back(tensorJson(tensors[i]));
  return out;
}

Json graphJson(const QnnSystemContext_GraphInfo_t& g) {
  const auto version = g.version;
  if (version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1 && version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_2 &&
      version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3)
    throw ToolError("the system library returned graph info of unknown version " + std::to_string(g.version));
  const auto& v = g.graphInfoV1;  // versions 2 and 3 start with version 1's fields
  Json j;
  j["name"] = str(v.graphName);
  j["inputs"] = tensorsJson(v.graphInputs, v.numGraphInputs);
  j["outputs"] = tensorsJson(v.graphOutputs, v.numGraphOutputs);
  if (version == QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1) return j;
  j["updateableTensors"] = tensorsJson(g.graphInfoV2.updateableTensors, g.graphInfoV2.numUpdateableTensors);
  if (version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3 || !g.graphInfoV3.graphBlobInfo) return j;
  // The HTP's graph blob info (libQnnSystem.so gives it for HTP binaries).
  const auto* blob = static_cast<const QnnHtpSystemContext_GraphBlobInfo_t*>(g.graphInfoV3.graphBlobInfo);
  if (g.graphInfoV3.graphBlobInfoSize >= sizeof(*blob) && blob->version == QNN_SYSTEM_CONTEXT_HTP_GRAPH_INFO_BLOB_VERSION_V1) {
    const auto& b = blob->contextBinaryGraphBlobInfoV1;
    j["graphBlobInfo"] = {{"spillFillBufferSize", b.spillFillBufferSize}, {"vtcmSize", b.vtcmSize},
                          {"optimizationLevel", b.optimizationLevel}, {"htpDlbc", b.htpDlbc},
                          {"numHvxThreads", b.numHvxThreads}};
  }
  return j;
}

// What every binary info version has; version 3 drops the hardware-info blob and adds socModel.
template <typename Info>
Json infoJson(const Info& info, QnnSystemContext_BinaryInfoVersion_t version) {
  Json j;
  j["version"] = binaryInfoVersionName(version);
  Json backend;
  backend["id"] = info.backendId;
  backend["buildId"] = str(info.buildId);
  backend["coreApiVersion"] = versionString(info.coreApiVersion);
  backend["backendApiVersion"] = versionString(info.backendApiVersion);
  backend["socVersion"] = str(info.socVersion);
  if constexpr (std::is_same_v<Info, QnnSystemContext_BinaryInfoV3_t>) backend["socModel"] = info.socModel;
  j["backend"] = std::move(backend);
  Json context;
  context["blobVersion"] = versionString(info.contextBlobVersion);
  context["blobSize"] = info.contextBlobSize;
  if constexpr (!std::is_same_v<Info, QnnSystemContext_BinaryInfoV3_t>) {
    context["hwInfoBlobVersion"] = versionString(info.hwInfoBlobVersion);
    context["hwInfoBlobSize"] = info.hwInfoBlobSize;
  }
  context["numContextTensors"] = info.numContextTensors;
  context["contextTensors"] = tensorsJson(info.contextTensors, info.numContextTensors);
  context["numGraphs"] = info.numGraphs;
  j["context"] = std::move(context);
  if (info.numGraphs && !info.graphs) throw ToolError("the system library returned a null graph array");
  Json graphs = Json::array();
  for (uint32_t i = 0; i < info.numGraphs; ++i) graphs.push_back(graphJson(info.graphs[i]));
  j["graphs"] = std::move(graphs);
  return j;
}

}  // namespace

nlohmann::ordered_json binaryInfoToJson(const QnnSystemContext_BinaryInfo_t& info) {
  switch (info.version) {
    case QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_1: return infoJson(info.contextBinaryInfoV1, info.version);
    case QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2: return infoJson(info.contextBinaryInfoV2, info.version);
    case QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3: return infoJson(info.contextBinaryInfoV3, info.version);
    default: throw ToolError("the system library returned binary info of unknown version " + std::to_string(info.version));
  }
}

}  // namespace qnn::tools
