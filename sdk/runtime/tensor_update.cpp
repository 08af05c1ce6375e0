#include "runtime/tensor_update.h"

#include <string>

#include "adapters/client_datatypes.h"
#include "runtime/qnn_convert.h"

namespace qnn::sdk {
namespace {

Status incompatible(const TensorInfo& t, const std::string& why) {
  return {StatusCode::kIncompatibleUpdate, "tensor '" + t.name + "' (id " + std::to_string(t.id) + "): " + why};
}

size_t channelCount(const QuantInfo& q) { return q.perChannel() ? q.scales.size() : 0; }

}  // namespace

Status checkTensorUpdate(const TensorInfo& target, const TensorUpdate& update) {
  if (!target.updateable) return incompatible(target, "was not created as an UPDATEABLE tensor type");
  if (update.hasData) {
    if (target.kind != TensorKind::kStatic)
      return incompatible(target, "only UPDATEABLE_STATIC tensors take new data; this one takes quantization only");
    if (update.data.size() != target.byteSize())
      return incompatible(target, "new data is " + std::to_string(update.data.size()) + " bytes, the tensor holds " +
                                      std::to_string(target.byteSize()));
  }
  if (update.hasQuant) {
    if (update.quant.kind != target.quant.kind)
      return incompatible(target, "the update changes the kind of quantization encoding");
    if (channelCount(update.quant) != channelCount(target.quant) || update.quant.axis != target.quant.axis)
      return incompatible(target, "the update changes the per-channel axis or channel count");
    if (update.quant.numBlocks != target.quant.numBlocks)
      return incompatible(target, "the update changes the number of blocks per channel");
    if (update.quant.bitwidth != target.quant.bitwidth)
      return incompatible(target, "the update changes the encoding's bitwidth");
  }
  return Status::ok();
}

Status readTensorUpdate(const TensorInfo& target, const Qnn_Tensor_t& client, TensorUpdate* update) {
  if (!tensorVersionSupported(client))
    return invalidTensor("unsupported Qnn_Tensor_t version " + std::to_string(client.version));
  const Qnn_TensorV1_t& v = tensorFields(client);
  if (!target.updateable) return incompatible(target, "was not created as an UPDATEABLE tensor type");
  // A packed tensor (API 2.39's narrow types) takes new data in its own packed type or in the
  // container form the record keeps.
  const uint32_t raw = static_cast<uint32_t>(v.dataType);
  const bool clientForm = target.clientDataType != 0 && raw == target.clientDataType;
  if (static_cast<DType>(v.dataType) != target.dtype && !clientForm)
    return incompatible(target, "the update's datatype " + qnnDatatypeName(v.dataType) + " is not the tensor's " +
                                    (target.clientDataType ? qnnDatatypeName(target.clientDataType) + " (kept as " +
                                                                 dtypeName(target.dtype) + ")"
                                                           : std::string(dtypeName(target.dtype))));
  const uint32_t bits = clientForm ? packedBits(raw) : 0;
  if (clientForm && (isMiniFloat(raw) || !target.clientEncoding.empty()))
    return {StatusCode::kNotSupported, "tensor '" + target.name + "': updates of " + qnnDatatypeName(raw) +
                                           (target.clientEncoding.empty() ? "" : " / " + target.clientEncoding) +
                                           " tensors are not supported (decoded at creation)"};
  if (v.rank != 0) {
    if (!v.dimensions) return invalidTensor("tensor '" + target.name + "': rank given without dimensions");
    std::vector<uint32_t> dims(v.dimensions, v.dimensions + v.rank);
    if (dims != target.dims) return incompatible(target, "the update changes the tensor's shape");
  }
  TensorUpdate u;
  if (v.quantizeParams.encodingDefinition == QNN_DEFINITION_DEFINED) {
    u.hasQuant = true;
    QNN_SDK_RETURN_IF_ERROR(readQuantization(v.quantizeParams, target.dims, &u.quant));
    if (u.quant.bitwidth == 0) u.quant.bitwidth = target.quant.bitwidth;
  }
  if (v.memType == QNN_TENSORMEMTYPE_RAW && v.clientBuf.data) {
    const auto* p = static_cast<const uint8_t*>(v.clientBuf.data);
    if (target.kind != TensorKind::kStatic)
      return incompatible(target, "only UPDATEABLE_STATIC tensors take new data; this one takes quantization only");
    const size_t need = bits ? packedBytes(target.numElements(), bits) : target.byteSize();
    if (v.clientBuf.dataSize != need)
      return incompatible(target, "new data is " + std::to_string(v.clientBuf.dataSize) + " bytes, the tensor holds " +
                                      std::to_string(need) + (bits ? " (packed)" : ""));
    u.hasData = true;
    if (bits)
      u.data = unpackBits(p, target.numElements(), bits, dtypeIsSigned(target.dtype));
    else
      u.data.assign(p, p + v.clientBuf.dataSize);
    QNN_SDK_RETURN_IF_ERROR(normalizeNarrowValues("tensor '" + target.name + "'", target.dtype, target.quant.bitwidth,
                                                  u.data.data(), u.data.size()));
  }
  if (!u.hasData && !u.hasQuant)
    return invalidTensor("tensor '" + target.name + "': the update carries neither data nor quantization");
  QNN_SDK_RETURN_IF_ERROR(checkTensorUpdate(target, u));
  *update = std::move(u);
  return Status::ok();
}

void applyTensorUpdates(GraphIR& ir, const TensorUpdates& updates, TensorUpdates* previous) {
  for (const auto& [id, u] : updates) {
    auto it = ir.tensors.find(id);
    if (it == ir.tensors.end()) continue;
    TensorInfo& t = it->second;
    TensorUpdate old;
    if (u.hasData) {
      old.hasData = true;
      old.data = t.staticData.vector();
      // Same size: the bytes are overwritten in place.
      t.staticData.assign(u.data.begin(), u.data.end());
    }
    if (u.hasQuant) {
      old.hasQuant = true;
      old.quant = t.quant;
      t.quant = u.quant;
    }
    if (previous) (*previous)[id] = std::move(old);
  }
}

void mergeTensorUpdates(TensorUpdates& earlier, const TensorUpdates& later) {
  for (const auto& [id, u] : later) {
    TensorUpdate& e = earlier[id];
    if (u.hasData) {
      e.hasData = true;
      e.data = u.data;
    }
    if (u.hasQuant) {
      e.hasQuant = true;
      e.quant = u.quant;
    }
  }
}

}  // namespace qnn::sdk
