#include "model_dlc/dlc_compose.h"

#include <cstring>
#include <map>
#include <set>
#include <string>

using namespace qnn_wrapper_api;

namespace qnn::dlc {

// A Qnn_Tensor_t (v1) describing `t`; pointers into `t`, its dims and `st`, which must outlive its use.
Qnn_Tensor_t tensorOf(const qnn::dlc::Tensor& t, QuantStorage* st) {
  std::vector<Qnn_ScaleOffset_t>* axisScales = &st->axisScales;
  std::vector<float>* bwScales = &st->bwScales;
  std::vector<int32_t>* bwOffsets = &st->bwOffsets;
  Qnn_Tensor_t q = QNN_TENSOR_INIT;
  q.version = QNN_TENSOR_VERSION_1;
  Qnn_TensorV1_t& v = q.v1;
  v.name = t.name.c_str();
  v.type = t.type;
  v.dataFormat = QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER;
  v.dataType = t.dataType;
  v.rank = uint32_t(t.dims.size());
  v.dimensions = const_cast<uint32_t*>(t.dims.data());
  v.memType = QNN_TENSORMEMTYPE_RAW;
  v.clientBuf.data = const_cast<uint8_t*>(t.data);
  v.clientBuf.dataSize = uint32_t(t.size);
  const qnn::dlc::QuantParams& qp = t.quant;
  if (qp.defined) {
    v.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
    const bool bw = qp.bitwidth < 8;  // as the converter's model.cpp: BW encodings below 8 bits
    if (qp.blockwise) {
      for (size_t i = 0; i < qp.scales.size(); ++i) axisScales->push_back({qp.scales[i], qp.offsets[i]});
      Qnn_BlockwiseExpansion_t& b = st->blockwise;
      b.axis = qp.axis;
      b.scaleOffsets = axisScales->data();
      b.numBlocksPerAxis = qp.numBlocks;
      b.blockScaleBitwidth = qp.blockScaleBitwidth;
      bool wide = false;
      for (uint16_t m : qp.blockScales) wide = wide || m > 255;
      if (wide) {
        st->blocks16 = qp.blockScales;
        b.blockScaleStorageType = QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_16;
        b.blocksScale16 = st->blocks16.data();
      } else {
        st->blocks8.assign(qp.blockScales.begin(), qp.blockScales.end());
        b.blockScaleStorageType = QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_8;
        b.blocksScale8 = st->blocks8.data();
      }
      v.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION;
      v.quantizeParams.blockwiseExpansion = &b;
    } else if (qp.axis < 0 && !bw) {
      v.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
      v.quantizeParams.scaleOffsetEncoding = {qp.scales[0], qp.offsets[0]};
    } else if (qp.axis < 0) {
      v.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET;
      v.quantizeParams.bwScaleOffsetEncoding = {qp.bitwidth, qp.scales[0], qp.offsets[0]};
    } else if (!bw) {
      axisScales->clear();
      for (size_t i = 0; i < qp.scales.size(); ++i) axisScales->push_back({qp.scales[i], qp.offsets[i]});
      v.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET;
      v.quantizeParams.axisScaleOffsetEncoding = {qp.axis, uint32_t(axisScales->size()), axisScales->data()};
    } else {
      *bwScales = qp.scales, *bwOffsets = qp.offsets;
      v.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET;
      v.quantizeParams.bwAxisScaleOffsetEncoding = {qp.bitwidth, qp.axis, uint32_t(bwScales->size()), bwScales->data(),
                                                   bwOffsets->data()};
    }
  }
  return q;
}

namespace {


Qnn_Scalar_t scalarOf(const qnn::dlc::Param& p) {
  Qnn_Scalar_t s = QNN_SCALAR_INIT;
  s.dataType = p.dataType;
  const uint8_t* b = p.bytes.data();
  switch (p.dataType) {
    case QNN_DATATYPE_FLOAT_32: std::memcpy(&s.floatValue, b, 4); break;
    case QNN_DATATYPE_INT_8: std::memcpy(&s.int8Value, b, 1); break;
    case QNN_DATATYPE_INT_16: std::memcpy(&s.int16Value, b, 2); break;
    case QNN_DATATYPE_INT_32: std::memcpy(&s.int32Value, b, 4); break;
    case QNN_DATATYPE_UINT_8: std::memcpy(&s.uint8Value, b, 1); break;
    case QNN_DATATYPE_UINT_16: std::memcpy(&s.uint16Value, b, 2); break;
    case QNN_DATATYPE_UINT_32: std::memcpy(&s.uint32Value, b, 4); break;
    case QNN_DATATYPE_BOOL_8: std::memcpy(&s.bool8Value, b, 1); break;
    default: break;
  }
  return s;
}

}  // namespace

ModelError_t composeGraph(const DlcFile& file, const Graph& g, QnnModel& model, Qnn_BackendHandle_t backend,
                          const QNN_INTERFACE_VER_TYPE& qnn, Qnn_ContextHandle_t context,
                          const GraphConfigInfo_t** configs, uint32_t numConfigs, bool debug) {
  ModelError_t err = MODEL_NO_ERROR;
  const QnnGraph_Config_t** graphConfigs = nullptr;
  VALIDATE(getQnnGraphConfigFromInfo(g.name.c_str(), configs, numConfigs, graphConfigs), err);
  VALIDATE(model.initialize(backend, qnn, context, g.name.c_str(), debug, 1, graphConfigs), err);
  std::map<std::string, const qnn::dlc::Tensor*> byName;
  for (const auto& t : g.tensors) byName[t.name] = &t;
  std::set<std::string> added, names;
  for (const auto& t : g.tensors) names.insert(t.name);
  auto addTensor = [&](const std::string& name) -> ModelError_t {
    auto it = byName.find(name);
    if (it == byName.end()) return MODEL_TENSOR_ERROR;
    QuantStorage storage;
    Qnn_Tensor_t q = tensorOf(*it->second, &storage);
    added.insert(name);
    const ModelError_t err = model.addTensor(name.c_str(), &q);
    if (err == MODEL_NO_ERROR && it->second->data) file.releasePages(it->second->data, it->second->size);
    return err;
  };
  for (const auto& name : g.inputs) VALIDATE(addTensor(name), err);
  for (const auto& node : g.nodes) {
    for (const auto& in : node.inputs)
      if (!added.count(in)) VALIDATE(addTensor(in), err);
    // Params: tensor params as static tensors named <node>_<param> (made unique), as model.cpp does.
    std::vector<Qnn_Param_t> params(node.params.size(), QNN_PARAM_INIT);
    std::vector<std::string> paramNames(node.params.size());
    std::vector<std::vector<uint32_t>> paramDims(node.params.size());
    for (size_t i = 0; i < node.params.size(); ++i) {
      const qnn::dlc::Param& p = node.params[i];
      params[i].name = p.name.c_str();
      if (!p.isTensor) {
        params[i].paramType = QNN_PARAMTYPE_SCALAR;
        params[i].scalarParam = scalarOf(p);
        continue;
      }
      std::string base = node.name + "_" + p.name, unique = base;
      for (int n = 1; names.count(unique); ++n) unique = base + "_" + std::to_string(n);
      names.insert(unique);
      paramNames[i] = unique;
      paramDims[i] = p.dims.empty() ? std::vector<uint32_t>{1} : p.dims;
      Qnn_Tensor_t t = QNN_TENSOR_INIT;
      t.version = QNN_TENSOR_VERSION_1;
      t.v1.name = paramNames[i].c_str();
      t.v1.type = QNN_TENSOR_TYPE_STATIC;
      t.v1.dataFormat = QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER;
      t.v1.dataType = p.dataType;
      t.v1.rank = uint32_t(p.dims.size());
      t.v1.dimensions = paramDims[i].data();
      t.v1.memType = QNN_TENSORMEMTYPE_RAW;
      t.v1.clientBuf.data = const_cast<uint8_t*>(p.bytes.data());
      t.v1.clientBuf.dataSize = uint32_t(p.bytes.size());
      params[i].paramType = QNN_PARAMTYPE_TENSOR;
      params[i].tensorParam = t;
    }
    std::vector<Qnn_Tensor_t> outputs;
    std::vector<QuantStorage> storage(node.outputs.size());
    for (size_t i = 0; i < node.outputs.size(); ++i) {
      auto it = byName.find(node.outputs[i]);
      if (it == byName.end()) return MODEL_TENSOR_ERROR;
      outputs.push_back(tensorOf(*it->second, &storage[i]));
      added.insert(node.outputs[i]);
    }
    VALIDATE(model.addNode(QNN_OPCONFIG_VERSION_1, node.name.c_str(), node.package.c_str(), node.type.c_str(),
                           params.empty() ? nullptr : params.data(), uint32_t(params.size()), node.inputs,
                           uint32_t(node.inputs.size()), outputs.data(), uint32_t(outputs.size())),
             err);
  }
  return err;
}

}  // namespace qnn::dlc
