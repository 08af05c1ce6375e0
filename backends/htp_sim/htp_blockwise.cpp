#include "htp_sim/htp_blockwise.h"

#include <cstring>

#include "core/quant_at.h"
#include "quant/fixed_point.h"

namespace qnn::htp {

using sdk::DType;
using sdk::QuantInfo;
using sdk::Status;
using sdk::TensorInfo;

namespace {

int64_t loadValue(const uint8_t* p, DType t, size_t i) {
  switch (t) {
    case DType::kUFixed8: return p[i];
    case DType::kSFixed8: return static_cast<int8_t>(p[i]);
    case DType::kUFixed16: { uint16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
    case DType::kSFixed16: { int16_t v; std::memcpy(&v, p + 2 * i, 2); return v; }
    default: return 0;
  }
}

void storeValue(uint8_t* p, DType t, size_t i, int64_t v) {
  switch (t) {
    case DType::kUFixed8: case DType::kSFixed8: p[i] = static_cast<uint8_t>(v); break;
    case DType::kUFixed16: case DType::kSFixed16: { uint16_t u = static_cast<uint16_t>(v); std::memcpy(p + 2 * i, &u, 2); break; }
    default: break;
  }
}

}  // namespace

Status expandBlockwise(const TensorInfo& in, TensorInfo* out) {
  *out = in;
  if (in.quant.kind != QuantInfo::Kind::kBlockwiseExpansion) return Status::ok();
  const std::string who = "tensor '" + in.name + "': blockwise-expansion encoding";
  if (in.kind != sdk::TensorKind::kStatic)
    return sdk::notSupported(who + " on a non-static tensor; the HTP expands blockwise encodings of static weights only");
  if (in.dtype != DType::kUFixed8 && in.dtype != DType::kSFixed8 && in.dtype != DType::kUFixed16 &&
      in.dtype != DType::kSFixed16)
    return sdk::notSupported(who + " on datatype " + sdk::dtypeName(in.dtype) + "; the HTP takes it on 8- and 16-bit weights");
  if (const char* why = sdk::quantShapeMismatch(in.quant, in.dims)) return sdk::invalidTensor(who + ": " + why);
  const QuantInfo& q = in.quant;
  auto perChannel = [&](TensorInfo* t) {
    t->quant = QuantInfo{};
    t->quant.kind = QuantInfo::Kind::kAxisScaleOffset;
    t->quant.axis = q.axis;
    t->quant.scales = q.scales;
    t->quant.offsets = q.offsets;
  };
  // Validating an op config without the weights' data (QnnBackend_validateOpConfig): the encoding
  // is judged, the values when the graph gets them.
  if (in.staticData.size() == 0) {
    perChannel(out);
    return Status::ok();
  }
  if (in.staticData.size() != in.byteSize()) return sdk::invalidTensor(who + ": static data size does not match");
  const sdk::QuantAt at(q, in.dims);
  const sdk::quant::QuantRange range = sdk::quant::quantRange(in.dtype);
  std::vector<uint8_t> data(in.staticData.data(), in.staticData.data() + in.staticData.size());
  const size_t n = in.numElements();
  for (size_t i = 0; i < n; ++i) {
    const int64_t o = q.offsets[at.channel(i)], m = at.multiplier(i);
    const int64_t v = (loadValue(data.data(), in.dtype, i) + o) * m - o;
    if (v < range.lo || v > range.hi)
      return sdk::notSupported(who + ": element " + std::to_string(i) + " expands to " + std::to_string(v) +
                               " (block multiplier " + std::to_string(m) + "), outside the " +
                               sdk::dtypeName(in.dtype) + " range the HTP expands into");
    storeValue(data.data(), in.dtype, i, v);
  }
  out->staticData = std::move(data);
  perChannel(out);
  return Status::ok();
}

Status expandBlockwiseTensors(sdk::GraphIR* graph, uint32_t* count) {
  *count = 0;
  for (auto& entry : graph->tensors) {
    TensorInfo& t = entry.second;
    if (t.quant.kind != QuantInfo::Kind::kBlockwiseExpansion) continue;
    TensorInfo expanded;
    QNN_SDK_RETURN_IF_ERROR(expandBlockwise(t, &expanded));
    t = std::move(expanded);
    ++*count;
  }
  return Status::ok();
}

}  // namespace qnn::htp
