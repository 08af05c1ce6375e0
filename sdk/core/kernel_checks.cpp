#include "core/kernel_checks.h"

#include <algorithm>
#include <sstream>

namespace qnn::sdk {

std::string dimsToString(const std::vector<uint32_t>& dims) {
  std::ostringstream os;
  os << '[';
  for (size_t i = 0; i < dims.size(); ++i) os << (i ? "," : "") << dims[i];
  os << ']';
  return os.str();
}

Status checkArity(const char* op, const std::vector<TensorView>& inputs, size_t minIn, size_t maxIn,
                  const std::vector<TensorView>& outputs, size_t numOut) {
  if (inputs.size() < minIn || inputs.size() > maxIn) {
    std::ostringstream os;
    os << op << ": expects " << minIn;
    if (maxIn != minIn) os << ".." << maxIn;
    os << " inputs, got " << inputs.size();
    return invalidTensor(os.str());
  }
  if (outputs.size() != numOut)
    return invalidTensor(std::string(op) + ": expects " + std::to_string(numOut) + " outputs, got " +
                         std::to_string(outputs.size()));
  return Status::ok();
}

Status checkOutputDims(const char* op, const TensorView& out, const std::vector<uint32_t>& expected) {
  if (out.dims != expected)
    return invalidTensor(std::string(op) + ": output dims " + dimsToString(out.dims) + " do not match the computed " +
                         dimsToString(expected));
  return Status::ok();
}

Status checkRank(const char* op, const char* role, const TensorView& t, size_t rank) {
  if (t.rank() != rank)
    return invalidTensor(std::string(op) + ": " + role + " must have rank " + std::to_string(rank) + ", got " +
                         dimsToString(t.dims));
  return Status::ok();
}

Status checkDType(const char* op, const char* role, const TensorView& t, std::initializer_list<DType> allowed) {
  for (DType d : allowed)
    if (t.dtype == d) return Status::ok();
  return unsupportedDType(std::string(op) + ": " + role + " datatype " + dtypeName(t.dtype) + " is not supported");
}

Status broadcastShapes(const char* op, const std::vector<uint32_t>& a, const std::vector<uint32_t>& b,
                       std::vector<uint32_t>* out) {
  const size_t rank = std::max(a.size(), b.size());
  out->assign(rank, 1);
  for (size_t i = 0; i < rank; ++i) {
    const uint32_t da = i < rank - a.size() ? 1 : a[i - (rank - a.size())];
    const uint32_t db = i < rank - b.size() ? 1 : b[i - (rank - b.size())];
    if (da != db && da != 1 && db != 1)
      return invalidTensor(std::string(op) + ": shapes " + dimsToString(a) + " and " + dimsToString(b) +
                           " do not broadcast");
    (*out)[i] = da == 1 ? db : da;
  }
  return Status::ok();
}

Status readUintTensorParam(const OpParams& params, const char* op, const char* name, std::vector<uint32_t> dims,
                           bool mandatory, std::vector<int64_t> def, std::vector<int64_t>* out) {
  const ParamValue* p = params.find(name);
  if (!p) {
    if (mandatory) return invalidParam(std::string(op) + ": missing mandatory param " + name);
    *out = std::move(def);
    return Status::ok();
  }
  if (!p->isTensor || p->dims != dims)
    return invalidParam(std::string(op) + ": param " + name + " must be a tensor of shape " + dimsToString(dims));
  *out = p->tensorAsInt64();
  size_t n = 1;
  for (uint32_t d : dims) n *= d;
  if (out->size() != n) return invalidParam(std::string(op) + ": param " + name + " has no valid data");
  for (int64_t v : *out)
    if (v < 0 || v > 0x7fffffff) return invalidParam(std::string(op) + ": param " + name + " out of range");
  return Status::ok();
}

Status readConvWindow(const OpParams& params, const char* op, bool hasDilation, ConvWindow* w) {
  std::vector<int64_t> stride, pad, dil{1, 1};
  QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "stride", {2}, true, {}, &stride));
  QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "pad_amount", {2, 2}, true, {}, &pad));
  if (hasDilation) QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "dilation", {2}, false, {1, 1}, &dil));
  if (stride[0] == 0 || stride[1] == 0) return invalidParam(std::string(op) + ": stride must be > 0");
  if (dil[0] == 0 || dil[1] == 0) return invalidParam(std::string(op) + ": dilation must be > 0");
  *w = ConvWindow{stride[0], stride[1], dil[0], dil[1], pad[0], pad[1], pad[2], pad[3]};
  return Status::ok();
}

