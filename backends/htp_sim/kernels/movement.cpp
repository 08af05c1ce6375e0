// Quantized data movement: Reshape, Squeeze, ExpandDims, Transpose, Tile,
// StridedSlice, Pad, Concat, Split, Gather. Each builds, at prepare, a map from
// every output element to (input, element) or to the pad value; execute copies
// through the map and requantizes with the fixed-point rule when the input and
// output encodings differ (a plain copy when they are equal).
#include <algorithm>
#include <cmath>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/movement_map.h"

namespace qnn::htp {
namespace {

// ---------------------------------------------------------------------------
class ReshapeLike final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams&) override { return Status::ok(); }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 1, 1, out, 1));
    maps_ = {identityMap(in[0].numElements())};
    return Status::ok();
  }
};

class Transpose final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    if (!params.has("perm")) return sdk::invalidParam("Transpose: perm is mandatory");
    perm_ = params.ints("perm", {});
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Transpose", in, 1, 1, out, 1));
    const size_t rank = in[0].rank();
    std::vector<bool> seen(rank, false);
    if (perm_.size() != rank) return sdk::invalidParam("Transpose: perm must have rank(in[0]) entries");
    std::vector<uint32_t> outDims;
    for (int64_t p : perm_) {
      if (p < 0 || size_t(p) >= rank || seen[size_t(p)]) return sdk::invalidParam("Transpose: perm is not a permutation");
      seen[size_t(p)] = true;
      outDims.push_back(in[0].dims[size_t(p)]);
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("Transpose", out[0], outDims));
    const std::vector<size_t> inStrides = stridesOf(in[0].dims);
    std::vector<std::vector<int64_t>> lists(rank);
    std::vector<size_t> strides(rank);
    for (size_t d = 0; d < rank; ++d) {
      for (uint32_t c = 0; c < outDims[d]; ++c) lists[d].push_back(c);
      strides[d] = inStrides[size_t(perm_[d])];
    }
    maps_ = {mapFromAxisLists(lists, strides)};
    return Status::ok();
  }

 private:
  std::vector<int64_t> perm_;
};

class Tile final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    if (!params.has("multiples")) return sdk::invalidParam("Tile: multiples is mandatory");
    multiples_ = params.ints("multiples", {});
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Tile", in, 1, 1, out, 1));
    const size_t rank = in[0].rank();
    if (multiples_.size() != rank) return sdk::invalidParam("Tile: multiples must have rank(in[0]) entries");
    std::vector<std::vector<int64_t>> lists(rank);
    std::vector<uint32_t> outDims;
    for (size_t d = 0; d < rank; ++d) {
      if (multiples_[d] < 1) return sdk::invalidParam("Tile: multiples must be >= 1");
      for (int64_t c = 0; c < in[0].dims[d] * multiples_[d]; ++c) lists[d].push_back(c % in[0].dims[d]);
      outDims.push_back(uint32_t(lists[d].size()));
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("Tile", out[0], outDims));
    maps_ = {mapFromAxisLists(lists, stridesOf(in[0].dims))};
    return Status::ok();
  }

 private:
  std::vector<int64_t> multiples_;
};

