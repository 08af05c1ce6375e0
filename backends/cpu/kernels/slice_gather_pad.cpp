// StridedSlice, Gather and Pad: ops that read a rearranged subset of the input
// (Pad also writes values that are not in it).
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>

#include "cpu/kernels/data_movement.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

// StridedSlice with TensorFlow semantics: one [begin, end, stride] row of
// `ranges` per output-producing axis, bit j of a mask applying to row j.
class StridedSliceKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    sdk::StridedSliceParams p;
    QNN_SDK_RETURN_IF_ERROR(sdk::readStridedSliceParams(params, &p));
    ranges_ = std::move(p.ranges);
    beginMask_ = p.beginMask, endMask_ = p.endMask, shrinkMask_ = p.shrinkMask, newAxesMask_ = p.newAxesMask;
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "StridedSlice";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    const size_t numRanges = ranges_.size() / 3, rank = in[0].rank();
    size_t numNew = 0;
    for (size_t j = 0; j < numRanges; ++j) numNew += bit(newAxesMask_, j);
    if (numRanges != rank + numNew)
      return sdk::invalidParam(std::string(op) + ": ranges has " + std::to_string(numRanges) +
                               " rows, expected rank(in[0]) + new axes = " + std::to_string(rank + numNew));
    const size_t es = sdk::dtypeSize(in[0].dtype);
    const std::vector<size_t> inStrides = rowMajorStrides(in[0].dims);
    std::vector<uint32_t> outDims;
    viewDims_.clear();
    viewSteps_.clear();
    startOffset_ = 0;
    size_t d = 0;  // input axis of row j
    for (size_t j = 0; j < numRanges; ++j) {
      if (bit(newAxesMask_, j)) {
        outDims.push_back(1);
        continue;
      }
      const int64_t dim = in[0].dims[d], stride = ranges_[3 * j + 2];
      int64_t begin = ranges_[3 * j], count;
      if (bit(shrinkMask_, j)) {
        if (begin < 0) begin += dim;
        if (begin < 0 || begin >= dim)
          return sdk::invalidParam(std::string(op) + ": shrink index " + std::to_string(ranges_[3 * j]) +
                                   " out of range for axis " + std::to_string(d) + " of size " + std::to_string(dim));
        count = 1;
      } else {
        const sdk::SliceRange r = sdk::resolveSliceRange(begin, ranges_[3 * j + 1], stride, dim,
                                                         bit(beginMask_, j), bit(endMask_, j));
        begin = r.begin;
        const int64_t span = stride > 0 ? r.end - r.begin : r.begin - r.end, step = stride > 0 ? stride : -stride;
        count = span > 0 ? (span + step - 1) / step : 0;
        outDims.push_back(static_cast<uint32_t>(count));
      }
      viewDims_.push_back(static_cast<size_t>(count));
      viewSteps_.push_back(static_cast<ptrdiff_t>(stride * int64_t(inStrides[d] * es)));
      if (count > 0) startOffset_ += static_cast<ptrdiff_t>(begin * int64_t(inStrides[d] * es));
      ++d;
    }
    elementSize_ = es;
    return checkOutputDimsAllowScalar(op, out[0], outDims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    copyStridedView(in[0].as<const uint8_t>() + startOffset_, out[0].as<uint8_t>(), viewDims_, viewSteps_,
                    elementSize_);
    return Status::ok();
  }

 private:
  static bool bit(uint32_t mask, size_t j) { return j < 32 && ((mask >> j) & 1u); }

  std::vector<int64_t> ranges_;
  uint32_t beginMask_ = 0, endMask_ = 0, shrinkMask_ = 0, newAxesMask_ = 0;
  std::vector<size_t> viewDims_;
  std::vector<ptrdiff_t> viewSteps_;
  ptrdiff_t startOffset_ = 0;
  size_t elementSize_ = 4;
};

