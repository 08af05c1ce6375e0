// HTP data movement that rearranges or indexes (movement_map.h does the copying
// and requantization; fp16 mode goes through Fp16Movement):
//  * DepthToSpace / SpaceToDepth (NHWC, block [bh, bw], mode DCR 0 / CRD 1):
//    space pixel (h*bh+i, w*bw+j, c) <-> depth channel (i*bw+j)*Cs + c (DCR) or
//    c*bh*bw + i*bw + j (CRD), Cs the space-side channels.
//  * BatchToSpace / SpaceToBatch (TensorFlow's batch_to_space_nd / space_to_batch_nd):
//    batch (i*bw + j)*N + n holds block position (i, j) of image n; crops trim,
//    pad_amount pads with real zero.
//  * ChannelShuffle: out channel i*G + g = in channel g*(C/G) + i along `axis` (default last).
//  * Pack / UnPack: stack along / split off a new dim `axis`.
//  * ArgbToRgb: drop alpha (ARGB: channel 0, RGBA: channel 3), reverse_output flips.
//  * ExtractPatches: see the class.
//  * GatherElements / GatherNd (batch_dims) / ScatterElements / ScatterNd
//    (reduction NONE: later updates win; ADD / MUL / MAX on real values, see
//    Scatter): int32/uint32 indices, negative ones count from the end; an index
//    out of range fails the execute.
#include <algorithm>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/movement_map.h"

namespace qnn::htp {
namespace {

// Real zero in in[0]'s stored encoding (the quantized zero of fixed point).
int64_t storedZero(const TensorView& t) { return sdk::dtypeIsFixedPoint(t.dtype) ? -int64_t(t.quant.offset) : 0; }

bool resolve(int64_t* idx, uint32_t len) {
  if (*idx < 0) *idx += len;
  return *idx >= 0 && *idx < int64_t(len);
}

class DepthSpace final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    const std::vector<int64_t> b = params.ints("block_size", {});
    if (b.size() != 2 || b[0] < 1 || b[1] < 1)
      return sdk::invalidParam(op_ + ": block_size must be 2 values >= 1 [block_height, block_width]");
    bh_ = b[0], bw_ = b[1];
    const uint32_t mode = params.u32("mode", 0);
    if (mode > 1) return sdk::invalidParam(op_ + ": mode must be 0 (DCR) or 1 (CRD)");
    crd_ = mode == 1;
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_.c_str(), "in[0]", in[0], 4));
    const auto& d = in[0].dims;
    const bool toSpace = op_ == "DepthToSpace";
    const int64_t blocks = bh_ * bw_;
    if (toSpace ? d[3] % blocks != 0 : (d[1] % bh_ != 0 || d[2] % bw_ != 0))
      return sdk::invalidTensor(op_ + ": in[0] " + dimsToString(d) + " does not divide by block_size");
    const std::vector<uint32_t> od = toSpace ? std::vector<uint32_t>{d[0], uint32_t(d[1] * bh_), uint32_t(d[2] * bw_),
                                                                     uint32_t(d[3] / blocks)}
                                             : std::vector<uint32_t>{d[0], uint32_t(d[1] / bh_), uint32_t(d[2] / bw_),
                                                                     uint32_t(d[3] * blocks)};
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_.c_str(), out[0], od));
    const auto& space = toSpace ? od : d;   // the [N, H*bh, W*bw, Cs] side
    const auto& depth = toSpace ? d : od;   // the [N, H, W, Cs*bh*bw] side
    const int64_t cs = space[3];
    ElementMap map(product(od));
    for (uint32_t n = 0; n < space[0]; ++n)
      for (uint32_t y = 0; y < space[1]; ++y)
        for (uint32_t x = 0; x < space[2]; ++x)
          for (int64_t c = 0; c < cs; ++c) {
            const int64_t i = y % bh_, j = x % bw_;
            const int64_t dc = crd_ ? c * blocks + i * bw_ + j : (i * bw_ + j) * cs + c;
            const int64_t sIdx = ((int64_t(n) * space[1] + y) * space[2] + x) * cs + c;
            const int64_t dIdx = ((int64_t(n) * depth[1] + y / bh_) * depth[2] + x / bw_) * depth[3] + dc;
            map[size_t(toSpace ? sIdx : dIdx)].index = toSpace ? dIdx : sIdx;
          }
    maps_ = {std::move(map)};
    return Status::ok();
  }

 private:
  int64_t bh_ = 1, bw_ = 1;
  bool crd_ = false;
};

