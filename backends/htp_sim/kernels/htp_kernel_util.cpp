#include "htp_sim/kernels/htp_kernel_util.h"

#include "core/generic_elementwise.h"
#include "core/worker_pool.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace qnn::htp {

namespace {
bool validScale(float s) { return std::isfinite(s) && s > 0.f; }
}  // namespace

Status tensorEncoding(const char* op, const char* role, const TensorView& t, Encoding* out) {
  *out = Encoding{};
  if (!sdk::dtypeIsFixedPoint(t.dtype)) return Status::ok();
  if (t.quant.kind != QuantInfo::Kind::kScaleOffset)
    return sdk::invalidTensor(std::string(op) + ": " + role + " (" + sdk::dtypeName(t.dtype) +
                              ") needs a per-tensor scale/offset encoding");
  if (!validScale(t.quant.scale))
    return sdk::invalidTensor(std::string(op) + ": " + role + " has scale " + std::to_string(t.quant.scale) +
                              ", expected a finite value > 0");
  *out = Encoding{t.quant.scale, t.quant.offset};
  return Status::ok();
}

Status channelEncodings(const char* op, const char* role, const TensorView& t, uint32_t axis, uint32_t channels,
                        std::vector<Encoding>* out) {
  out->clear();
  if (t.quant.kind == QuantInfo::Kind::kAxisScaleOffset) {
    if (t.quant.axis < 0 || uint32_t(t.quant.axis) != axis || t.quant.scales.size() != channels ||
        t.quant.offsets.size() != channels)
      return sdk::invalidTensor(std::string(op) + ": " + role + " per-axis encoding must be on axis " +
                                std::to_string(axis) + " with " + std::to_string(channels) + " scales/offsets");
    for (uint32_t c = 0; c < channels; ++c) {
      if (!validScale(t.quant.scales[c]))
        return sdk::invalidTensor(std::string(op) + ": " + role + " channel " + std::to_string(c) +
                                  " has a scale that is not finite and > 0");
      out->push_back(Encoding{t.quant.scales[c], t.quant.offsets[c]});
    }
    return Status::ok();
  }
  Encoding e;
  QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, role, t, &e));
  out->assign(channels, e);
  return Status::ok();
}

Status multiplierFor(const char* op, double real, fx::FixedPointMultiplier* out) {
  if (!fx::decomposeMultiplier(real, out))
    return sdk::invalidTensor(std::string(op) + ": the requantization multiplier " + std::to_string(real) +
                              " of these encodings is out of range [0, 2^31)");
  return Status::ok();
}


std::vector<int32_t> loadAll(const TensorView& t) {
  std::vector<int32_t> v(t.numElements());
  for (size_t i = 0; i < v.size(); ++i) v[i] = int32_t(loadInt(t, i));
  return v;
}


namespace {
template <typename T>
void storeTyped(const TensorView& t, size_t first, const int64_t* values, size_t n) {
  T* dst = t.as<T>() + first;
  for (size_t j = 0; j < n; ++j) dst[j] = T(values[j]);
}
template <typename TS, typename TA>
void loadTyped(const TensorView& t, size_t first, size_t step, size_t n, int32_t shift, TA* dst) {
  const TS* src = t.as<const TS>() + first;
  for (size_t j = 0; j < n; ++j) dst[j] = TA(int32_t(src[j * step]) + shift);
}
template <typename TA>
void loadShiftedAs(const TensorView& t, size_t first, size_t step, size_t n, int32_t shift, TA* dst) {
  switch (t.dtype) {
    case DType::kUFixed8: case DType::kUInt8: loadTyped<uint8_t>(t, first, step, n, shift, dst); break;
    case DType::kSFixed8: case DType::kInt8: loadTyped<int8_t>(t, first, step, n, shift, dst); break;
    case DType::kUFixed16: case DType::kUInt16: loadTyped<uint16_t>(t, first, step, n, shift, dst); break;
    case DType::kSFixed16: case DType::kInt16: loadTyped<int16_t>(t, first, step, n, shift, dst); break;
    default:
      for (size_t j = 0; j < n; ++j) dst[j] = TA(loadInt(t, first + j * step) + shift);
      break;
  }
}
}  // namespace

void storeInts(const TensorView& t, size_t first, const int64_t* values, size_t n) {
  switch (t.dtype) {
    case DType::kUFixed8: case DType::kUInt8: case DType::kBool8: storeTyped<uint8_t>(t, first, values, n); break;
    case DType::kSFixed8: case DType::kInt8: storeTyped<int8_t>(t, first, values, n); break;
    case DType::kUFixed16: case DType::kUInt16: storeTyped<uint16_t>(t, first, values, n); break;
    case DType::kSFixed16: case DType::kInt16: storeTyped<int16_t>(t, first, values, n); break;
    default:
      for (size_t j = 0; j < n; ++j) storeInt(t, first + j, values[j]);
      break;
  }
}

void loadShifted(const TensorView& t, size_t first, size_t step, size_t n, int32_t shift, uint8_t* dst) {
  loadShiftedAs(t, first, step, n, shift, dst);
}
void loadShifted(const TensorView& t, size_t first, size_t step, size_t n, int32_t shift, uint16_t* dst) {
  loadShiftedAs(t, first, step, n, shift, dst);
}