class StridedSlice final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    sdk::StridedSliceParams p;
    QNN_SDK_RETURN_IF_ERROR(sdk::readStridedSliceParams(params, &p));
    ranges_ = std::move(p.ranges);
    beginMask_ = p.beginMask, endMask_ = p.endMask, shrinkMask_ = p.shrinkMask, newAxesMask_ = p.newAxesMask;
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "StridedSlice";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    const size_t numRanges = ranges_.size() / 3, rank = in[0].rank();
    size_t numNew = 0;
    for (size_t j = 0; j < numRanges; ++j) numNew += bit(newAxesMask_, j);
    if (numRanges != rank + numNew)
      return sdk::invalidParam("StridedSlice: ranges has " + std::to_string(numRanges) +
                               " rows, expected rank(in[0]) + new axes = " + std::to_string(rank + numNew));
    const std::vector<size_t> inStrides = stridesOf(in[0].dims);
    std::vector<std::vector<int64_t>> lists;
    std::vector<size_t> strides;
    std::vector<uint32_t> outDims;
    size_t d = 0;
    for (size_t j = 0; j < numRanges; ++j) {
      if (bit(newAxesMask_, j)) {
        lists.push_back({0});
        strides.push_back(0);
        outDims.push_back(1);
        continue;
      }
      const int64_t dim = in[0].dims[d], stride = ranges_[3 * j + 2];
      std::vector<int64_t> list;
      int64_t begin = ranges_[3 * j];
      if (bit(shrinkMask_, j)) {
        if (begin < 0) begin += dim;
        if (begin < 0 || begin >= dim) return sdk::invalidParam("StridedSlice: shrink index out of range");
        list.push_back(begin);
      } else {
        const sdk::SliceRange r = sdk::resolveSliceRange(begin, ranges_[3 * j + 1], stride, dim,
                                                         bit(beginMask_, j), bit(endMask_, j));
        for (int64_t c = r.begin; stride > 0 ? c < r.end : c > r.end; c += stride) list.push_back(c);
        outDims.push_back(uint32_t(list.size()));
      }
      lists.push_back(std::move(list));
      strides.push_back(inStrides[d]);
      ++d;
    }
    // Every axis shrunk: a scalar, given as rank 0 or as [1].
    const bool scalar = outDims.empty() && (out[0].rank() == 0 || out[0].dims == std::vector<uint32_t>{1});
    if (!scalar) QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], outDims));
    maps_ = {mapFromAxisLists(lists, strides)};
    return Status::ok();
  }

 private:
  static bool bit(uint32_t mask, size_t j) { return j < 32 && ((mask >> j) & 1u); }
  std::vector<int64_t> ranges_;
  uint32_t beginMask_ = 0, endMask_ = 0, shrinkMask_ = 0, newAxesMask_ = 0;
};

class Pad final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  enum Scheme : uint32_t { kConstant = 0, kMirrorSymmetric = 1, kMirrorReflect = 2, kEdge = 3 };

  Status init(const OpParams& params) override {
    if (!params.has("scheme") || !params.has("pad_amount"))
      return sdk::invalidParam("Pad: scheme and pad_amount are mandatory");
    scheme_ = params.u32("scheme", 0);
    if (scheme_ > kEdge) return sdk::invalidParam("Pad: unknown scheme " + std::to_string(scheme_));
    padAmount_ = params.ints("pad_amount", {});
    const sdk::ParamValue* constant = params.find("pad_constant_value");
    constant_ = constant ? constant->scalarAsDouble() : 0.0;
    constantIsFloat_ = constant && sdk::dtypeIsFloat(constant->dtype);
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Pad", in, 1, 1, out, 1));
    const size_t rank = in[0].rank();
    if (padAmount_.size() != rank * 2 || rank == 0)
      return sdk::invalidParam("Pad: pad_amount must have shape [rank(in[0]), 2]");
    std::vector<std::vector<int64_t>> lists(rank);
    std::vector<uint32_t> outDims;
    for (size_t d = 0; d < rank; ++d) {
      const int64_t n = in[0].dims[d], before = padAmount_[2 * d], after = padAmount_[2 * d + 1];
      const int64_t maxPad = scheme_ == kMirrorReflect ? n - 1 : scheme_ == kMirrorSymmetric ? n : INT32_MAX;
      if (before < 0 || after < 0 || before > maxPad || after > maxPad || (scheme_ != kConstant && n == 0))
        return sdk::invalidParam("Pad: padding of axis " + std::to_string(d) + " is invalid for the scheme");
      for (int64_t o = -before; o < n + after; ++o) lists[d].push_back(sourceIndex(o, n));
      outDims.push_back(uint32_t(lists[d].size()));
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("Pad", out[0], outDims));
    maps_ = {mapFromAxisLists(lists, stridesOf(in[0].dims))};
    return Status::ok();
  }

  // pad_constant_value: an integer is a stored value of in[0]'s encoding, a
  // float a real value quantized with it.
  Status padStoredValue(const TensorView& in, int64_t* value) override {
    Encoding e;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding("Pad", "in[0]", in, &e));
    *value = constantIsFloat_ && sdk::dtypeIsFixedPoint(in.dtype)
                 ? fx::quantizeValue(constant_, e.scale, e.offset, rangeOf(in))
                 : fx::saturate(int64_t(std::llround(constant_)), rangeOf(in));
    return Status::ok();
  }

 private:
  int64_t sourceIndex(int64_t i, int64_t n) const {
    if (i >= 0 && i < n) return i;
    switch (scheme_) {
      case kMirrorReflect: return i < 0 ? -i : 2 * n - 2 - i;
      case kMirrorSymmetric: return i < 0 ? -i - 1 : 2 * n - 1 - i;
      case kEdge: return i < 0 ? 0 : n - 1;
      default: return -1;
    }
  }
  uint32_t scheme_ = kConstant;
  std::vector<int64_t> padAmount_;
  double constant_ = 0;
  bool constantIsFloat_ = false;
};

