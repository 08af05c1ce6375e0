#include "runtime/qnn_convert.h"

#include <cstring>

#include "adapters/client_datatypes.h"

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
    case QNN_QUANTIZATION_ENCODING_ARRAY_OF: {
      const Qnn_QuantizeParams_t* active = nullptr;
      QNN_SDK_RETURN_IF_ERROR(activeEncoding(q, &active));
      return readQuantization(*active, dims, out);
    }
    case QNN_QUANTIZATION_ENCODING_MICROSCALING:
      return {StatusCode::kNotSupported,
              "quantization encoding QNN_QUANTIZATION_ENCODING_MICROSCALING is supported only on STATIC FLOAT_8 "
              "(MXFP8 E4M3/E5M2) and FLOAT_4 (MXFP4 E2M1) data"};
    default:
      if (const char* later = laterEncodingName(static_cast<uint32_t>(q.quantizationEncoding)))
        return {StatusCode::kNotSupported,
                std::string("quantization encoding QNN_QUANTIZATION_ENCODING_") + later + " is not supported"};
      return invalidTensor("unknown quantization encoding " + std::to_string(q.quantizationEncoding));
  }
  return Status::ok();
}

Status applyPackedBitWidth(const std::string& what, const std::string& dtype, uint32_t bits, QuantInfo* quant) {
  if (quant->kind == QuantInfo::Kind::kNone)
    return invalidTensor(what + ": fixed-point datatype " + dtype + " needs quantization params");
  if (quant->bitwidth != 0 && quant->bitwidth != bits)
    return invalidTensor(what + ": datatype " + dtype + " holds " + std::to_string(bits) +
                         "-bit values but its encoding says bitwidth " + std::to_string(quant->bitwidth));
  quant->bitwidth = bits;
  return Status::ok();
}

namespace {

// The integer value of a one-element static tensor (ARRAY_OF's index).
Status readIndexValue(const Qnn_Tensor_t& t, int64_t* value) {
  const Qnn_TensorV1_t& v = tensorFields(t);
  const std::string what = std::string("ARRAY_OF index tensor '") + (v.name ? v.name : "") + "'";
  if (v.type != QNN_TENSOR_TYPE_STATIC)
    return {StatusCode::kNotSupported,
            what + " is not STATIC: an index chosen at execution is not supported (the encoding is resolved at "
                   "tensor creation)"};
  uint64_t elements = 1;
  for (uint32_t d = 0; v.dimensions && d < v.rank; ++d) elements *= v.dimensions[d];
  const DType dt = static_cast<DType>(v.dataType);
  const size_t size = dtypeIsKnown(static_cast<uint32_t>(v.dataType)) ? dtypeSize(dt) : 0;
  const bool integer = dt == DType::kInt8 || dt == DType::kInt16 || dt == DType::kInt32 || dt == DType::kInt64 ||
                       dt == DType::kUInt8 || dt == DType::kUInt16 || dt == DType::kUInt32 || dt == DType::kUInt64;
  if (!integer || elements != 1)
    return invalidTensor(what + " must hold one integer (INT_* / UINT_*) element");
  if (v.memType != QNN_TENSORMEMTYPE_RAW || !v.clientBuf.data || v.clientBuf.dataSize != size)
    return invalidTensor(what + ": its static data must be one " + std::to_string(size) + "-byte client buffer");
  uint64_t raw = 0;
  std::memcpy(&raw, v.clientBuf.data, size);
  if (dtypeIsSigned(dt) && size < 8 && (raw >> (size * 8 - 1)) & 1) raw |= ~uint64_t(0) << (size * 8);
  *value = static_cast<int64_t>(raw);
  return Status::ok();
}

}  // namespace

Status activeEncoding(const Qnn_QuantizeParams_t& q, const Qnn_QuantizeParams_t** active) {
  *active = &q;
  if (q.encodingDefinition != QNN_DEFINITION_DEFINED || q.quantizationEncoding != QNN_QUANTIZATION_ENCODING_ARRAY_OF)
    return Status::ok();
  const std::string what = "ARRAY_OF quantization";
  const Qnn_ArrayOf_t* a = q.arrayOfEncoding;
  if (!a) return invalidTensor(what + ": arrayOfEncoding is null");
  if (a->numElements == 0 || !a->vectorElements)
    return invalidTensor(what + ": no elements (numElements " + std::to_string(a->numElements) + ")");
  if (!a->indexTensor) return invalidTensor(what + ": indexTensor is null");
  if (a->quantizationEncoding == QNN_QUANTIZATION_ENCODING_ARRAY_OF)
    return {StatusCode::kNotSupported, what + ": nested ARRAY_OF encodings are not supported"};
  int64_t index = 0;
  QNN_SDK_RETURN_IF_ERROR(readIndexValue(*a->indexTensor, &index));
  if (index < 0 || index >= int64_t(a->numElements))
    return invalidTensor(what + ": index " + std::to_string(index) + " is outside 0.." +
                         std::to_string(a->numElements - 1));
  const Qnn_QuantizeParams_t* e = a->vectorElements[index];
  if (!e) return invalidTensor(what + ": element " + std::to_string(index) + " is null");
  if (e->encodingDefinition != QNN_DEFINITION_DEFINED || e->quantizationEncoding != a->quantizationEncoding)
    return invalidTensor(what + ": element " + std::to_string(index) + " is not a defined encoding of the array's type " +
                         std::to_string(a->quantizationEncoding));
  *active = e;
  return Status::ok();
}