int64_t convOutSize(int64_t in, int64_t filter, int64_t dil, int64_t stride, int64_t padBefore, int64_t padAfter) {
  const int64_t span = padBefore + in + padAfter - ((filter - 1) * dil + 1);
  return span < 0 ? 0 : span / stride + 1;
}

Status resolveConvGeometry(const char* op, const TensorView& in, const TensorView& filter, const TensorView& out,
                           const ConvWindow& w, uint32_t groups, bool depthwise, ConvGeometry* g) {
  const auto& x = in.dims;
  const auto& f = filter.dims;
  ConvGeometry r;
  r.batch = x[0], r.inH = x[1], r.inW = x[2], r.cin = x[3];
  r.fh = f[0], r.fw = f[1], r.cout = f[3];
  if (depthwise) {
    if (f[2] != 1 || r.cin == 0 || r.cout % r.cin != 0)
      return invalidTensor(std::string(op) + ": in[1] (filter) dims " + dimsToString(f) +
                           " must be [fh, fw, 1, channel_in * multiplier] with channel_in = " + std::to_string(r.cin));
    groups = r.cin;
  } else {
    if (groups == 0) return invalidParam(std::string(op) + ": group must be > 0");
    if (r.cin % groups != 0 || r.cout % groups != 0)
      return invalidTensor(std::string(op) + ": channel_in " + std::to_string(r.cin) + " and channel_out " +
                           std::to_string(r.cout) + " must be multiples of group " + std::to_string(groups));
    if (f[2] != r.cin / groups)
      return invalidTensor(std::string(op) + ": in[1] (filter) dims " + dimsToString(f) +
                           " need dim 2 = channel_in/group = " + std::to_string(r.cin / groups));
  }
  r.groups = groups, r.cinG = r.cin / groups, r.coutG = r.cout / groups;
  r.outH = convOutSize(r.inH, r.fh, w.dilH, w.strideH, w.padTop, w.padBottom);
  r.outW = convOutSize(r.inW, r.fw, w.dilW, w.strideW, w.padLeft, w.padRight);
  if (r.outH <= 0 || r.outW <= 0)
    return invalidTensor(std::string(op) + ": the padded input " + dimsToString(x) +
                         " is smaller than the dilated filter");
  QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out, {r.batch, uint32_t(r.outH), uint32_t(r.outW), r.cout}));
  *g = r;
  return Status::ok();
}

Status checkSameElementType(const char* op, const char* role, const TensorView& in, const TensorView& out) {
  if (dtypeSize(in.dtype) == 0)
    return unsupportedDType(std::string(op) + ": " + role + " datatype " + dtypeName(in.dtype) + " is not supported");
  if (out.dtype != in.dtype)
    return unsupportedDType(std::string(op) + ": " + role + " datatype " + dtypeName(out.dtype) +
                            " must equal the input's " + dtypeName(in.dtype));
  if (dtypeIsFixedPoint(in.dtype) && !(in.quant == out.quant))
    return unsupportedDType(std::string(op) + ": " + role +
                            " quantization differs from the input's; requantizing is not supported");
  return Status::ok();
}

Status checkOutputDimsAllowScalar(const char* op, const TensorView& out, const std::vector<uint32_t>& expected) {
  if (expected.empty() && out.dims == std::vector<uint32_t>{1}) return Status::ok();
  return checkOutputDims(op, out, expected);
}

