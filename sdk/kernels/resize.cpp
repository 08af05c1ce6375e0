// Resize (ONNX-style, any number of spatial dims; nearest, linear, cubic),
// ResizeBilinear and ResizeNearestNeighbor (TensorFlow-style) on channel-last
// float32 tensors. All reduce to per-spatial-dim tables computed in prepare: for
// every output coordinate K source indices and their weights (K = 2 for nearest
// and linear, a nearest lookup being weights {1, 0}; K = 4 for cubic, with
// ONNX's cubic coefficients and edge-clamped neighbours, renormalized without
// the outside ones when exclude_outside). Execute blends the K^n taps, vectorized
// over channels.
#include <algorithm>
#include <cmath>
#include <new>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

constexpr size_t kMaxSpatialDims = 8;

enum class Transform { kHalfPixel = 0, kPytorchHalfPixel = 1, kAlignCorners = 2, kAsymmetric = 3 };
enum class NearestRound { kPreferFloor = 0, kPreferCeil = 1, kFloor = 2, kCeil = 3 };

struct AxisTable {
  size_t taps = 2;               // per output coordinate
  std::vector<uint32_t> index;   // [out * taps + t]: source index of tap t
  std::vector<float> weight;     // [out * taps + t]
};

class ResizeKernel final : public Kernel {
 public:
  explicit ResizeKernel(std::string opType) : opType_(std::move(opType)) {}

  Status init(const OpParams& params) override {
    const char* op = opType_.c_str();
    if (opType_ == "Resize") {
      excludeOutside_ = params.b("exclude_outside", false);
      cubicCoeff_ = params.f32("cubic_coeff", -0.75f);
      const uint32_t t = params.u32("transformation_mode", 0), i = params.u32("interpolation_mode", 0),
                     n = params.u32("nearest_mode", 0);
      if (t > 3) return sdk::invalidParam("Resize: transformation_mode must be 0..3");
      if (i > 2) return sdk::invalidParam("Resize: interpolation_mode must be 0 (NEAREST), 1 (LINEAR) or 2 (CUBIC)");
      if (n > 3) return sdk::invalidParam("Resize: nearest_mode must be 0..3");
      transform_ = Transform(t);
      linear_ = i == 1;
      cubic_ = i == 2;
      nearestRound_ = NearestRound(n);
      return Status::ok();
    }
    alignCorners_ = params.b("align_corners", false);
    halfPixel_ = params.b("half_pixel_centers", false);
    if (alignCorners_ && halfPixel_)
      return sdk::invalidParam(std::string(op) + ": align_corners and half_pixel_centers cannot both be true");
    linear_ = opType_ == "ResizeBilinear";
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = opType_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& in = inputs[0].dims;
    const auto& out = outputs[0].dims;
    if (opType_ == "Resize") {
      if (in.size() < 2) return sdk::invalidTensor("Resize: in[0] must be [batch, D1..Dn, channel], got " + dimsToString(in));
    } else {
      QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0]", inputs[0], 4));
    }
    if (out.size() != in.size() || out.front() != in.front() || out.back() != in.back())
      return sdk::invalidTensor(std::string(op) + ": out[0] " + dimsToString(out) +
                                " must keep the rank, batch and channel of in[0] " + dimsToString(in));
    if (in.size() > kMaxSpatialDims + 2)
      return sdk::invalidTensor(std::string(op) + ": at most 8 spatial dims are supported, got " + dimsToString(in));
    for (size_t d = 1; d + 1 < in.size(); ++d)
      if ((in[d] == 0) != (out[d] == 0))
        return sdk::invalidTensor(std::string(op) + ": cannot resize an empty dim to a non-empty one");
    inDims_ = in;
    outDims_ = out;
    try {
      tables_.clear();
      for (size_t d = 1; d + 1 < in.size(); ++d) tables_.push_back(makeTable(in[d], out[d]));
    } catch (const std::bad_alloc&) {
      return {sdk::StatusCode::kOutOfMemory, std::string(op) + ": out of memory"};
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* x = inputs[0].as<const float>();
    float* y = outputs[0].as<float>();
    const size_t n = tables_.size();
    const size_t channels = inDims_.back();
    // Strides of the input spatial dims, in floats.
    size_t inStride[kMaxSpatialDims] = {};
    size_t s = channels;
    for (size_t d = n; d-- > 0;) {
      inStride[d] = s;
      s *= inDims_[d + 1];
    }
    const size_t inImage = s;
    size_t outPixels = 1;
    for (size_t d = 1; d + 1 < outDims_.size(); ++d) outPixels *= outDims_[d];
    const size_t total = size_t(outDims_[0]) * outPixels;
    const size_t taps = tables_.empty() ? 1 : tables_[0].taps;
    size_t combinations = 1;
    for (size_t d = 0; d < n; ++d) combinations *= taps;
    parallelFor(total, std::max<size_t>(1, 2048 / std::max<size_t>(channels, 1)), [&](size_t p0, size_t p1) {
      size_t coord[kMaxSpatialDims];
      for (size_t p = p0; p < p1; ++p) {
        const size_t b = p / outPixels;
        size_t rem = p % outPixels;
        for (size_t d = n; d-- > 0;) {
          coord[d] = rem % outDims_[d + 1];
          rem /= outDims_[d + 1];
        }
        float* __restrict dst = y + p * channels;
        std::fill(dst, dst + channels, 0.f);
        const float* image = x + b * inImage;
        for (size_t corner = 0; corner < combinations; ++corner) {
          float weight = 1.f;
          size_t offset = 0, digits = corner;
          for (size_t d = 0; d < n; ++d) {
            const AxisTable& t = tables_[d];
            const size_t tap = coord[d] * taps + digits % taps;
            digits /= taps;
            weight *= t.weight[tap];
            offset += t.index[tap] * inStride[d];
          }
          if (weight == 0.f) continue;
          const float* __restrict src = image + offset;
          for (size_t c = 0; c < channels; ++c) dst[c] += weight * src[c];
        }
      }
    });
    return Status::ok();
  }