namespace {

// FLOAT_8 / FLOAT_4 data: the element format and block scales its encoding states.
Status readMiniFloatEncoding(const std::string& what, uint32_t rawType, const Qnn_QuantizeParams_t& q,
                             const std::vector<uint32_t>& dims, MiniFloat* format, MxBlocks* mx, bool* scaled) {
  const bool fp8 = rawType == QNN_DATATYPE_FLOAT_8;
  const std::string dt = qnnDatatypeName(rawType);
  *scaled = false;
  if (q.encodingDefinition != QNN_DEFINITION_DEFINED || q.quantizationEncoding == QNN_QUANTIZATION_ENCODING_UNDEFINED) {
    if (fp8)
      return {StatusCode::kNotSupported,
              what + ": datatype FLOAT_8 without a MICROSCALING encoding is not supported (the tensor does not say "
                     "whether its elements are E4M3 or E5M2)"};
    *format = MiniFloat::kE2M1;  // the one 4-bit float format the header names
    return Status::ok();
  }
  if (q.quantizationEncoding != QNN_QUANTIZATION_ENCODING_MICROSCALING)
    return invalidTensor(what + ": datatype " + dt + " takes a MICROSCALING encoding or none, not encoding " +
                         std::to_string(q.quantizationEncoding));
  const Qnn_MicroscalingEncoding_t* m = q.microScalingEncoding;
  if (!m) return invalidTensor(what + ": microScalingEncoding is null");
  switch (m->valueEncoding) {
    case QNN_FLOAT_ENCODING_MXFP8_E5M2: *format = MiniFloat::kE5M2; break;
    case QNN_FLOAT_ENCODING_MXFP8_E4M3: *format = MiniFloat::kE4M3; break;
    case QNN_FLOAT_ENCODING_MXFP4_E2M1: *format = MiniFloat::kE2M1; break;
    case QNN_FLOAT_ENCODING_MXFP6_E3M2:
    case QNN_FLOAT_ENCODING_MXFP6_E2M3:
      return {StatusCode::kNotSupported,
              what + ": MXFP6 (E3M2/E2M3) elements are not supported (the header defines no storage for 6-bit "
                     "elements)"};
    default:
      return invalidTensor(what + ": unknown microscaling valueEncoding " + std::to_string(m->valueEncoding));
  }
  if (fp8 != (*format != MiniFloat::kE2M1))
    return invalidTensor(what + ": microscaling valueEncoding MXFP" + (fp8 ? "4" : "8") + "_" +
                         miniFloatName(*format) + " does not match datatype " + dt);
  if (m->blockRank != dims.size() || !m->blockDimensions)
    return invalidTensor(what + ": microscaling blockRank " + std::to_string(m->blockRank) +
                         " must equal the tensor's rank " + std::to_string(dims.size()) + " (with blockDimensions)");
  uint64_t blocks = 1;
  mx->blockDims.assign(m->blockDimensions, m->blockDimensions + m->blockRank);
  for (size_t d = 0; d < dims.size(); ++d) {
    if (mx->blockDims[d] == 0) return invalidTensor(what + ": microscaling block dimension " + std::to_string(d) + " is 0");
    blocks *= (dims[d] + mx->blockDims[d] - 1) / mx->blockDims[d];
  }
  if (m->blockCount != blocks)
    return invalidTensor(what + ": microscaling blockCount " + std::to_string(m->blockCount) + ", the blocks cut " +
                         std::to_string(blocks));
  const uint32_t scaleType = static_cast<uint32_t>(m->scaleDataType);
  mx->scales.resize(blocks);
  if (scaleType == QNN_DATATYPE_FLOAT_8) {
    if (!m->blockScales8) return invalidTensor(what + ": microscaling blockScales8 is null");
    for (size_t b = 0; b < blocks; ++b) mx->scales[b] = decodeE8M0(m->blockScales8[b]);
  } else if (scaleType == QNN_DATATYPE_FLOAT_16 || scaleType == QNN_DATATYPE_FLOAT_32) {
    if (!m->blockScalesFloat) return invalidTensor(what + ": microscaling blockScalesFloat is null");
    for (size_t b = 0; b < blocks; ++b) mx->scales[b] = m->blockScalesFloat[b];
  } else {
    return invalidTensor(what + ": microscaling scaleDataType " + qnnDatatypeName(scaleType) +
                         " is not FLOAT_8 (E8M0), FLOAT_16 or FLOAT_32");
  }
  *scaled = true;
  return Status::ok();
}

}  // namespace

