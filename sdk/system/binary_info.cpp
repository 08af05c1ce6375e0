#include "system/binary_info.h"

#include "HTP/QnnHtpCommon.h"
#include "graph/memory_needs.h"
#include "prepared_blob/htp_prepared_head.h"
#include "prepared_blob/prepared_blob.h"

namespace qnn::system {
namespace {

Qnn_Version_t version(uint32_t major, uint32_t minor, uint32_t patch) { return Qnn_Version_t{major, minor, patch}; }

}  // namespace

BinaryInfoStorage::BinaryInfoStorage(const sdk::ContextBinaryContents& c, FormatVersion format, uint64_t binarySize) {
  byteSize_ = sizeof(info_);
  if (c.backendId == QNN_BACKEND_ID_HTP) {
    fillHtpV3(c, format, binarySize);
  } else {
    fillV2(c, format, binarySize);
  }
  byteSize_ += graphs_.size() * sizeof(QnnSystemContext_GraphInfo_t);
}

namespace {

// The options the HTP prepared a graph with, from the head of its prepared form
// (prepared_blob/htp_prepared_head.h); *out unchanged when the bytes have no such head.
bool readHtpHead(const std::vector<uint8_t>& bytes, sdk::HtpPreparedOptions* out) {
  sdk::binary::ByteReader r(bytes.data(), bytes.size());
  uint32_t version = 0;
  sdk::HtpPreparedOptions head;
  if (!sdk::readHtpPreparedMagic(r) || !r.u32(&version) || !sdk::readHtpPreparedOptions(r, &head)) return false;
  *out = head;
  return true;
}

// The HTP simulator's buffer alignment (one HVX vector), which its spill-fill answer uses too
// (QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE).
constexpr uint64_t kHtpAlignment = 128;

}  // namespace

// The fields binary info versions 2 and 3 name alike.
template <typename Info>
void BinaryInfoStorage::fillCommon(const sdk::ContextBinaryContents& c, FormatVersion format, uint64_t binarySize,
                                   Info* v) {
  v->backendId = c.backendId;
  v->buildId = keepString(c.backendBuildId);
  v->coreApiVersion = version(c.coreApiMajor, c.coreApiMinor, c.coreApiPatch);
  v->backendApiVersion = version(c.backendApiMajor, c.backendApiMinor, c.backendApiPatch);
  // No SoC name in our format: an empty string (never null, so clients that print it cannot crash).
  v->socVersion = keepString("");
  v->contextBlobVersion = version(format.major, format.minor, 0);
  v->contextBlobSize = binarySize;
  std::vector<const sdk::TensorInfo*> contextTensors;
  for (const auto& t : c.contextTensors) contextTensors.push_back(&t);
  v->numContextTensors = static_cast<uint32_t>(contextTensors.size());
  v->contextTensors = keepTensors(contextTensors);
}

// Name, inputs and outputs: the leading fields of every graph info version.
template <typename GraphInfo>
void BinaryInfoStorage::fillGraph(const sdk::GraphIR& g, GraphInfo* v) {
  auto inputs = g.inputs();
  auto outputs = g.outputs();
  v->graphName = keepString(g.name);
  v->numGraphInputs = static_cast<uint32_t>(inputs.size());
  v->graphInputs = keepTensors(inputs);
  v->numGraphOutputs = static_cast<uint32_t>(outputs.size());
  v->graphOutputs = keepTensors(outputs);
}

// CPU (and any non-HTP) binaries: version 2, which is version 1 plus platformInfo (null: not
// recorded), with graph info version 1.
void BinaryInfoStorage::fillV2(const sdk::ContextBinaryContents& c, FormatVersion format, uint64_t binarySize) {
  info_.version = QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2;
  const QnnSystemContext_BinaryInfoV2_t empty = QNN_SYSTEM_CONTEXT_BINARY_INFO_V2_INIT;
  info_.contextBinaryInfoV2 = empty;
  QnnSystemContext_BinaryInfoV2_t& v2 = info_.contextBinaryInfoV2;
  fillCommon(c, format, binarySize, &v2);
  // No hardware-info blob in our format: a zero-sized blob.
  v2.hwInfoBlobVersion = version(0, 0, 0);
  v2.hwInfoBlobSize = 0;
  v2.hwInfoBlob = nullptr;
  graphs_.reserve(c.graphs.size());
  for (const auto& g : c.graphs) {
    QnnSystemContext_GraphInfo_t gi = QNN_SYSTEM_CONTEXT_GRAPH_INFO_INIT;
    gi.version = QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1;
    fillGraph(g, &gi.graphInfoV1);
    graphs_.push_back(gi);
  }
  v2.numGraphs = static_cast<uint32_t>(graphs_.size());
  v2.graphs = graphs_.empty() ? nullptr : graphs_.data();
  v2.platformInfo = nullptr;
}

// HTP binaries: version 3 with graph info version 3, whose graphBlobInfo is the HTP's
// QnnHtpSystemContext_GraphBlobInfo_t version 1, as the vendor's clients read it (ONNX Runtime
// sizes its spill-fill buffer from spillFillBufferSize): the graph's peak intermediate bytes (what
// the backend answers for QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE), and the VTCM size
// (MB), optimization level and HVX threads its prepared form records.
void BinaryInfoStorage::fillHtpV3(const sdk::ContextBinaryContents& c, FormatVersion format, uint64_t binarySize) {
  info_.version = QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3;
  const QnnSystemContext_BinaryInfoV3_t empty = QNN_SYSTEM_CONTEXT_BINARY_INFO_V3_INIT;
  info_.contextBinaryInfoV3 = empty;
  QnnSystemContext_BinaryInfoV3_t& v3 = info_.contextBinaryInfoV3;
  fillCommon(c, format, binarySize, &v3);
  sdk::PreparedGraphBlobs prepared;
  if (!c.backendBlob.empty() && !sdk::decodePreparedGraphs(c.backendBlob, &prepared).isOk()) prepared.clear();
  graphs_.reserve(c.graphs.size());
  for (const auto& g : c.graphs) {
    QnnSystemContext_GraphInfo_t gi = QNN_SYSTEM_CONTEXT_GRAPH_INFO_INIT;
    gi.version = QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3;
    const QnnSystemContext_GraphInfoV3_t emptyGraph = QNN_SYSTEM_CONTEXT_GRAPH_INFO_V3_INIT;
    gi.graphInfoV3 = emptyGraph;
    QnnSystemContext_GraphInfoV3_t& v = gi.graphInfoV3;
    fillGraph(g, &v);
    std::vector<const sdk::TensorInfo*> updateable;
    for (const auto& [id, t] : g.tensors)
      if (t.updateable) updateable.push_back(&t);
    v.numUpdateableTensors = static_cast<uint32_t>(updateable.size());
    v.updateableTensors = keepTensors(updateable);
    sdk::HtpPreparedOptions header;
    auto it = prepared.find(g.name);
    if (it != prepared.end() && readHtpHead(it->second, &header) && !v3.socModel) v3.socModel = header.socModel;
    QnnHtpSystemContext_GraphBlobInfo_t& blob = graphBlobs_.emplace_back();
    blob = QnnHtpSystemContext_GraphBlobInfo_t{};
    blob.version = QNN_SYSTEM_CONTEXT_HTP_GRAPH_INFO_BLOB_VERSION_V1;
    auto& b1 = blob.contextBinaryGraphBlobInfoV1;
    b1.spillFillBufferSize = sdk::graphMemoryNeeds(g, kHtpAlignment).peakNativeBytes;
    b1.vtcmSize = header.vtcmMB;
    b1.optimizationLevel = header.optMode;
    b1.htpDlbc = 0;
    b1.numHvxThreads = header.hvxThreads;
    byteSize_ += sizeof(blob);
    v.graphBlobInfoSize = sizeof(blob);
    v.graphBlobInfo = &blob;
    v.startOpIndex = 0;
    v.endOpIndex = 0;
    graphs_.push_back(gi);
  }
  v3.numGraphs = static_cast<uint32_t>(graphs_.size());
  v3.graphs = graphs_.empty() ? nullptr : graphs_.data();
  v3.platformInfo = nullptr;
  v3.contextMetadataSize = 0;
  v3.contextMetadata = nullptr;
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
