#include "runtime/qnn_convert.h"

#include <cstring>

#include "runtime/later_datatypes.h"

namespace qnn::sdk {

const Qnn_TensorV1_t& tensorFields(const Qnn_Tensor_t& t) { return t.v1; }
Qnn_TensorV1_t& tensorFields(Qnn_Tensor_t& t) { return t.v1; }

bool tensorVersionSupported(const Qnn_Tensor_t& t) {
  return t.version == QNN_TENSOR_VERSION_1 || static_cast<uint32_t>(t.version) == 2u;
}

namespace {

// QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION (core/tensor_view.h says what it means).
Status readBlockwiseExpansion(const Qnn_BlockwiseExpansion_t* b, const std::vector<uint32_t>& dims,
                              QuantInfo* out) {
  const std::string what = "blockwise-expansion quantization";
  if (!b) return invalidTensor(what + ": blockwiseExpansion is null");
  if (b->axis < 0 || static_cast<size_t>(b->axis) >= dims.size())
    return invalidTensor(what + ": axis " + std::to_string(b->axis) + " is outside the tensor's rank");
  const int32_t blockAxis = blockwiseBlockAxis(dims.size(), b->axis);
  if (blockAxis < 0)
    return invalidTensor(what + ": axis " + std::to_string(b->axis) + " of a rank-" + std::to_string(dims.size()) +
                         " tensor has no block axis (the channel axis must be the first or the last, rank >= 2)");
  const uint32_t channels = dims[b->axis], blockAxisLen = dims[blockAxis];
  if (b->numBlocksPerAxis == 0 || blockAxisLen % b->numBlocksPerAxis != 0)
    return invalidTensor(what + ": numBlocksPerAxis " + std::to_string(b->numBlocksPerAxis) +
                         " does not divide dimension " + std::to_string(blockAxis) + " (" +
                         std::to_string(blockAxisLen) + ") into equal blocks");
  if (!b->scaleOffsets) return invalidTensor(what + ": scaleOffsets is null (one per channel needed)");
  const bool storage16 = b->blockScaleStorageType == QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_16;
  if (!storage16 && b->blockScaleStorageType != QNN_BLOCKWISE_EXPANSION_BITWIDTH_SCALE_STORAGE_8)
    return invalidTensor(what + ": unknown blockScaleStorageType " +
                         std::to_string(static_cast<uint32_t>(b->blockScaleStorageType)));
  if (storage16 ? !b->blocksScale16 : !b->blocksScale8)
    return invalidTensor(what + ": the block scales are null");
  if (b->blockScaleBitwidth == 0 || b->blockScaleBitwidth > 16)
    return invalidTensor(what + ": blockScaleBitwidth " + std::to_string(b->blockScaleBitwidth) +
                         " is outside 1..16");
  out->kind = QuantInfo::Kind::kBlockwiseExpansion;
  out->axis = b->axis;
  out->numBlocks = b->numBlocksPerAxis;
  out->blockScaleBitwidth = b->blockScaleBitwidth;
  out->blockScales16 = storage16;
  for (uint32_t c = 0; c < channels; ++c) {
    out->scales.push_back(b->scaleOffsets[c].scale);
    out->offsets.push_back(b->scaleOffsets[c].offset);
  }
  const size_t n = static_cast<size_t>(channels) * b->numBlocksPerAxis;
  out->blockScales.resize(n);
  for (size_t i = 0; i < n; ++i) out->blockScales[i] = storage16 ? b->blocksScale16[i] : b->blocksScale8[i];
  return Status::ok();
}

const char* laterEncodingName(uint32_t e) {
  switch (e) {
    case 4: return "BLOCK";
    case 6: return "VECTOR";
    case 7: return "FLOAT_BLOCK";
    case 8: return "BW_AXIS_SCALE_OFFSET_MAPPED";
    case 9: return "BW_BLOCK_MAPPED";
    case 10: return "BW_BLOCKWISE_EXPANSION_MAPPED";
    case 11: return "BW_FLOAT_BLOCK";
    default: return nullptr;
  }
}

}  // namespace

Status readQuantization(const Qnn_QuantizeParams_t& q, const std::vector<uint32_t>& dims, QuantInfo* out) {
  *out = QuantInfo{};
  if (q.encodingDefinition != QNN_DEFINITION_DEFINED) return Status::ok();
  switch (q.quantizationEncoding) {
    case QNN_QUANTIZATION_ENCODING_SCALE_OFFSET:
      out->kind = QuantInfo::Kind::kScaleOffset;
      out->scale = q.scaleOffsetEncoding.scale;
      out->offset = q.scaleOffsetEncoding.offset;
      break;
    case QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET:
      out->kind = QuantInfo::Kind::kScaleOffset;
      out->scale = q.bwScaleOffsetEncoding.scale;
      out->offset = q.bwScaleOffsetEncoding.offset;
      out->bitwidth = q.bwScaleOffsetEncoding.bitwidth;
      break;
    case QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET: {
      const auto& a = q.axisScaleOffsetEncoding;
      if (a.axis < 0 || static_cast<size_t>(a.axis) >= dims.size())
        return invalidTensor("per-axis quantization axis " + std::to_string(a.axis) + " is outside the tensor's rank");
      if (a.numScaleOffsets != dims[a.axis] || (a.numScaleOffsets && !a.scaleOffset))
        return invalidTensor("per-axis quantization needs " + std::to_string(dims[a.axis]) +
                             " scale/offset pairs, got " + std::to_string(a.numScaleOffsets));
      out->kind = QuantInfo::Kind::kAxisScaleOffset;
      out->axis = a.axis;
      for (uint32_t i = 0; i < a.numScaleOffsets; ++i) {
        out->scales.push_back(a.scaleOffset[i].scale);
        out->offsets.push_back(a.scaleOffset[i].offset);
      }
      break;
    }
    case QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET: {
      const auto& a = q.bwAxisScaleOffsetEncoding;
      if (a.axis < 0 || static_cast<size_t>(a.axis) >= dims.size())
        return invalidTensor("per-axis quantization axis " + std::to_string(a.axis) + " is outside the tensor's rank");
      if (a.numElements != dims[a.axis] || (a.numElements && !a.scales))
        return invalidTensor("per-axis quantization needs " + std::to_string(dims[a.axis]) + " scales, got " +
                             std::to_string(a.numElements));
      out->kind = QuantInfo::Kind::kAxisScaleOffset;
      out->axis = a.axis;
      out->bitwidth = a.bitwidth;
      for (uint32_t i = 0; i < a.numElements; ++i) {
        out->scales.push_back(a.scales[i]);
        out->offsets.push_back(a.offsets ? a.offsets[i] : 0);
      }
      break;
    }
    case QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION:
      return readBlockwiseExpansion(q.blockwiseExpansion, dims, out);
    default:
      if (const char* later = laterEncodingName(static_cast<uint32_t>(q.quantizationEncoding)))
        return {StatusCode::kNotSupported,
                std::string("quantization encoding QNN_QUANTIZATION_ENCODING_") + later + " is not supported"};
      return invalidTensor("unknown quantization encoding " + std::to_string(q.quantizationEncoding));
  }
  return Status::ok();
}

Status applyPacked4BitWidth(const std::string& what, const std::string& dtype, QuantInfo* quant) {
  if (quant->kind == QuantInfo::Kind::kNone)
    return invalidTensor(what + ": fixed-point datatype " + dtype + " needs quantization params");
  if (quant->bitwidth != 0 && quant->bitwidth != 4)
    return invalidTensor(what + ": datatype " + dtype + " holds 4-bit values but its encoding says bitwidth " +
                         std::to_string(quant->bitwidth));
  quant->bitwidth = 4;
  return Status::ok();
}

Status readTensorInfo(const Qnn_Tensor_t& t, TensorUse use, TensorInfo* out) {
  if (!tensorVersionSupported(t))
    return invalidTensor("unsupported Qnn_Tensor_t version " + std::to_string(t.version));
  const Qnn_TensorV1_t& v = tensorFields(t);
  TensorInfo info;
  if (use == TensorUse::kCreate) {
    if (!v.name || !*v.name) return invalidTensor("tensor has no name");
    info.name = v.name;
  } else if (v.name) {
    info.name = v.name;
  }
  std::string what = "tensor '" + info.name + "'";
  uint32_t type = static_cast<uint32_t>(v.type);
  switch (type) {
    case QNN_TENSOR_TYPE_UPDATEABLE_STATIC: info.kind = TensorKind::kStatic; info.updateable = true; break;
    case QNN_TENSOR_TYPE_UPDATEABLE_NATIVE: info.kind = TensorKind::kNative; info.updateable = true; break;
    case QNN_TENSOR_TYPE_UPDATEABLE_APP_WRITE: info.kind = TensorKind::kAppWrite; info.updateable = true; break;
    case QNN_TENSOR_TYPE_UPDATEABLE_APP_READ: info.kind = TensorKind::kAppRead; info.updateable = true; break;
    case QNN_TENSOR_TYPE_UPDATEABLE_APP_READWRITE: info.kind = TensorKind::kAppReadWrite; info.updateable = true; break;
    default:
      if (type >= QNN_TENSOR_TYPE_OPTIONAL_APP_WRITE && type <= QNN_TENSOR_TYPE_OPTIONAL_APP_READWRITE)
        return invalidTensor(what + ": optional tensor types (OPTIONAL_APP_*) are not supported");
      if (type > QNN_TENSOR_TYPE_NULL) return invalidTensor(what + ": unknown tensor type " + std::to_string(type));
      info.kind = static_cast<TensorKind>(type);
  }
  if (info.kind == TensorKind::kNull) {
    // A NULL tensor stands for an omitted optional input: it has no data, and its
    // shape and encoding say nothing (ONNX Runtime's QNN EP sends datatype UNDEFINED
    // and dims {0}). It is kept as rank 0, which every kernel reads as "absent".
    const uint32_t raw = static_cast<uint32_t>(v.dataType);
    info.dtype = dtypeIsKnown(raw) ? static_cast<DType>(raw) : DType::kUndefined;
    info.updateable = false;
    *out = std::move(info);
    return Status::ok();
  }
  if (use == TensorUse::kParam) info.updateable = false;
  if (use == TensorUse::kParam) info.kind = TensorKind::kStatic;
  const uint32_t rawType = static_cast<uint32_t>(v.dataType);
  const bool packed4 = isPacked4Bit(rawType);
  if (!dtypeIsKnown(rawType) && !packed4)
    return invalidTensor(what + ": datatype " + qnnDatatypeName(rawType) + " is not supported");
  // Packed 4-bit data is a storage form of static weights only: a tensor the client
  // reads or writes at execution would need 4-bit buffers no kernel handles.
  if (packed4 && info.kind != TensorKind::kStatic)
    return invalidTensor(what + ": datatype " + qnnDatatypeName(rawType) +
                         " is supported only for STATIC tensors (packed 4-bit weights)");
  info.dtype = storageDType(rawType);
  if (v.dataFormat != QNN_TENSOR_DATA_FORMAT_FLAT_BUFFER)
    return invalidTensor(what + ": only the flat-buffer data format is supported");
  if (v.rank > 0 && !v.dimensions) return invalidTensor(what + ": rank " + std::to_string(v.rank) + " but no dimensions");
  if (v.rank > 16) return invalidTensor(what + ": rank " + std::to_string(v.rank) + " exceeds 16");
  uint64_t elements = 1;
  for (uint32_t i = 0; i < v.rank; ++i) {
    if (v.dimensions[i] == 0) return invalidTensor(what + ": dimension " + std::to_string(i) + " is 0");
    elements *= v.dimensions[i];
    if (elements > (1ull << 40)) return invalidTensor(what + ": too many elements");
    info.dims.push_back(v.dimensions[i]);
  }
  if (static_cast<uint32_t>(t.version) == 2u && t.v2.isDynamicDimensions) {
    for (uint32_t i = 0; i < v.rank; ++i)
      if (t.v2.isDynamicDimensions[i])
        return {StatusCode::kNotSupported, what + ": dynamic dimensions are not supported by this backend"};
  }
  QNN_SDK_RETURN_IF_ERROR(readQuantization(v.quantizeParams, info.dims, &info.quant));
  if (packed4) QNN_SDK_RETURN_IF_ERROR(applyPacked4BitWidth(what, qnnDatatypeName(rawType), &info.quant));
  if (dtypeIsFixedPoint(info.dtype) && info.quant.kind == QuantInfo::Kind::kNone && info.kind != TensorKind::kNull &&
      info.dtype != DType::kSFixed32 && info.dtype != DType::kUFixed32)
    return invalidTensor(what + ": fixed-point datatype " + dtypeName(info.dtype) + " needs quantization params");
  if (info.kind == TensorKind::kStatic) {
    if (v.memType != QNN_TENSORMEMTYPE_RAW) return invalidTensor(what + ": static data must be a client buffer");
    const size_t need = packed4 ? packed4BitBytes(elements) : info.byteSize();
    if (!v.clientBuf.data || v.clientBuf.dataSize != need)
      return invalidTensor(what + ": static data is " + std::to_string(v.clientBuf.dataSize) + " bytes, expected " +
                           std::to_string(need) +
                           (packed4 ? " (" + std::to_string(elements) + " 4-bit values, two per byte)" : ""));
    const auto* data = static_cast<const uint8_t*>(v.clientBuf.data);
    std::vector<uint8_t> values =
        packed4 ? unpack4Bit(data, elements, dtypeIsSigned(info.dtype)) : std::vector<uint8_t>(data, data + need);
    // Narrow values in wider containers (4-bit in 8-bit), as sign-extended values.
    QNN_SDK_RETURN_IF_ERROR(normalizeNarrowValues(what, info.dtype, info.quant.bitwidth, values.data(), values.size()));
    info.staticData = std::move(values);
  }
  *out = std::move(info);
  return Status::ok();
}

Status readParam(const Qnn_Param_t& p, std::string* name, ParamValue* value) {
  if (!p.name || !*p.name) return invalidParam("param has no name");
  *name = p.name;
  ParamValue v;
  if (p.paramType == QNN_PARAMTYPE_SCALAR) {
    const Qnn_Scalar_t& s = p.scalarParam;
    if (!dtypeIsKnown(static_cast<uint32_t>(s.dataType)))
      return invalidParam("param '" + *name + "': scalar datatype " + qnnDatatypeName(s.dataType) +
                          " is not supported");
    v.dtype = static_cast<DType>(s.dataType);
    switch (v.dtype) {
      case DType::kFloat32: v.scalar.f32 = s.floatValue; break;
      case DType::kUInt32: case DType::kUFixed32: v.scalar.u32 = s.uint32Value; break;
      case DType::kInt32: case DType::kSFixed32: v.scalar.i32 = s.int32Value; break;
      case DType::kUInt16: case DType::kUFixed16: v.scalar.u32 = s.uint16Value; v.dtype = DType::kUInt32; break;
      case DType::kInt16: case DType::kSFixed16: v.scalar.i32 = s.int16Value; v.dtype = DType::kInt32; break;
      case DType::kUInt8: case DType::kUFixed8: v.scalar.u32 = s.uint8Value; v.dtype = DType::kUInt32; break;
      case DType::kInt8: case DType::kSFixed8: v.scalar.i32 = s.int8Value; v.dtype = DType::kInt32; break;
      case DType::kBool8: v.scalar.b8 = s.bool8Value ? 1 : 0; break;
      default: return invalidParam("param '" + *name + "': scalar datatype " + dtypeName(v.dtype) + " is not supported");
    }
  } else if (p.paramType == QNN_PARAMTYPE_TENSOR) {
    TensorInfo info;
    Status st = readTensorInfo(p.tensorParam, TensorUse::kParam, &info);
    if (!st.isOk()) return invalidParam("param '" + *name + "': " + st.message());
    if (info.kind == TensorKind::kNull)
      return invalidParam("param '" + *name + "': a NULL tensor (an omitted optional input) cannot be a param");
    v.isTensor = true;
    v.dtype = info.dtype;
    v.dims = info.dims;
    v.data = info.staticData.vector();
  } else {
    return invalidParam("param '" + *name + "': unknown param type " + std::to_string(p.paramType));
  }
  *value = std::move(v);
  return Status::ok();
}

}  // namespace qnn::sdk