// Gather (numpy.take): out = in[0][..., indices[...], ...] along `axis`.
class GatherKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam("Gather: axis is mandatory");
    axis_ = params.i32("axis", 0);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Gather";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    const int64_t rank = static_cast<int64_t>(in[0].rank());
    const int64_t axis = axis_ < 0 ? axis_ + rank : axis_;
    if (axis < 0 || axis >= rank)
      return sdk::invalidParam(std::string(op) + ": axis " + std::to_string(axis_) + " out of range for rank " +
                               std::to_string(rank));
    const auto& dims = in[0].dims;
    std::vector<uint32_t> outDims(dims.begin(), dims.begin() + axis);
    outDims.insert(outDims.end(), in[1].dims.begin(), in[1].dims.end());
    outDims.insert(outDims.end(), dims.begin() + axis + 1, dims.end());
    QNN_SDK_RETURN_IF_ERROR(checkOutputDimsAllowScalar(op, out[0], outDims));
    outer_ = 1;
    for (int64_t d = 0; d < axis; ++d) outer_ *= dims[d];
    size_t inner = 1;
    for (int64_t d = axis + 1; d < rank; ++d) inner *= dims[d];
    axisLen_ = dims[axis];
    chunkBytes_ = inner * sdk::dtypeSize(in[0].dtype);
    signedIndices_ = in[1].dtype == DType::kInt32;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t numIndices = in[1].numElements();
    // Negative int32 indices count from the end (as in numpy and ONNX).
    resolved_.resize(numIndices);
    for (size_t k = 0; k < numIndices; ++k) {
      int64_t idx = signedIndices_ ? int64_t(in[1].as<const int32_t>()[k]) : int64_t(in[1].as<const uint32_t>()[k]);
      if (idx < 0) idx += static_cast<int64_t>(axisLen_);
      if (idx < 0 || idx >= static_cast<int64_t>(axisLen_))
        return sdk::invalidArgument("Gather: index " + std::to_string(idx) + " at position " + std::to_string(k) +
                                    " out of range for axis size " + std::to_string(axisLen_));
      resolved_[k] = static_cast<size_t>(idx);
    }
    const uint8_t* src = in[0].as<const uint8_t>();
    uint8_t* dst = out[0].as<uint8_t>();
    for (size_t o = 0; o < outer_; ++o)
      for (size_t k = 0; k < numIndices; ++k)
        std::memcpy(dst + (o * numIndices + k) * chunkBytes_, src + (o * axisLen_ + resolved_[k]) * chunkBytes_,
                    chunkBytes_);
    return Status::ok();
  }

 private:
  int32_t axis_ = 0;
  size_t outer_ = 0, axisLen_ = 0, chunkBytes_ = 0;
  bool signedIndices_ = true;
  std::vector<size_t> resolved_;  // scratch: indices checked and made non-negative
};

// Pad. Every scheme is a per-axis map from output to input index (or "no
// input": the constant), built in prepare; execute copies rows through it.
class PadKernel final : public Kernel {
 public:
  enum Scheme : uint32_t { kConstant = 0, kMirrorSymmetric = 1, kMirrorReflect = 2, kEdge = 3 };

