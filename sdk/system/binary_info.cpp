#include "binary_info.h"

namespace qnn::system {
namespace {

Qnn_Version_t version(uint32_t major, uint32_t minor, uint32_t patch) { return Qnn_Version_t{major, minor, patch}; }

}  // namespace

BinaryInfoStorage::BinaryInfoStorage(const sdk::ContextBinaryContents& c, FormatVersion format, uint64_t binarySize) {
  // Version 2 is the newest the header defines; it is version 1 plus platformInfo,
  // which a binary of ours does not record (null).
  info_.version = QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2;
  const QnnSystemContext_BinaryInfoV2_t empty = QNN_SYSTEM_CONTEXT_BINARY_INFO_V2_INIT;
  info_.contextBinaryInfoV2 = empty;
  QnnSystemContext_BinaryInfoV2_t& v2 = info_.contextBinaryInfoV2;
  byteSize_ = sizeof(info_);

  v2.backendId = c.backendId;
  v2.buildId = keepString(c.backendBuildId);
  v2.coreApiVersion = version(c.coreApiMajor, c.coreApiMinor, c.coreApiPatch);
  v2.backendApiVersion = version(c.backendApiMajor, c.backendApiMinor, c.backendApiPatch);
  // No SoC or hardware-info blob in our format: an empty string (never null, so
  // clients that print it cannot crash) and a zero-sized blob.
  v2.socVersion = keepString("");
  v2.hwInfoBlobVersion = version(0, 0, 0);
  v2.hwInfoBlobSize = 0;
  v2.hwInfoBlob = nullptr;
  v2.contextBlobVersion = version(format.major, format.minor, 0);
  v2.contextBlobSize = binarySize;

  std::vector<const sdk::TensorInfo*> contextTensors;
  for (const auto& t : c.contextTensors) contextTensors.push_back(&t);
  v2.numContextTensors = static_cast<uint32_t>(contextTensors.size());
  v2.contextTensors = keepTensors(contextTensors);

  graphs_.reserve(c.graphs.size());
  for (const auto& g : c.graphs) {
    QnnSystemContext_GraphInfo_t gi = QNN_SYSTEM_CONTEXT_GRAPH_INFO_INIT;
    gi.version = QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1;
    auto inputs = g.inputs();
    auto outputs = g.outputs();
    gi.graphInfoV1.graphName = keepString(g.name);
    gi.graphInfoV1.numGraphInputs = static_cast<uint32_t>(inputs.size());
    gi.graphInfoV1.graphInputs = keepTensors(inputs);
    gi.graphInfoV1.numGraphOutputs = static_cast<uint32_t>(outputs.size());
    gi.graphInfoV1.graphOutputs = keepTensors(outputs);
    graphs_.push_back(gi);
  }
  byteSize_ += graphs_.size() * sizeof(QnnSystemContext_GraphInfo_t);
  v2.numGraphs = static_cast<uint32_t>(graphs_.size());
  v2.graphs = graphs_.empty() ? nullptr : graphs_.data();
  v2.platformInfo = nullptr;
}

const char* BinaryInfoStorage::keepString(const std::string& s) {
  byteSize_ += s.size() + 1;
  return strings_.emplace_back(s).c_str();
}

Qnn_Tensor_t* BinaryInfoStorage::keepTensors(const std::vector<const sdk::TensorInfo*>& tensors) {
  if (tensors.empty()) return nullptr;
  std::vector<Qnn_Tensor_t> array;
  array.reserve(tensors.size());
  for (const sdk::TensorInfo* t : tensors) array.push_back(makeTensor(*t));
  byteSize_ += array.size() * sizeof(Qnn_Tensor_t);
  return tensorArrays_.emplace_back(std::move(array)).data();
}

Qnn_Tensor_t BinaryInfoStorage::makeTensor(const sdk::TensorInfo& t) {
  // Version 1: every field the binary records fits it, and every client reads it.
  Qnn_Tensor_t out = QNN_TENSOR_INIT;
  out.version = QNN_TENSOR_VERSION_1;
  Qnn_TensorV1_t& v = out.v1;
  v.id = t.id;
  v.name = keepString(t.name);
  v.type = static_cast<Qnn_TensorType_t>(t.qnnTensorType());
  v.dataFormat = t.dataFormat;
  v.dataType = static_cast<Qnn_DataType_t>(t.dtype);
  setQuantization(t.quant, &v.quantizeParams);
  v.rank = static_cast<uint32_t>(t.dims.size());
  auto& dims = dims_.emplace_back(t.dims);
  byteSize_ += dims.size() * sizeof(uint32_t);
  v.dimensions = dims.empty() ? nullptr : dims.data();
  // Only the description is reported, never data: no buffer.
  v.memType = QNN_TENSORMEMTYPE_RAW;
  v.clientBuf.data = nullptr;
  v.clientBuf.dataSize = 0;
  return out;
}

void BinaryInfoStorage::setQuantization(const sdk::QuantInfo& q, Qnn_QuantizeParams_t* out) {
  const Qnn_QuantizeParams_t none = QNN_QUANTIZE_PARAMS_INIT;
  *out = none;
  using Kind = sdk::QuantInfo::Kind;
  if (q.kind == Kind::kNone) return;
  out->encodingDefinition = QNN_DEFINITION_DEFINED;
  // A bit width other than the dtype's (bitwidth != 0) needs the BW encodings,
  // the only ones that carry it; this mirrors how readQuantization reads them.
  if (q.kind == Kind::kScaleOffset) {
    if (q.bitwidth == 0) {
      out->quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
      out->scaleOffsetEncoding = {q.scale, q.offset};
    } else {
      out->quantizationEncoding = QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET;
      out->bwScaleOffsetEncoding = {q.bitwidth, q.scale, q.offset};
    }
    return;
  }
  const uint32_t n = static_cast<uint32_t>(q.scales.size());
  if (q.kind == Kind::kBlockwiseExpansion) {
    auto& so = scaleOffsets_.emplace_back();
    for (uint32_t i = 0; i < n; ++i) so.push_back({q.scales[i], i < q.offsets.size() ? q.offsets[i] : 0});
    Qnn_BlockwiseExpansion_t& b = blockwise_.emplace_back();
    b = QNN_BLOCKWISE_EXPANSION_INIT;
    b.axis = q.axis;
    b.scaleOffsets = so.empty() ? nullptr : so.data();
    b.numBlocksPerAxis = q.numBlocks;
    b.blockScaleBitwidth = q.blockScaleBitwidth;
    if (q.blockScales16) {
      auto& bs = blockScales16_.emplace_back(q.blockScales);
      b.blockScaleStorageType = QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_16;
      b.blocksScale16 = bs.data();
      byteSize_ += bs.size() * sizeof(uint16_t);
    } else {
      auto& bs = blockScales8_.emplace_back(q.blockScales.begin(), q.blockScales.end());
      b.blockScaleStorageType = QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_8;
      b.blocksScale8 = bs.data();
      byteSize_ += bs.size();
    }
    byteSize_ += sizeof(b) + so.size() * sizeof(Qnn_ScaleOffset_t);
    out->quantizationEncoding = QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION;
    out->blockwiseExpansion = &b;
    return;
  }
  if (q.bitwidth == 0) {
    auto& so = scaleOffsets_.emplace_back();
    so.reserve(n);
    for (uint32_t i = 0; i < n; ++i) so.push_back({q.scales[i], i < q.offsets.size() ? q.offsets[i] : 0});
    byteSize_ += so.size() * sizeof(Qnn_ScaleOffset_t);
    out->quantizationEncoding = QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET;
    out->axisScaleOffsetEncoding = {q.axis, n, so.empty() ? nullptr : so.data()};
  } else {
    auto& scales = scales_.emplace_back(q.scales);
    auto& offsets = offsets_.emplace_back(q.offsets);
    offsets.resize(n, 0);
    byteSize_ += n * (sizeof(float) + sizeof(int32_t));
    out->quantizationEncoding = QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET;
    out->bwAxisScaleOffsetEncoding = {q.bitwidth, q.axis, n, scales.empty() ? nullptr : scales.data(),
                                      offsets.empty() ? nullptr : offsets.data()};
  }
}

}  // namespace qnn::system