// Concat and Split share the "position along an axis" bookkeeping.
Status resolveAxis(const char* op, const OpParams& params, bool mandatory, int64_t* axis) {
  if (mandatory && !params.has("axis")) return sdk::invalidParam(std::string(op) + ": axis is mandatory");
  *axis = params.has("axis") ? int64_t(params.u32("axis", 0)) : -1;
  return Status::ok();
}

class Concat final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override { return resolveAxis("Concat", params, false, &axis_); }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Concat", in, 1, 64, out, 1));
    const size_t rank = in[0].rank();
    const size_t axis = axis_ < 0 ? rank - 1 : size_t(axis_);
    if (rank == 0 || axis >= rank) return sdk::invalidParam("Concat: axis out of range");
    std::vector<uint32_t> outDims = in[0].dims;
    outDims[axis] = 0;
    for (const TensorView& t : in) {
      for (size_t d = 0; d < rank; ++d)
        if (t.rank() != rank || (d != axis && t.dims[d] != in[0].dims[d]))
          return sdk::invalidTensor("Concat: input dims " + dimsToString(t.dims) + " do not match " +
                                    dimsToString(in[0].dims) + " outside axis " + std::to_string(axis));
      outDims[axis] += t.dims[axis];
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("Concat", out[0], outDims));
    size_t outer = 1, inner = 1;
    for (size_t d = 0; d < axis; ++d) outer *= outDims[d];
    for (size_t d = axis + 1; d < rank; ++d) inner *= outDims[d];
    ElementMap map;
    map.reserve(product(outDims));
    for (size_t o = 0; o < outer; ++o)
      for (uint32_t k = 0; k < in.size(); ++k) {
        const size_t len = in[k].dims[axis] * inner;
        for (size_t j = 0; j < len; ++j) map.push_back(Source{k, int64_t(o * len + j)});
      }
    maps_ = {std::move(map)};
    return Status::ok();
  }

 private:
  int64_t axis_ = -1;
};

