#include "tools/qnn-trace-replay/trace_tensors.h"

#include "tools/common/tool_error.h"

namespace qnn::replay {

using trace::Value;
using tools::ToolError;

const Value& field(const Value& v, const char* name) {
  const Value* f = v.field(name);
  if (!f) throw ToolError(std::string("malformed trace record: no field '") + name + "'");
  return *f;
}

void buildTensor(const Value& v, const trace::Trace& t, bool withData, bool allocate, OwnedTensor& out) {
  // Always rebuilt as a version-1 tensor: the fields every backend reads.
  Qnn_TensorV1_t& x = out.tensor.v1;
  out.tensor.version = QNN_TENSOR_VERSION_1;
  x.id = uint32_t(field(v, "id").u);
  out.name = field(v, "name").s;
  x.name = out.name.c_str();
  x.type = Qnn_TensorType_t(field(v, "type").u);
  x.dataFormat = Qnn_TensorDataFormat_t(field(v, "dataFormat").u);
  x.dataType = Qnn_DataType_t(field(v, "dataType").u);
  const Value& q = field(v, "quant");
  x.quantizeParams.encodingDefinition = Qnn_Definition_t(field(q, "definition").u);
  x.quantizeParams.quantizationEncoding = Qnn_QuantizationEncoding_t(field(q, "encoding").u);
  if (x.quantizeParams.encodingDefinition == QNN_DEFINITION_DEFINED) {
    if (x.quantizeParams.quantizationEncoding == QNN_QUANTIZATION_ENCODING_SCALE_OFFSET) {
      x.quantizeParams.scaleOffsetEncoding.scale = float(field(q, "scale").f);
      x.quantizeParams.scaleOffsetEncoding.offset = int32_t(field(q, "offset").i);
    } else if (x.quantizeParams.quantizationEncoding == QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET) {
      for (const Value& p : field(q, "scaleOffsets").items)
        out.scaleOffsets.push_back({float(p.items.at(0).f), int32_t(p.items.at(1).i)});
      x.quantizeParams.axisScaleOffsetEncoding.axis = int32_t(field(q, "axis").i);
      x.quantizeParams.axisScaleOffsetEncoding.numScaleOffsets = uint32_t(out.scaleOffsets.size());
      x.quantizeParams.axisScaleOffsetEncoding.scaleOffset = out.scaleOffsets.data();
    } else if (x.quantizeParams.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET) {
      x.quantizeParams.bwScaleOffsetEncoding = {uint32_t(field(q, "bitwidth").u), float(field(q, "scale").f),
                                                int32_t(field(q, "offset").i)};
    } else if (x.quantizeParams.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET) {
      for (const Value& s : field(q, "scales").items) out.scales.push_back(float(s.f));
      for (const Value& o : field(q, "offsets").items) out.offsets.push_back(int32_t(o.i));
      if (!out.offsets.empty() && out.offsets.size() != out.scales.size())
        throw ToolError("tensor '" + out.name + "': recorded per-axis encoding has " +
                        std::to_string(out.scales.size()) + " scales but " + std::to_string(out.offsets.size()) +
                        " offsets");
      Qnn_BwAxisScaleOffset_t& e = x.quantizeParams.bwAxisScaleOffsetEncoding;
      e = {uint32_t(field(q, "bitwidth").u), int32_t(field(q, "axis").i), uint32_t(out.scales.size()),
           out.scales.data(), out.offsets.empty() ? nullptr : out.offsets.data()};
    } else if (x.quantizeParams.quantizationEncoding == QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION) {
      for (const Value& p : field(q, "scaleOffsets").items)
        out.scaleOffsets.push_back({float(p.items.at(0).f), int32_t(p.items.at(1).i)});
      const uint32_t storage = uint32_t(field(q, "blockScaleStorageType").u);
      const bool wide = storage == QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_16;
      for (const Value& b : field(q, "blockScales").items) {
        if (b.u > (wide ? 0xffffu : 0xffu))
          throw ToolError("tensor '" + out.name + "': recorded block scale " + std::to_string(b.u) + " exceeds its storage");
        if (wide) out.blockScales16.push_back(uint16_t(b.u));
        else out.blockScales8.push_back(uint8_t(b.u));
      }
      Qnn_BlockwiseExpansion_t& e = out.blockwise;
      e = QNN_BLOCKWISE_EXPANSION_INIT;
      e.axis = int32_t(field(q, "axis").i);
      e.scaleOffsets = out.scaleOffsets.empty() ? nullptr : out.scaleOffsets.data();
      e.numBlocksPerAxis = uint32_t(field(q, "numBlocksPerAxis").u);
      e.blockScaleBitwidth = uint32_t(field(q, "blockScaleBitwidth").u);
      e.blockScaleStorageType = Qnn_BlockwiseExpansionBlockScaleStorageType_t(storage);
      if (wide) e.blocksScale16 = out.blockScales16.empty() ? nullptr : out.blockScales16.data();
      else e.blocksScale8 = out.blockScales8.empty() ? nullptr : out.blockScales8.data();
      x.quantizeParams.blockwiseExpansion = &out.blockwise;
    } else if (x.quantizeParams.quantizationEncoding == QNN_QUANTIZATION_ENCODING_MICROSCALING) {
      Qnn_MicroscalingEncoding_t& m = out.microscaling;
      m = QNN_MICROSCALING_ENCODING_INIT;
      m.valueEncoding = Qnn_FloatEncoding_t(field(q, "valueEncoding").u);
      m.blockCount = uint32_t(field(q, "blockCount").u);
      m.scaleDataType = Qnn_DataType_t(field(q, "scaleDataType").u);
      for (const Value& d : field(q, "blockDimensions").items) out.blockDimensions.push_back(uint32_t(d.u));
      m.blockRank = uint32_t(out.blockDimensions.size());
      m.blockDimensions = out.blockDimensions.empty() ? nullptr : out.blockDimensions.data();
      const bool e8m0 = m.scaleDataType == QNN_DATATYPE_FLOAT_8;
      for (const Value& b : field(q, "blockScales").items) {
        if (e8m0 && b.u > 0xffu)
          throw ToolError("tensor '" + out.name + "': recorded E8M0 block scale " + std::to_string(b.u) + " exceeds 8 bits");
        if (e8m0) out.blockScales8.push_back(uint8_t(b.u));
        else out.blockScalesFloat.push_back(float(b.f));
      }
      if (e8m0) m.blockScales8 = out.blockScales8.empty() ? nullptr : out.blockScales8.data();
      else m.blockScalesFloat = out.blockScalesFloat.empty() ? nullptr : out.blockScalesFloat.data();
      x.quantizeParams.microScalingEncoding = &out.microscaling;
    } else {
      throw ToolError("replay of this quantization encoding is not supported yet");
    }
  }
  for (const Value& d : field(v, "dims").items) out.dims.push_back(uint32_t(d.u));
  x.rank = uint32_t(out.dims.size());
  x.dimensions = out.dims.data();
  x.memType = Qnn_TensorMemType_t(field(v, "memType").u);
  if (x.memType != QNN_TENSORMEMTYPE_RAW && x.memType != QNN_TENSORMEMTYPE_MEMHANDLE)
    throw ToolError("replay of tensor memory type " + std::to_string(x.memType) + " is not supported ('" + out.name + "')");
  const Value* data = v.field("data");
  if (withData && data) {
    const std::vector<uint8_t>* bytes = t.blob(*data);
    if (!bytes) throw ToolError("tensor '" + out.name + "' refers to missing blob " + std::to_string(data->u));
    out.data = *bytes;
  } else if (allocate && x.memType == QNN_TENSORMEMTYPE_RAW) {
    out.data.assign(field(v, "dataSize").u, 0);
  }
  // A mem-handle tensor keeps its recorded bytes in `data` for the caller to
  // copy into the live registered buffer, whose handle the caller sets.
  if (x.memType == QNN_TENSORMEMTYPE_MEMHANDLE) {
    out.memHandle = &field(v, "memHandle");
    x.memHandle = nullptr;
    return;
  }
  x.clientBuf.data = out.data.empty() ? nullptr : out.data.data();
  x.clientBuf.dataSize = uint32_t(out.data.size());
}

void buildOp(const Value& v, const trace::Trace& t, OwnedOp& out) {
  out.name = field(v, "name").s;
  out.package = field(v, "packageName").s;
  out.type = field(v, "typeName").s;
  for (const Value& p : field(v, "params").items) {
    Qnn_Param_t param = QNN_PARAM_INIT;
    out.paramNames.push_back(field(p, "name").s);
    param.name = out.paramNames.back().c_str();
    param.paramType = Qnn_ParamType_t(field(p, "paramType").u);
    if (param.paramType == QNN_PARAMTYPE_SCALAR) {
      const Value& s = field(p, "scalar");
      const Value& value = field(s, "value");
      param.scalarParam.dataType = Qnn_DataType_t(field(s, "dataType").u);
      switch (param.scalarParam.dataType) {
        case QNN_DATATYPE_FLOAT_32: param.scalarParam.floatValue = float(value.f); break;
        case QNN_DATATYPE_INT_32: param.scalarParam.int32Value = int32_t(value.i); break;
        case QNN_DATATYPE_INT_16: param.scalarParam.int16Value = int16_t(value.i); break;
        case QNN_DATATYPE_INT_8: param.scalarParam.int8Value = int8_t(value.i); break;
        case QNN_DATATYPE_UINT_16: param.scalarParam.uint16Value = uint16_t(value.u); break;
        case QNN_DATATYPE_UINT_8:
        case QNN_DATATYPE_BOOL_8: param.scalarParam.uint8Value = uint8_t(value.u); break;
        default: param.scalarParam.uint32Value = uint32_t(value.u); break;
      }
    } else {
      out.tensors.emplace_back();
      buildTensor(field(p, "tensor"), t, true, false, out.tensors.back());
      param.tensorParam = out.tensors.back().tensor;
    }
    out.params.push_back(param);
  }
  for (const char* list : {"inputs", "outputs"})
    for (const Value& tv : field(v, list).items) {
      out.tensors.emplace_back();
      buildTensor(tv, t, false, false, out.tensors.back());
      (std::string(list) == "inputs" ? out.inputs : out.outputs).push_back(out.tensors.back().tensor);
    }
  out.op.version = QNN_OPCONFIG_VERSION_1;
  out.op.v1 = {out.name.c_str(), out.package.c_str(), out.type.c_str(), uint32_t(out.params.size()),
               out.params.data(), uint32_t(out.inputs.size()), out.inputs.data(), uint32_t(out.outputs.size()),
               out.outputs.data()};
}

}  // namespace qnn::replay