class BatchSpace final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    std::vector<int64_t> b, e;
    const bool toSpace = op_ == "BatchToSpace";
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, op_.c_str(), "block_size", {2}, true, {}, &b));
    QNN_SDK_RETURN_IF_ERROR(
        readUintTensorParam(params, op_.c_str(), toSpace ? "crops" : "pad_amount", {2, 2}, false, {0, 0, 0, 0}, &e));
    if (b[0] < 1 || b[1] < 1) return sdk::invalidParam(op_ + ": block_size elements must be >= 1");
    bh_ = b[0], bw_ = b[1], top_ = e[0], bottom_ = e[1], left_ = e[2], right_ = e[3];
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op_.c_str(), "in[0]", in[0], 4));
    const auto& d = in[0].dims;
    const bool toSpace = op_ == "BatchToSpace";
    std::vector<uint32_t> od;
    if (toSpace) {
      const int64_t h = d[1] * bh_ - top_ - bottom_, w = d[2] * bw_ - left_ - right_;
      if (d[0] % (bh_ * bw_) != 0 || h < 0 || w < 0)
        return sdk::invalidTensor(op_ + ": in[0] " + dimsToString(d) + " needs a batch divisible by the block and "
                                  "crops smaller than the output");
      od = {uint32_t(d[0] / (bh_ * bw_)), uint32_t(h), uint32_t(w), d[3]};
    } else {
      const int64_t h = d[1] + top_ + bottom_, w = d[2] + left_ + right_;
      if (h % bh_ != 0 || w % bw_ != 0)
        return sdk::invalidTensor(op_ + ": the padded height and width must be divisible by block_size");
      od = {uint32_t(d[0] * bh_ * bw_), uint32_t(h / bh_), uint32_t(w / bw_), d[3]};
    }
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_.c_str(), out[0], od));
    ElementMap map(product(od));
    size_t k = 0;
    for (int64_t ob = 0; ob < od[0]; ++ob)
      for (int64_t oh = 0; oh < od[1]; ++oh)
        for (int64_t ow = 0; ow < od[2]; ++ow) {
          int64_t b, h, w;
          if (toSpace) {
            const int64_t ph = oh + top_, pw = ow + left_;
            b = ((ph % bh_) * bw_ + pw % bw_) * od[0] + ob, h = ph / bh_, w = pw / bw_;
          } else {
            const int64_t blk = ob / d[0];
            b = ob % d[0], h = oh * bh_ + blk / bw_ - top_, w = ow * bw_ + blk % bw_ - left_;
          }
          const bool inside = h >= 0 && h < d[1] && w >= 0 && w < d[2];
          for (uint32_t c = 0; c < d[3]; ++c, ++k)
            map[k].index = inside ? ((b * d[1] + h) * d[2] + w) * d[3] + c : -1;
        }
    maps_ = {std::move(map)};
    return Status::ok();
  }
  Status padStoredValue(const TensorView& in, int64_t* value) override {
    *value = storedZero(in);
    return Status::ok();
  }

 private:
  int64_t bh_ = 1, bw_ = 1, top_ = 0, bottom_ = 0, left_ = 0, right_ = 0;
};

// outer / axis / inner split of dims around `axis`.
void around(const std::vector<uint32_t>& dims, size_t axis, size_t* outer, size_t* inner) {
  *outer = *inner = 1;
  for (size_t d = 0; d < axis; ++d) *outer *= dims[d];
  for (size_t d = axis + 1; d < dims.size(); ++d) *inner *= dims[d];
}

class ChannelShuffle final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    if (!params.has("num_groups")) return sdk::invalidParam("ChannelShuffle: num_groups is mandatory");
    groups_ = params.u32("num_groups", 1);
    hasAxis_ = params.has("axis");
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("ChannelShuffle", in, 1, 1, out, 1));
    const size_t rank = in[0].rank();
    const size_t axis = hasAxis_ ? axis_ : rank - 1;
    if (rank == 0 || axis >= rank) return sdk::invalidParam("ChannelShuffle: axis out of range");
    const size_t c = in[0].dims[axis];
    if (groups_ == 0 || c % groups_ != 0) return sdk::invalidParam("ChannelShuffle: num_groups must divide the axis");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("ChannelShuffle", out[0], in[0].dims));
    size_t outer, inner;
    around(in[0].dims, axis, &outer, &inner);
    const size_t per = c / groups_;
    ElementMap map(in[0].numElements());
    for (size_t o = 0; o < outer; ++o)
      for (size_t i = 0; i < per; ++i)
        for (size_t g = 0; g < groups_; ++g)
          for (size_t j = 0; j < inner; ++j)
            map[(o * c + i * groups_ + g) * inner + j].index = int64_t((o * c + g * per + i) * inner + j);
    maps_ = {std::move(map)};
    return Status::ok();
  }

 private:
  uint32_t groups_ = 1, axis_ = 0;
  bool hasAxis_ = false;
};