Status checkMiniFloatEncoding(const std::string& what, uint32_t rawType, const Qnn_QuantizeParams_t& q,
                              const std::vector<uint32_t>& dims) {
  const Qnn_QuantizeParams_t* active = nullptr;
  QNN_SDK_RETURN_IF_ERROR(activeEncoding(q, &active));
  MiniFloat format;
  MxBlocks mx;
  bool scaled = false;
  return readMiniFloatEncoding(what, rawType, *active, dims, &format, &mx, &scaled);
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
  const uint32_t packed = packedBits(rawType);  // 2/4-bit types (FLOAT_4 included)
  const bool miniFloat = isMiniFloat(rawType);
  const bool narrow = packed != 0 || miniFloat;
  if (!dtypeIsKnown(rawType) && !narrow)
    return invalidTensor(what + ": datatype " + qnnDatatypeName(rawType) + " is not supported");
  // The narrow types are a storage form of static data: a tensor the client reads or
  // writes at execution would need buffers of that form no kernel handles.
  if (narrow && info.kind != TensorKind::kStatic)
    return {StatusCode::kNotSupported, what + ": datatype " + qnnDatatypeName(rawType) +
                                           " is supported only for STATIC tensors (unpacked or decoded at creation)"};
  info.dtype = storageDType(rawType);
  if (narrow) info.clientDataType = rawType;
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
  const Qnn_QuantizeParams_t* quant = nullptr;
  Status qs = activeEncoding(v.quantizeParams, &quant);
  if (!qs.isOk()) return Status(qs.code(), what + ": " + qs.message());
  if (quant != &v.quantizeParams) info.clientEncoding = "ARRAY_OF";
  MiniFloat format = MiniFloat::kE2M1;
  MxBlocks mx;
  bool scaled = false;
  if (miniFloat) {
    QNN_SDK_RETURN_IF_ERROR(readMiniFloatEncoding(what, rawType, *quant, info.dims, &format, &mx, &scaled));
    if (scaled && info.clientEncoding.empty()) info.clientEncoding = "MICROSCALING";
  } else {
    qs = readQuantization(*quant, info.dims, &info.quant);
    if (!qs.isOk()) return qs.code() == StatusCode::kNotSupported ? Status(qs.code(), what + ": " + qs.message()) : qs;
  }
  const bool fixedPacked = packed != 0 && dtypeIsFixedPoint(info.dtype);
  if (fixedPacked) QNN_SDK_RETURN_IF_ERROR(applyPackedBitWidth(what, qnnDatatypeName(rawType), packed, &info.quant));
  if (dtypeIsFixedPoint(info.dtype) && info.quant.kind == QuantInfo::Kind::kNone && info.kind != TensorKind::kNull &&
      info.dtype != DType::kSFixed32 && info.dtype != DType::kUFixed32)
    return invalidTensor(what + ": fixed-point datatype " + dtypeName(info.dtype) + " needs quantization params");
  if (info.kind == TensorKind::kStatic) {
    if (v.memType != QNN_TENSORMEMTYPE_RAW) return invalidTensor(what + ": static data must be a client buffer");
    const size_t need = narrow ? packedBytes(elements, packed) : info.byteSize();
    if (!v.clientBuf.data || v.clientBuf.dataSize != need)
      return invalidTensor(what + ": static data is " + std::to_string(v.clientBuf.dataSize) + " bytes, expected " +
                           std::to_string(need) +
                           (packed ? " (" + std::to_string(elements) + " " + std::to_string(packed) + "-bit values, " +
                                         (packed == 4 ? "two" : "four") + " per byte)"
                                   : ""));
    const auto* data = static_cast<const uint8_t*>(v.clientBuf.data);
    std::vector<uint8_t> values;
    if (miniFloat) {
      std::vector<float> decoded = decodeMiniFloats(format, data, elements, info.dims, scaled ? &mx : nullptr);
      values.resize(decoded.size() * sizeof(float));
      std::memcpy(values.data(), decoded.data(), values.size());
    } else if (packed) {
      values = unpackBits(data, elements, packed, dtypeIsSigned(info.dtype));
    } else {
      values.assign(data, data + need);
    }
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