Status Requantizer::prepare(const char* op, const TensorView& in, const TensorView& out) {
  Encoding ein, eout;
  QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", in, &ein));
  QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", out, &eout));
  if (sdk::dtypeIsFixedPoint(in.dtype) != sdk::dtypeIsFixedPoint(out.dtype))
    return sdk::unsupportedDType(std::string(op) + ": in[0] " + sdk::dtypeName(in.dtype) + " and out[0] " +
                                 sdk::dtypeName(out.dtype) + " must both be fixed-point or both integer");
  identity_ = in.dtype == out.dtype && ein.scale == eout.scale && ein.offset == eout.offset &&
              in.quant.bitwidth == out.quant.bitwidth;
  inOffset_ = ein.offset;
  outOffset_ = eout.offset;
  range_ = rangeOf(out);
  return multiplierFor(op, double(ein.scale) / double(eout.scale), &m_);
}

std::vector<uint32_t> broadcastIndexMap(const std::vector<uint32_t>& in, const std::vector<uint32_t>& out) {
  if (in == out) return {};
  size_t total = 1;
  for (uint32_t d : out) total *= d;
  std::vector<uint32_t> padded(out.size() - in.size(), 1);
  padded.insert(padded.end(), in.begin(), in.end());
  const std::vector<size_t> inStrides = stridesOf(padded);
  std::vector<uint32_t> index(total);
  std::vector<uint32_t> coord(out.size(), 0);
  for (size_t i = 0; i < total; ++i) {
    size_t src = 0;
    for (size_t d = 0; d < out.size(); ++d) src += (padded[d] == 1 ? 0 : coord[d]) * inStrides[d];
    index[i] = uint32_t(src);
    for (size_t d = out.size(); d-- > 0;) {
      if (++coord[d] < out[d]) break;
      coord[d] = 0;
    }
  }
  return index;
}

namespace {
// The simulator's host workers (QNN_HTP_SIM_THREADS, default all cores).
sdk::WorkerPool& workerPool() {
  static sdk::WorkerPool pool(sdk::WorkerPool::threadsFromEnv("QNN_HTP_SIM_THREADS"));
  return pool;
}
}  // namespace

unsigned hostThreads() { return workerPool().threads(); }

size_t parallelChunkCount(size_t n, double work) {
  constexpr double kMinWorkPerThread = 2e5;
  return std::min<size_t>({hostThreads(), n, size_t(work / kMinWorkPerThread) + 1});
}

void parallelChunksOnPool(size_t n, size_t threads, const std::function<void(size_t, size_t)>& fn) {
  const size_t chunk = (n + threads - 1) / threads;
  const std::function<void(size_t)> chunkFn = [&](size_t c) {
    const size_t begin = c * chunk, end = std::min(n, begin + chunk);
    if (begin < end) fn(begin, end);
  };
  if (!workerPool().tryRun(threads, chunkFn)) fn(0, n);
}

std::vector<size_t> stridesOf(const std::vector<uint32_t>& dims) {
  std::vector<size_t> s(dims.size(), 1);
  for (size_t i = dims.size(); i-- > 1;) s[i - 1] = s[i] * dims[i];
  return s;
}

Status fullyConnectedShape(const TensorView& in, size_t k, size_t n, bool keepDims, size_t* rows,
                           std::vector<uint32_t>* outDims) {
  const auto& xd = in.dims;
  if (xd.empty() || k == 0 || in.numElements() % k != 0)
    return sdk::invalidTensor("FullyConnected: in[0] dims " + dimsToString(xd) + " are not a whole number of rows of " +
                              std::to_string(k));
  *rows = in.numElements() / k;
  if (xd.size() == 1) {
    *outDims = {uint32_t(n)};
  } else if (keepDims) {
    outDims->assign(xd.begin(), xd.end() - 1);
    outDims->push_back(uint32_t(n));
  } else {
    *outDims = {uint32_t(*rows), uint32_t(n)};
  }
  return Status::ok();
}

Status neuronHardSigmoidParams(const OpParams& params, HardSigmoidParams* out) {
  constexpr uint32_t kHardSigmoid = 2;  // QNN_OP_ELEMENT_WISE_NEURON_OPERATION_HARD_SIGMOID
  const uint32_t operation = params.u32("operation", 0);
  if (operation != kHardSigmoid) {
    bool defined = false;
    const char* target = sdk::genericElementWiseTarget("ElementWiseNeuron", operation, &defined);
    return sdk::notSupported("ElementWiseNeuron: operation " + std::to_string(operation) +
                             (target ? std::string(" (") + target + ")" : std::string()) +
                             " is not supported on the HTP; it runs HARD_SIGMOID (2) only");
  }
  out->alpha = params.f32("alpha", 0.2f);
  out->beta = params.f32("beta", 0.5f);
  return Status::ok();
}

Status topKParams(const OpParams& params, uint32_t* k, bool* largest) {
  if (!params.has("k")) return sdk::invalidParam("TopK: k is mandatory");
  *k = params.u32("k", 0);
  if (*k == 0) return sdk::invalidParam("TopK: k must be > 0");
  *largest = params.b("largest", true);
  return Status::ok();
}

Status topKShapes(const std::vector<TensorView>& in, const std::vector<TensorView>& out, uint32_t k, size_t* rowLen) {
  const char* op = "TopK";
  QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 2));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[1] (indices)", out[1], {DType::kInt32, DType::kUInt32}));
  const auto& d = in[0].dims;
  if (d.empty() || d.back() < k)
    return sdk::invalidParam("TopK: k = " + std::to_string(k) + " exceeds the last dimension of " + dimsToString(d));
  std::vector<uint32_t> want = d;
  want.back() = k;
  QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], want));
  QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[1], want));
  *rowLen = d.back();
  return Status::ok();
}

}  // namespace qnn::htp