class PackUnpack final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    if (!params.has("axis")) return sdk::invalidParam(op_ + ": axis is mandatory");
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const bool pack = op_ == "Pack";
    if (in.empty() || out.empty() || (pack ? out.size() != 1 : in.size() != 1))
      return sdk::invalidArgument(op_ + (pack ? ": takes inputs and 1 output" : ": takes 1 input and outputs"));
    const std::vector<TensorView>& slices = pack ? in : out;
    const TensorView& whole = pack ? out[0] : in[0];
    const auto& one = slices[0].dims;
    if (axis_ > one.size()) return sdk::invalidParam(op_ + ": axis out of range");
    for (const TensorView& s : slices)
      if (s.dims != one) return sdk::invalidTensor(op_ + ": every slice must have the shape " + dimsToString(one));
    std::vector<uint32_t> want = one;
    want.insert(want.begin() + axis_, uint32_t(slices.size()));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_.c_str(), whole, want));
    size_t outer, inner;
    around(want, axis_, &outer, &inner);
    const size_t k = slices.size();
    if (pack) {
      ElementMap map(outer * k * inner);
      for (size_t o = 0; o < outer; ++o)
        for (size_t s = 0; s < k; ++s)
          for (size_t j = 0; j < inner; ++j) map[(o * k + s) * inner + j] = Source{uint32_t(s), int64_t(o * inner + j)};
      maps_ = {std::move(map)};
    } else {
      maps_.assign(k, ElementMap(outer * inner));
      for (size_t s = 0; s < k; ++s)
        for (size_t o = 0; o < outer; ++o)
          for (size_t j = 0; j < inner; ++j) maps_[s][o * inner + j].index = int64_t((o * k + s) * inner + j);
    }
    return Status::ok();
  }

 private:
  uint32_t axis_ = 0;
};

class ArgbToRgb final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    const uint32_t order = params.u32("input_order", 0);
    if (order > 1) return sdk::invalidParam("ArgbToRgb: input_order must be 0 (ARGB) or 1 (RGBA)");
    if (!params.has("reverse_output")) return sdk::invalidParam("ArgbToRgb: reverse_output is mandatory");
    first_ = order == 0 ? 1 : 0;
    reverse_ = params.b("reverse_output", false);
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("ArgbToRgb", in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank("ArgbToRgb", "in[0]", in[0], 4));
    const auto& d = in[0].dims;
    if (d[3] != 4) return sdk::invalidTensor("ArgbToRgb: in[0] must have 4 channels");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("ArgbToRgb", out[0], {d[0], d[1], d[2], 3}));
    const size_t pixels = size_t(d[0]) * d[1] * d[2];
    ElementMap map(pixels * 3);
    for (size_t p = 0; p < pixels; ++p)
      for (uint32_t c = 0; c < 3; ++c) map[p * 3 + c].index = int64_t(p * 4 + first_ + (reverse_ ? 2 - c : c));
    maps_ = {std::move(map)};
    return Status::ok();
  }

 private:
  uint32_t first_ = 1;
  bool reverse_ = false;
};