  Status init(const OpParams& params) override {
    if (!params.has("scheme") || !params.has("pad_amount"))
      return sdk::invalidParam("Pad: scheme and pad_amount are mandatory");
    scheme_ = params.u32("scheme", 0);
    if (scheme_ > kEdge) return sdk::invalidParam("Pad: unknown scheme " + std::to_string(scheme_));
    const std::vector<uint32_t> dims = params.dims("pad_amount");
    padAmount_ = params.ints("pad_amount", {});
    if (dims.size() != 2 || dims[1] != 2)
      return sdk::invalidParam("Pad: pad_amount must have shape [rank,2], got " + dimsToString(dims));
    for (int64_t p : padAmount_)
      if (p < 0) return sdk::invalidParam("Pad: pad_amount values must be >= 0");
    const sdk::ParamValue* constant = params.find("pad_constant_value");
    constantValue_ = constant ? constant->scalarAsDouble() : 0.0;
    constantIsFloat_ = constant && sdk::dtypeIsFloat(constant->dtype);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "Pad";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkSameElementType(op, "out[0]", in[0], out[0]));
    const size_t rank = in[0].rank();
    if (padAmount_.size() != rank * 2 || rank == 0)
      return sdk::invalidParam(std::string(op) + ": pad_amount has " + std::to_string(padAmount_.size() / 2) +
                               " rows, in[0] has rank " + std::to_string(rank));
    std::vector<uint32_t> outDims;
    indexMaps_.assign(rank, {});
    padBefore_.clear();
    for (size_t d = 0; d < rank; ++d) {
      const int64_t n = in[0].dims[d], before = padAmount_[2 * d], after = padAmount_[2 * d + 1];
      const int64_t maxPad = scheme_ == kMirrorReflect ? n - 1 : scheme_ == kMirrorSymmetric ? n : INT64_MAX;
      if (before > maxPad || after > maxPad || (scheme_ != kConstant && n == 0))
        return sdk::invalidParam(std::string(op) + ": padding " + std::to_string(before) + "," +
                                 std::to_string(after) + " of axis " + std::to_string(d) + " (size " +
                                 std::to_string(n) + ") is too large for the scheme");
      outDims.push_back(static_cast<uint32_t>(n + before + after));
      for (int64_t o = 0; o < n + before + after; ++o) indexMaps_[d].push_back(sourceIndex(o - before, n));
      padBefore_.push_back(static_cast<size_t>(before));
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], outDims));
    elementSize_ = sdk::dtypeSize(in[0].dtype);
    inDims_.assign(in[0].dims.begin(), in[0].dims.end());
    outDims_.assign(outDims.begin(), outDims.end());
    inStrides_ = rowMajorStrides(in[0].dims);
    return encodeConstant(out[0]);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t rank = outDims_.size(), es = elementSize_;
    const size_t rowLen = outDims_[rank - 1];
    size_t rows = 1;
    for (size_t d = 0; d + 1 < rank; ++d) rows *= outDims_[d];
    if (rowLen == 0) return Status::ok();
    const uint8_t* src = in[0].as<const uint8_t>();
    uint8_t* dst = out[0].as<uint8_t>();
    const std::vector<int64_t>& lastMap = indexMaps_[rank - 1];
    const size_t interior = inDims_[rank - 1], before = padBefore_[rank - 1];
    parallelFor(rows, std::max<size_t>(1, kElementwiseGrain / rowLen), [&](size_t begin, size_t end) {
      for (size_t row = begin; row < end; ++row) {
        uint8_t* o = dst + row * rowLen * es;
        int64_t offset = 0;  // input element offset of the row, -1 if it is all padding
        size_t rest = row;
        for (size_t d = rank - 1; d-- > 0 && offset >= 0;) {
          const int64_t i = indexMaps_[d][rest % outDims_[d]];
          rest /= outDims_[d];
          offset = i < 0 ? -1 : offset + i * static_cast<int64_t>(inStrides_[d]);
        }
        if (offset < 0) {
          for (size_t i = 0; i < rowLen; ++i) copyElement(o + i * es, constantBytes_, es);
          continue;
        }
        const uint8_t* s = src + offset * es;
        for (size_t i = 0; i < rowLen; ++i) {
          if (i == before && interior > 0) {  // the unpadded middle is one block
            std::memcpy(o + i * es, s, interior * es);
            i += interior - 1;
            continue;
          }
          copyElement(o + i * es, lastMap[i] < 0 ? constantBytes_ : s + lastMap[i] * es, es);
        }
      }
    });
    return Status::ok();
  }

 private:
  // The input index output index i (relative to the unpadded start) reads, or
  // -1 for the constant.
  int64_t sourceIndex(int64_t i, int64_t n) const {
    if (i >= 0 && i < n) return i;
    switch (scheme_) {
      case kMirrorReflect: return i < 0 ? -i : 2 * n - 2 - i;      // edge not repeated
      case kMirrorSymmetric: return i < 0 ? -i - 1 : 2 * n - 1 - i;  // edge repeated
      case kEdge: return i < 0 ? 0 : n - 1;
      default: return -1;
    }
  }

  // The constant in the tensor's own encoding: a float constant on a
  // fixed-point tensor is quantized with its scale/offset, anything else is
  // converted value-wise.
  Status encodeConstant(const TensorView& out) {
    double v = constantValue_;
    if (sdk::dtypeIsFixedPoint(out.dtype) && constantIsFloat_) {
      if (out.quant.kind != QuantInfo::Kind::kScaleOffset || !(out.quant.scale > 0.f))
        return sdk::invalidTensor("Pad: a float pad_constant_value needs a scale/offset encoding on out[0]");
      v = std::nearbyint(v / out.quant.scale) - out.quant.offset;
    }
    auto store = [&](auto typed) {
      using T = decltype(typed);
      double c = v;  // integers saturate (and NaN becomes 0) rather than overflow
      if constexpr (std::is_integral_v<T>)
        c = std::isnan(c) ? 0.0
                          : std::min(std::max(c, double(std::numeric_limits<T>::lowest())),
                                     double(std::numeric_limits<T>::max()));
      const T value = static_cast<T>(c);
      std::memcpy(constantBytes_, &value, sizeof(T));
    };
    switch (out.dtype) {
      case DType::kFloat32: store(float{}); break;
      case DType::kInt8: case DType::kSFixed8: store(int8_t{}); break;
      case DType::kUInt8: case DType::kUFixed8: case DType::kBool8: store(uint8_t{}); break;
      case DType::kInt16: case DType::kSFixed16: store(int16_t{}); break;
      case DType::kUInt16: case DType::kUFixed16: store(uint16_t{}); break;
      case DType::kInt32: case DType::kSFixed32: store(int32_t{}); break;
      case DType::kUInt32: case DType::kUFixed32: store(uint32_t{}); break;
      case DType::kInt64: store(int64_t{}); break;
      case DType::kUInt64: store(uint64_t{}); break;
      default:
        return sdk::unsupportedDType(std::string("Pad: in[0] datatype ") + sdk::dtypeName(out.dtype) +
                                     " is not supported");
    }
    return Status::ok();
  }

  uint32_t scheme_ = kConstant;
  std::vector<int64_t> padAmount_;
  double constantValue_ = 0.0;
  bool constantIsFloat_ = false;
  std::vector<std::vector<int64_t>> indexMaps_;
  std::vector<size_t> padBefore_, inDims_, outDims_, inStrides_;
  size_t elementSize_ = 4;
  uint8_t constantBytes_[8] = {};
};

}  // namespace

std::unique_ptr<Kernel> makeStridedSlice(const std::string& opType) {
  return opType == "StridedSlice" ? std::make_unique<StridedSliceKernel>() : nullptr;
}

std::unique_ptr<Kernel> makeGather(const std::string& opType) {
  return opType == "Gather" ? std::make_unique<GatherKernel>() : nullptr;
}

std::unique_ptr<Kernel> makePad(const std::string& opType) {
  return opType == "Pad" ? std::make_unique<PadKernel>() : nullptr;
}

}  // namespace qnn::cpu
