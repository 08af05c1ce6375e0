#include "saver/saver_encode.h"

#include "saver/saver_handles.h"
#include "saver/saver_state.h"

namespace qnn::saver {

using trace::Value;

Value handleValue(const void* handle) {
  return handle ? Value::handle(HandleTable::idOf(const_cast<void*>(handle))) : Value::null();
}

namespace {

// The channel count of a per-channel encoding on `axis`: how many entries its arrays hold.
uint32_t channelsOf(const Qnn_TensorV1_t& t, int32_t axis) {
  return t.dimensions && axis >= 0 && static_cast<uint32_t>(axis) < t.rank ? t.dimensions[axis] : 0;
}

Value quantValue(const Qnn_TensorV1_t& t) {
  const Qnn_QuantizeParams_t& q = t.quantizeParams;
  Value v = Value::record();
  v.add("definition", Value::uint(uint32_t(q.encodingDefinition)));
  v.add("encoding", Value::uint(uint32_t(q.quantizationEncoding)));
  if (q.encodingDefinition != QNN_DEFINITION_DEFINED) return v;
  switch (q.quantizationEncoding) {
    case QNN_QUANTIZATION_ENCODING_SCALE_OFFSET:
      v.add("scale", Value::real(q.scaleOffsetEncoding.scale));
      v.add("offset", Value::sint(q.scaleOffsetEncoding.offset));
      break;
    case QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET: {
      v.add("axis", Value::sint(q.axisScaleOffsetEncoding.axis));
      Value so = Value::list();
      for (uint32_t k = 0; q.axisScaleOffsetEncoding.scaleOffset && k < q.axisScaleOffsetEncoding.numScaleOffsets; ++k) {
        Value pair = Value::list();
        pair.push(Value::real(q.axisScaleOffsetEncoding.scaleOffset[k].scale));
        pair.push(Value::sint(q.axisScaleOffsetEncoding.scaleOffset[k].offset));
        so.push(std::move(pair));
      }
      v.add("scaleOffsets", std::move(so));
      break;
    }
    case QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET:
      v.add("bitwidth", Value::uint(q.bwScaleOffsetEncoding.bitwidth));
      v.add("scale", Value::real(q.bwScaleOffsetEncoding.scale));
      v.add("offset", Value::sint(q.bwScaleOffsetEncoding.offset));
      break;
    case QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET: {
      const Qnn_BwAxisScaleOffset_t& e = q.bwAxisScaleOffsetEncoding;
      v.add("bitwidth", Value::uint(e.bitwidth));
      v.add("axis", Value::sint(e.axis));
      Value scales = Value::list(), offsets = Value::list();
      for (uint32_t k = 0; k < e.numElements; ++k) {
        if (e.scales) scales.push(Value::real(e.scales[k]));
        if (e.offsets) offsets.push(Value::sint(e.offsets[k]));
      }
      v.add("scales", std::move(scales));
      v.add("offsets", std::move(offsets));
      break;
    }
    case QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION: {
      const Qnn_BlockwiseExpansion_t* e = q.blockwiseExpansion;
      if (!e) break;
      const uint32_t channels = channelsOf(t, e->axis);
      v.add("axis", Value::sint(e->axis));
      v.add("numBlocksPerAxis", Value::uint(e->numBlocksPerAxis));
      v.add("blockScaleBitwidth", Value::uint(e->blockScaleBitwidth));
      v.add("blockScaleStorageType", Value::uint(uint32_t(e->blockScaleStorageType)));
      Value so = Value::list(), blocks = Value::list();
      for (uint32_t k = 0; e->scaleOffsets && k < channels; ++k) {
        Value pair = Value::list();
        pair.push(Value::real(e->scaleOffsets[k].scale));
        pair.push(Value::sint(e->scaleOffsets[k].offset));
        so.push(std::move(pair));
      }
      const bool wide = e->blockScaleStorageType == QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_16;
      const void* scales = wide ? static_cast<const void*>(e->blocksScale16) : static_cast<const void*>(e->blocksScale8);
      const uint64_t count = uint64_t(channels) * e->numBlocksPerAxis;
      for (uint64_t k = 0; scales && count <= (1u << 24) && k < count; ++k)
        blocks.push(Value::uint(wide ? e->blocksScale16[k] : e->blocksScale8[k]));
      v.add("scaleOffsets", std::move(so));
      v.add("blockScales", std::move(blocks));
      break;
    }
    case QNN_QUANTIZATION_ENCODING_MICROSCALING: {
      const Qnn_MicroscalingEncoding_t* m = q.microScalingEncoding;
      if (!m) break;
      v.add("valueEncoding", Value::uint(uint32_t(m->valueEncoding)));
      Value dims = Value::list(), scales = Value::list();
      for (uint32_t k = 0; m->blockDimensions && k < m->blockRank && k < 16; ++k)
        dims.push(Value::uint(m->blockDimensions[k]));
      v.add("blockDimensions", std::move(dims));
      v.add("blockCount", Value::uint(m->blockCount));
      v.add("scaleDataType", Value::uint(uint32_t(m->scaleDataType)));
      const bool e8m0 = m->scaleDataType == QNN_DATATYPE_FLOAT_8;
      for (uint32_t k = 0; (e8m0 ? m->blockScales8 != nullptr : m->blockScalesFloat != nullptr) &&
                           m->blockCount <= (1u << 24) && k < m->blockCount;
           ++k)
        scales.push(e8m0 ? Value::uint(m->blockScales8[k]) : Value::real(m->blockScalesFloat[k]));
      v.add("blockScales", std::move(scales));
      break;
    }
    default: break;
  }
  return v;
}

Value scalarValue(const Qnn_Scalar_t& s) {
  Value v = Value::record();
  v.add("dataType", Value::uint(uint32_t(s.dataType)));
  switch (s.dataType) {
    case QNN_DATATYPE_FLOAT_32: v.add("value", Value::real(s.floatValue)); break;
    case QNN_DATATYPE_INT_32: v.add("value", Value::sint(s.int32Value)); break;
    case QNN_DATATYPE_INT_16: v.add("value", Value::sint(s.int16Value)); break;
    case QNN_DATATYPE_INT_8: v.add("value", Value::sint(s.int8Value)); break;
    case QNN_DATATYPE_UINT_16: v.add("value", Value::uint(s.uint16Value)); break;
    case QNN_DATATYPE_UINT_8:
    case QNN_DATATYPE_BOOL_8: v.add("value", Value::uint(s.uint8Value)); break;
    default: v.add("value", Value::uint(s.uint32Value)); break;  // 32-bit payload as stored
  }
  return v;
}

}  // namespace

Value tensorValue(const Qnn_Tensor_t* tensor, bool withData) {
  if (!tensor) return Value::null();
  if (tensor->version != QNN_TENSOR_VERSION_1 && tensor->version != QNN_TENSOR_VERSION_2) {
    Value v = Value::record();
    v.add("version", Value::uint(uint32_t(tensor->version)));
    return v;
  }
  // v1 is a prefix of v2: read the common fields through v1.
  const Qnn_TensorV1_t& t = tensor->v1;
  Value v = Value::record();
  v.add("version", Value::uint(uint32_t(tensor->version)));
  v.add("id", Value::uint(t.id));
  v.add("name", Value::str(t.name));
  v.add("type", Value::uint(uint32_t(t.type)));
  v.add("dataFormat", Value::uint(uint32_t(t.dataFormat)));
  v.add("dataType", Value::uint(uint32_t(t.dataType)));
  v.add("quant", quantValue(t));
  Value dims = Value::list();
  for (uint32_t k = 0; t.dimensions && k < t.rank; ++k) dims.push(Value::uint(t.dimensions[k]));
  v.add("dims", std::move(dims));
  v.add("memType", Value::uint(uint32_t(t.memType)));
  if (t.memType == QNN_TENSORMEMTYPE_RAW) {
    v.add("dataSize", Value::uint(t.clientBuf.dataSize));
    if (withData && t.clientBuf.data && t.clientBuf.dataSize)
      v.add("data", SaverState::get().blob(t.clientBuf.data, t.clientBuf.dataSize));
  } else if (t.memType == QNN_TENSORMEMTYPE_MEMHANDLE) {
    v.add("memHandle", handleValue(t.memHandle));
    const void* bytes = nullptr;
    size_t size = 0;
    if (withData && SaverState::get().memViews().view(t.memHandle, &bytes, &size)) {
      v.add("dataSize", Value::uint(size));
      v.add("data", SaverState::get().blob(bytes, size));
    }
  }
  if (tensor->version == QNN_TENSOR_VERSION_2) {
    const Qnn_TensorV2_t& t2 = tensor->v2;
    if (t2.isDynamicDimensions) {
      Value dyn = Value::list();
      for (uint32_t k = 0; k < t2.rank; ++k) dyn.push(Value::uint(t2.isDynamicDimensions[k]));
      v.add("isDynamicDimensions", std::move(dyn));
    }
    v.add("sparseType", Value::uint(uint32_t(t2.sparseParams.type)));
    v.add("isProduced", Value::uint(t2.isProduced));
  }
  return v;
}

Value tensorListValue(const Qnn_Tensor_t* tensors, uint32_t count, bool withData) {
  Value list = Value::list();
  for (uint32_t k = 0; tensors && k < count; ++k) list.push(tensorValue(&tensors[k], withData));
  return list;
}

Value opConfigValue(const Qnn_OpConfig_t& op) {
  Value v = Value::record();
  v.add("version", Value::uint(uint32_t(op.version)));
  if (op.version != QNN_OPCONFIG_VERSION_1) return v;
  const Qnn_OpConfigV1_t& o = op.v1;
  v.add("name", Value::str(o.name));
  v.add("packageName", Value::str(o.packageName));
  v.add("typeName", Value::str(o.typeName));
  Value params = Value::list();
  for (uint32_t k = 0; o.params && k < o.numOfParams; ++k) {
    const Qnn_Param_t& p = o.params[k];
    Value pv = Value::record();
    pv.add("name", Value::str(p.name));
    pv.add("paramType", Value::uint(uint32_t(p.paramType)));
    if (p.paramType == QNN_PARAMTYPE_SCALAR) pv.add("scalar", scalarValue(p.scalarParam));
    if (p.paramType == QNN_PARAMTYPE_TENSOR) pv.add("tensor", tensorValue(&p.tensorParam, true));
    params.push(std::move(pv));
  }
  v.add("params", std::move(params));
  v.add("inputs", tensorListValue(o.inputTensors, o.numOfInputs, false));
  v.add("outputs", tensorListValue(o.outputTensors, o.numOfOutputs, false));
  return v;
}

}  // namespace qnn::saver