// ExtractPatches (TensorFlow's extract_image_patches): size[0] x size[1] samples
// `rate` apart, windows `stride` apart, flattened into channels in (patch row,
// patch column, channel) order; SAME pads with real zero (the extra pixel after).
class ExtractPatches final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    std::vector<int64_t> size, stride, rate;
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, "ExtractPatches", "size", {2}, true, {}, &size));
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, "ExtractPatches", "stride", {2}, true, {}, &stride));
    QNN_SDK_RETURN_IF_ERROR(readUintTensorParam(params, "ExtractPatches", "rate", {2}, true, {}, &rate));
    if (!params.has("padding") || params.u32("padding", 0) > 1)
      return sdk::invalidParam("ExtractPatches: padding (0 VALID, 1 SAME) is mandatory");
    same_ = params.u32("padding", 0) == 1;
    for (int i = 0; i < 2; ++i) {
      if (size[i] == 0 || stride[i] == 0 || rate[i] == 0)
        return sdk::invalidParam("ExtractPatches: size, stride and rate must be > 0");
      size_[i] = size[i], stride_[i] = stride[i], rate_[i] = rate[i];
    }
    return Status::ok();
  }

 protected:
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("ExtractPatches", in, 1, 1, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank("ExtractPatches", "in[0]", in[0], 4));
    const auto& d = in[0].dims;
    int64_t o[2], pad[2];
    for (int i = 0; i < 2; ++i) {
      const int64_t n = d[i + 1], dilated = (size_[i] - 1) * rate_[i] + 1;
      o[i] = same_ ? (n + stride_[i] - 1) / stride_[i] : (n >= dilated ? (n - dilated) / stride_[i] + 1 : 0);
      pad[i] = same_ ? std::max<int64_t>(0, (o[i] - 1) * stride_[i] + dilated - n) / 2 : 0;
    }
    if (o[0] <= 0 || o[1] <= 0) return sdk::invalidTensor("ExtractPatches: in[0] is smaller than one patch");
    const std::vector<uint32_t> od{d[0], uint32_t(o[0]), uint32_t(o[1]), uint32_t(size_[0] * size_[1] * d[3])};
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("ExtractPatches", out[0], od));
    ElementMap map(product(od));
    size_t k = 0;
    for (int64_t b = 0; b < d[0]; ++b)
      for (int64_t y = 0; y < o[0]; ++y)
        for (int64_t x = 0; x < o[1]; ++x)
          for (int64_t i = 0; i < size_[0]; ++i)
            for (int64_t j = 0; j < size_[1]; ++j) {
              const int64_t h = y * stride_[0] - pad[0] + i * rate_[0], w = x * stride_[1] - pad[1] + j * rate_[1];
              const bool inside = h >= 0 && h < d[1] && w >= 0 && w < d[2];
              for (uint32_t c = 0; c < d[3]; ++c, ++k) map[k].index = inside ? ((b * d[1] + h) * d[2] + w) * d[3] + c : -1;
            }
    maps_ = {std::move(map)};
    return Status::ok();
  }
  Status padStoredValue(const TensorView& in, int64_t* value) override {
    *value = storedZero(in);
    return Status::ok();
  }

 private:
  int64_t size_[2] = {1, 1}, stride_[2] = {1, 1}, rate_[2] = {1, 1};
  bool same_ = false;
};

// GatherElements: out[p] = data[p with p[axis] = indices[p]].
class GatherElements final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }

 protected:
  size_t dataInputCount(size_t) const override { return 1; }
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("GatherElements", in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType("GatherElements", "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    if (axis_ >= in[0].rank() || in[1].rank() != in[0].rank())
      return sdk::invalidParam("GatherElements: axis and indices must match data's rank");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("GatherElements", out[0], in[1].dims));
    maps_ = {ElementMap(in[1].numElements())};
    return in[1].data ? refreshMaps(in) : Status::ok();
  }
  bool mapsFixedAtPrepare() const override { return false; }
  Status refreshMaps(const std::vector<TensorView>& in) override {
    const auto& dd = in[0].dims;
    const auto& id = in[1].dims;
    const std::vector<size_t> ds = stridesOf(dd);
    std::vector<uint32_t> pos(id.size(), 0);
    for (size_t k = 0; k < maps_[0].size(); ++k) {
      int64_t idx = loadInt(in[1], k);
      if (!resolve(&idx, dd[axis_]))
        return sdk::invalidArgument("GatherElements: index " + std::to_string(loadInt(in[1], k)) + " out of range");
      int64_t src = 0;
      for (size_t d = 0; d < id.size(); ++d) {
        const int64_t c = d == axis_ ? idx : int64_t(pos[d]);
        if (c >= dd[d]) return sdk::invalidTensor("GatherElements: indices exceed data's shape");
        src += c * int64_t(ds[d]);
      }
      maps_[0][k].index = src;
      for (size_t d = id.size(); d-- > 0;) {
        if (++pos[d] < id[d]) break;
        pos[d] = 0;
      }
    }
    return Status::ok();
  }

 private:
  uint32_t axis_ = 0;
};

// The data offset of index tuple s (k indices) into data after `batch` batch dims.
bool tupleOffset(const TensorView& data, const TensorView& idx, size_t s, size_t k, size_t batch,
                 const std::vector<size_t>& strides, int64_t* off) {
  *off = 0;
  for (size_t j = 0; j < k; ++j) {
    int64_t v = loadInt(idx, s * k + j);
    if (!resolve(&v, data.dims[batch + j])) return false;
    *off += v * int64_t(strides[batch + j]);
  }
  return true;
}