 private:
  AxisTable makeTable(uint32_t inSize, uint32_t outSize) const {
    AxisTable t;
    t.taps = cubic_ ? 4 : 2;
    t.index.assign(size_t(outSize) * t.taps, 0);
    t.weight.assign(size_t(outSize) * t.taps, 0.f);
    const double last = double(inSize) - 1;
    for (uint32_t o = 0; o < outSize; ++o) {
      const double x = sourceCoordinate(o, inSize, outSize);
      uint32_t* index = &t.index[size_t(o) * t.taps];
      float* weight = &t.weight[size_t(o) * t.taps];
      if (cubic_) {
        cubicTaps(x, inSize, index, weight);
      } else if (linear_) {
        const double clamped = std::min(std::max(x, 0.0), last);
        const double lo = std::floor(clamped);
        index[0] = uint32_t(lo);
        index[1] = uint32_t(std::min(lo + 1, last));
        weight[0] = float(1 - (clamped - lo));
        weight[1] = float(clamped - lo);
      } else {
        index[0] = index[1] = uint32_t(std::min(std::max(nearestIndex(x), 0.0), last));
        weight[0] = 1.f;
      }
    }
    return t;
  }

  // ONNX's cubic interpolation at x: the 4 neighbours base-1 .. base+2 with
  // base = floor(x) (x - 1 when x is a whole number, so that the ratio lies in
  // (0, 1]), coefficients of Keys' kernel with a = cubic_coeff, neighbours
  // outside the input reading the edge (or dropped and the rest renormalized
  // under exclude_outside).
  void cubicTaps(double x, uint32_t inSize, uint32_t* index, float* weight) const {
    const double base = x == std::floor(x) ? x - 1 : std::floor(x);
    const double r = x - base, a = cubicCoeff_;
    const double c[4] = {((a * (r + 1) - 5 * a) * (r + 1) + 8 * a) * (r + 1) - 4 * a,
                         ((a + 2) * r - (a + 3)) * r * r + 1,
                         ((a + 2) * (1 - r) - (a + 3)) * (1 - r) * (1 - r) + 1,
                         ((a * (2 - r) - 5 * a) * (2 - r) + 8 * a) * (2 - r) - 4 * a};
    double sum = 0;
    for (int k = 0; k < 4; ++k) {
      const double at = base - 1 + k;
      const bool outside = at < 0 || at > double(inSize) - 1;
      const double w = excludeOutside_ && outside ? 0.0 : c[k];
      index[k] = uint32_t(std::min(std::max(at, 0.0), double(inSize) - 1));
      weight[k] = float(w);
      sum += w;
    }
    if (excludeOutside_ && sum != 0)
      for (int k = 0; k < 4; ++k) weight[k] = float(weight[k] / sum);
  }

  // Where output coordinate o samples the input, in input index units.
  double sourceCoordinate(uint32_t o, uint32_t inSize, uint32_t outSize) const {
    const double ratio = double(inSize) / double(outSize);
    if (opType_ == "Resize") {
      switch (transform_) {
        case Transform::kHalfPixel: return (o + 0.5) * ratio - 0.5;
        case Transform::kPytorchHalfPixel: return outSize > 1 ? (o + 0.5) * ratio - 0.5 : 0.0;
        case Transform::kAlignCorners: return outSize > 1 ? o * (double(inSize) - 1) / (outSize - 1) : 0.0;
        case Transform::kAsymmetric: return o * ratio;
      }
    }
    // TensorFlow: align_corners scales by (in-1)/(out-1); half-pixel centers
    // shift by 0.5 before scaling, and (bilinear only) back by 0.5 after.
    const double scale = alignCorners_ && outSize > 1 ? (double(inSize) - 1) / (outSize - 1) : ratio;
    if (halfPixel_) return linear_ ? (o + 0.5) * scale - 0.5 : (o + 0.5) * scale;
    return o * scale;
  }

  double nearestIndex(double x) const {
    if (opType_ != "Resize") return alignCorners_ ? std::round(x) : std::floor(x);
    switch (nearestRound_) {
      case NearestRound::kPreferFloor: return x == std::floor(x) + 0.5 ? std::floor(x) : std::round(x);
      case NearestRound::kPreferCeil: return x == std::floor(x) + 0.5 ? std::ceil(x) : std::round(x);
      case NearestRound::kFloor: return std::floor(x);
      case NearestRound::kCeil: return std::ceil(x);
    }
    return std::floor(x);
  }

  const std::string opType_;
  Transform transform_ = Transform::kHalfPixel;
  NearestRound nearestRound_ = NearestRound::kPreferFloor;
  bool linear_ = false, cubic_ = false, excludeOutside_ = false, alignCorners_ = false, halfPixel_ = false;
  float cubicCoeff_ = -0.75f;
  std::vector<uint32_t> inDims_, outDims_;
  std::vector<AxisTable> tables_;
};

}  // namespace

std::unique_ptr<Kernel> makeResize(const std::string& opType) {
  if (opType == "Resize" || opType == "ResizeBilinear" || opType == "ResizeNearestNeighbor")
    return std::make_unique<ResizeKernel>(opType);
  return nullptr;
}

}  // namespace qnn::ops