Status readSpatialParam(const OpParams& params, const char* op, const char* name, size_t spatial, size_t perDim,
                        bool mandatory, int64_t def, int64_t minValue, std::vector<int64_t>* out) {
  const size_t count = spatial * perDim;
  const ParamValue* p = params.find(name);
  if (!p) {
    if (mandatory) return invalidParam(std::string(op) + ": missing mandatory param " + name);
    out->assign(count, def);
    return Status::ok();
  }
  std::vector<int64_t> values = p->tensorAsInt64();
  if (!p->isTensor && count != 1)
    return invalidParam(std::string(op) + ": param " + name + " must be a tensor of " + std::to_string(count) +
                        " values");
  if (values.size() != count)
    return invalidParam(std::string(op) + ": param " + name + " has " + std::to_string(values.size()) +
                        " values, expected " + std::to_string(count));
  for (int64_t v : values)
    if (v < minValue || v > 0x7fffffff)
      return invalidParam(std::string(op) + ": param " + name + " value " + std::to_string(v) +
                          " out of range (must be >= " + std::to_string(minValue) + ")");
  *out = std::move(values);
  return Status::ok();
}

Status readPoolWindow(const OpParams& params, const char* op, bool isMax, PoolWindow* w) {
  std::vector<int64_t> filter, stride, pad;
  QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "filter_size", {2}, true, {}, &filter));
  QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "stride", {2}, true, {}, &stride));
  QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op, "pad_amount", {2, 2}, true, {}, &pad));
  if (filter[0] == 0 || filter[1] == 0) return invalidParam(std::string(op) + ": filter_size must be > 0");
  if (stride[0] == 0 || stride[1] == 0) return invalidParam(std::string(op) + ": stride must be > 0");
  const uint32_t rounding = params.u32("rounding_mode", 0);
  if (rounding > 1) return invalidParam(std::string(op) + ": rounding_mode must be 0 (FLOOR) or 1 (CEIL)");
  *w = PoolWindow{filter[0], filter[1], stride[0], stride[1], pad[0], pad[1], pad[2], pad[3], rounding == 1,
                  !isMax && params.b("count_pad_for_edges", false)};
  return Status::ok();
}

Status readStridedSliceParams(const OpParams& params, StridedSliceParams* out) {
  if (!params.has("ranges")) return invalidParam("StridedSlice: ranges is mandatory");
  const std::vector<uint32_t> dims = params.dims("ranges");
  out->ranges = params.ints("ranges", {});
  if (dims.size() != 2 || dims[1] != 3 || out->ranges.size() != size_t(dims[0]) * 3)
    return invalidParam("StridedSlice: ranges must have shape [n,3], got " + dimsToString(dims));
  out->beginMask = params.u32("begin_mask", 0);
  out->endMask = params.u32("end_mask", 0);
  out->shrinkMask = params.u32("shrink_axes", 0);
  out->newAxesMask = params.u32("new_axes_mask", 0);
  for (size_t j = 0; j < out->ranges.size() / 3; ++j)
    if (out->ranges[3 * j + 2] == 0 && !(j < 32 && ((out->newAxesMask >> j) & 1u)))
      return invalidParam("StridedSlice: stride of range " + std::to_string(j) + " is 0");
  return Status::ok();
}

SliceRange resolveSliceRange(int64_t begin, int64_t end, int64_t stride, int64_t dim, bool beginMasked,
                             bool endMasked) {
  const int64_t lo = stride > 0 ? 0 : -1, hi = stride > 0 ? dim : dim - 1;
  auto resolve = [&](int64_t v, bool masked, int64_t maskedValue) {
    if (masked) return maskedValue;
    if (v < 0) v += dim;
    return std::min(std::max(v, lo), hi);
  };
  SliceRange r;
  r.begin = resolve(begin, beginMasked, stride > 0 ? 0 : dim - 1);
  r.end = resolve(end, endMasked, stride > 0 ? dim : -1);
  return r;
}

}  // namespace qnn::sdk