class GatherNd final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  Status init(const OpParams& params) override {
    batch_ = params.u32("batch_dims", 0);
    return Status::ok();
  }

 protected:
  size_t dataInputCount(size_t) const override { return 1; }
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("GatherNd", in, 2, 2, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType("GatherNd", "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    const auto &dd = in[0].dims, &id = in[1].dims;
    if (id.empty() || batch_ >= id.size() || batch_ >= dd.size())
      return sdk::invalidParam("GatherNd: batch_dims must be below the ranks of data and indices");
    k_ = id.back();
    if (k_ < 1 || batch_ + k_ > dd.size()) return sdk::invalidTensor("GatherNd: indices' last dim out of range");
    std::vector<uint32_t> want(id.begin(), id.end() - 1);
    want.insert(want.end(), dd.begin() + batch_ + k_, dd.end());
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("GatherNd", out[0], want));
    slice_ = 1;
    for (size_t d = batch_ + k_; d < dd.size(); ++d) slice_ *= dd[d];
    maps_ = {ElementMap(out[0].numElements())};
    return in[1].data ? refreshMaps(in) : Status::ok();
  }
  bool mapsFixedAtPrepare() const override { return false; }
  Status refreshMaps(const std::vector<TensorView>& in) override {
    const std::vector<size_t> strides = stridesOf(in[0].dims);
    const size_t tuples = in[1].numElements() / k_;
    size_t batches = 1;
    for (size_t d = 0; d < batch_; ++d) batches *= in[0].dims[d];
    const size_t perBatch = tuples / batches, batchStride = batch_ == 0 ? 0 : strides[batch_ - 1];
    for (size_t s = 0; s < tuples; ++s) {
      int64_t off = 0;
      if (!tupleOffset(in[0], in[1], s, k_, batch_, strides, &off))
        return sdk::invalidArgument("GatherNd: index tuple " + std::to_string(s) + " is out of range");
      off += int64_t((s / perBatch) * batchStride);
      for (size_t j = 0; j < slice_; ++j) maps_[0][s * slice_ + j].index = off + int64_t(j);
    }
    return Status::ok();
  }

 private:
  uint32_t batch_ = 0;
  size_t k_ = 1, slice_ = 1;
};

// ScatterElements / ScatterNd: out = data, then each update (input 2) goes to
// its target in index order. Reduction NONE: the later update wins (a copy
// through the maps). ADD / MUL / MAX (MAX: ScatterElements only): every target
// element that updates reach is reduce(data, u1, u2, ...) in index order on real
// values (dequantized, in double) and quantized once into out[0]'s encoding;
// the other elements are copied as with NONE.
class Scatter final : public MovementKernel {
 public:
  using MovementKernel::MovementKernel;
  enum Reduction : uint32_t { kNone = 0, kAdd = 1, kMul = 2, kMax = 3 };