class Split final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    QNN_SDK_RETURN_IF_ERROR(resolveAxis("Split", params, true, &axis_));
    if (!params.has("split_index")) return sdk::invalidParam("Split: split_index is mandatory");
    splitIndex_ = params.ints("split_index", {});
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Split", in, 1, 1, out, splitIndex_.size() + 1));
    const size_t rank = in[0].rank(), axis = size_t(axis_);
    if (axis >= rank) return sdk::invalidParam("Split: axis out of range");
    std::vector<int64_t> bounds{0};
    for (int64_t s : splitIndex_) bounds.push_back(s);
    bounds.push_back(in[0].dims[axis]);
    for (size_t k = 1; k < bounds.size(); ++k)
      if (bounds[k] < bounds[k - 1]) return sdk::invalidParam("Split: split_index must be increasing and in range");
    const std::vector<size_t> inStrides = stridesOf(in[0].dims);
    maps_.clear();
    for (size_t k = 0; k + 1 < bounds.size(); ++k) {
      std::vector<std::vector<int64_t>> lists(rank);
      std::vector<uint32_t> outDims;
      for (size_t d = 0; d < rank; ++d) {
        const int64_t from = d == axis ? bounds[k] : 0, to = d == axis ? bounds[k + 1] : in[0].dims[d];
        for (int64_t c = from; c < to; ++c) lists[d].push_back(c);
        outDims.push_back(uint32_t(to - from));
      }
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims("Split", out[k], outDims));
      maps_.push_back(mapFromAxisLists(lists, inStrides));
    }
    return Status::ok();
  }

 private:
  int64_t axis_ = 0;
  std::vector<int64_t> splitIndex_;
};

class Gather final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam("Gather: axis is mandatory");
    axisParam_ = params.i32("axis", 0);
    return Status::ok();
  }

 protected:
  size_t dataInputCount(size_t) const override { return 1; }

  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Gather", in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType("Gather", "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    const int64_t rank = int64_t(in[0].rank());
    axis_ = axisParam_ < 0 ? axisParam_ + rank : axisParam_;
    if (axis_ < 0 || axis_ >= rank) return sdk::invalidParam("Gather: axis out of range");
    const auto& dims = in[0].dims;
    std::vector<uint32_t> outDims(dims.begin(), dims.begin() + axis_);
    outDims.insert(outDims.end(), in[1].dims.begin(), in[1].dims.end());
    outDims.insert(outDims.end(), dims.begin() + axis_ + 1, dims.end());
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("Gather", out[0], outDims));
    outer_ = inner_ = 1;
    for (int64_t d = 0; d < axis_; ++d) outer_ *= dims[size_t(d)];
    for (int64_t d = axis_ + 1; d < rank; ++d) inner_ *= dims[size_t(d)];
    axisLen_ = dims[size_t(axis_)];
    maps_ = {ElementMap(out[0].numElements())};
    return in[1].data ? refreshMaps(in) : Status::ok();
  }

  bool mapsFixedAtPrepare() const override { return false; }
  Status refreshMaps(const std::vector<TensorView>& in) override {
    const size_t numIndices = in[1].numElements();
    ElementMap& map = maps_[0];
    for (size_t k = 0; k < numIndices; ++k) {
      int64_t idx = loadInt(in[1], k);
      if (idx < 0) idx += int64_t(axisLen_);
      if (idx < 0 || idx >= int64_t(axisLen_))
        return sdk::invalidArgument("Gather: index " + std::to_string(loadInt(in[1], k)) + " at position " +
                                    std::to_string(k) + " out of range for axis size " + std::to_string(axisLen_));
      for (size_t o = 0; o < outer_; ++o)
        for (size_t j = 0; j < inner_; ++j)
          map[(o * numIndices + k) * inner_ + j].index = int64_t((o * axisLen_ + size_t(idx)) * inner_ + j);
    }
    return Status::ok();
  }

 private:
  int32_t axisParam_ = 0;
  int64_t axis_ = 0;
  size_t outer_ = 1, inner_ = 1, axisLen_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantMovement(const std::string& op) {
  if (op == "Reshape" || op == "Squeeze" || op == "ExpandDims") return std::make_unique<ReshapeLike>(op);
  if (op == "Transpose") return std::make_unique<Transpose>(op);
  if (op == "Tile") return std::make_unique<Tile>(op);
  if (op == "StridedSlice") return std::make_unique<StridedSlice>(op);
  if (op == "Pad") return std::make_unique<Pad>(op);
  if (op == "Concat") return std::make_unique<Concat>(op);
  if (op == "Split") return std::make_unique<Split>(op);
  if (op == "Gather") return std::make_unique<Gather>(op);
  return nullptr;
}

}  // namespace qnn::htp