  Status init(const OpParams& params) override {
    reduction_ = params.u32("reduction", kNone);
    const uint32_t last = op_ == "ScatterElements" ? kMax : kMul;
    if (reduction_ > last)
      return sdk::notSupported(op_ + ": reduction " + std::to_string(reduction_) + " is not supported (NONE, ADD, MUL" +
                               (last == kMax ? ", MAX)" : ")"));
    axis_ = params.u32("axis", 0);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(MovementKernel::execute(inputs, outputs));
    if (reduction_ == kNone) return Status::ok();
    Encoding ed, eu, eo;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op_.c_str(), "in[0]", inputs[0], &ed));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op_.c_str(), "in[2]", inputs[2], &eu));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op_.c_str(), "out[0]", outputs[0], &eo));
    auto real = [](const TensorView& t, const Encoding& e, size_t i) {
      return (double(loadInt(t, i)) + e.offset) * double(e.scale);
    };
    reduced_.assign(outputs[0].numElements(), 0.0);
    touched_.assign(outputs[0].numElements(), 0);
    for (const auto& [dst, k] : targets_) {
      double& acc = reduced_[dst];
      if (!touched_[dst]) acc = real(inputs[0], ed, dst), touched_[dst] = 1;
      const double u = real(inputs[2], eu, k);
      acc = reduction_ == kAdd ? acc + u : reduction_ == kMul ? acc * u : std::max(acc, u);
    }
    const fx::QuantRange range = rangeOf(outputs[0]);
    for (size_t i = 0; i < reduced_.size(); ++i)
      if (touched_[i]) storeInt(outputs[0], i, fx::quantizeValue(reduced_[i], eo.scale, eo.offset, range));
    return Status::ok();
  }

 protected:
  bool isDataInput(size_t i, size_t) const override { return i != 1; }
  Status buildMaps(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_.c_str(), in, 3, 3, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_.c_str(), "in[1] (indices)", in[1], {DType::kInt32, DType::kUInt32}));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_.c_str(), out[0], in[0].dims));
    if (op_ == "ScatterElements") {
      if (axis_ >= in[0].rank() || in[1].dims != in[2].dims || in[1].rank() != in[0].rank())
        return sdk::invalidTensor("ScatterElements: indices and updates must share a shape of data's rank");
    } else {
      const auto &dd = in[0].dims, &id = in[1].dims;
      if (id.empty() || id.back() < 1 || id.back() > dd.size())
        return sdk::invalidTensor("ScatterNd: indices' last dim must be 1..rank(data)");
      k_ = id.back();
      slice_ = 1;
      for (size_t d = k_; d < dd.size(); ++d) slice_ *= dd[d];
      if (in[2].numElements() != in[1].numElements() / k_ * slice_)
        return sdk::invalidTensor("ScatterNd: updates must hold one data slice per index tuple");
    }
    maps_ = {identityMap(in[0].numElements())};
    return in[1].data ? refreshMaps(in) : Status::ok();
  }
  bool mapsFixedAtPrepare() const override { return false; }
  Status refreshMaps(const std::vector<TensorView>& in) override {
    ElementMap& map = maps_[0];
    for (size_t i = 0; i < map.size(); ++i) map[i] = Source{0, int64_t(i)};
    targets_.clear();
    auto update = [&](size_t dst, int64_t k) {
      map[dst] = Source{2, k};
      if (reduction_ != kNone) targets_.emplace_back(dst, size_t(k));
    };
    const std::vector<size_t> strides = stridesOf(in[0].dims);
    if (op_ == "ScatterNd") {
      const size_t tuples = in[1].numElements() / k_;
      for (size_t s = 0; s < tuples; ++s) {
        int64_t off = 0;
        if (!tupleOffset(in[0], in[1], s, k_, 0, strides, &off))
          return sdk::invalidArgument("ScatterNd: index tuple " + std::to_string(s) + " is out of range");
        for (size_t j = 0; j < slice_; ++j) update(size_t(off) + j, int64_t(s * slice_ + j));
      }
      return Status::ok();
    }
    const auto& id = in[1].dims;
    std::vector<uint32_t> pos(id.size(), 0);
    for (size_t k = 0; k < in[1].numElements(); ++k) {
      int64_t idx = loadInt(in[1], k);
      if (!resolve(&idx, in[0].dims[axis_]))
        return sdk::invalidArgument("ScatterElements: index " + std::to_string(loadInt(in[1], k)) + " out of range");
      int64_t dst = 0;
      for (size_t d = 0; d < id.size(); ++d) dst += (d == axis_ ? idx : int64_t(pos[d])) * int64_t(strides[d]);
      update(size_t(dst), int64_t(k));
      for (size_t d = id.size(); d-- > 0;) {
        if (++pos[d] < id[d]) break;
        pos[d] = 0;
      }
    }
    return Status::ok();
  }

 private:
  uint32_t axis_ = 0, reduction_ = kNone;
  size_t k_ = 1, slice_ = 1;
  std::vector<std::pair<size_t, size_t>> targets_;  // (output element, update element) in index order
  std::vector<double> reduced_;
  std::vector<uint8_t> touched_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantRearrange(const std::string& op) {
  if (op == "DepthToSpace" || op == "SpaceToDepth") return std::make_unique<DepthSpace>(op);
  if (op == "BatchToSpace" || op == "SpaceToBatch") return std::make_unique<BatchSpace>(op);
  if (op == "ChannelShuffle") return std::make_unique<ChannelShuffle>(op);
  if (op == "Pack" || op == "UnPack") return std::make_unique<PackUnpack>(op);
  if (op == "ArgbToRgb") return std::make_unique<ArgbToRgb>(op);
  if (op == "ExtractPatches") return std::make_unique<ExtractPatches>(op);
  if (op == "GatherElements") return std::make_unique<GatherElements>(op);
  if (op == "GatherNd") return std::make_unique<GatherNd>(op);
  if (op == "ScatterElements" || op == "ScatterNd") return std::make_unique<Scatter>(op);
  return nullptr;
}

}  // namespace qnn::htp
