// Resize (ONNX-style, any number of spatial dims), ResizeBilinear and
// ResizeNearestNeighbor (TensorFlow-style) on channel-last float32 tensors.
// All three reduce to per-spatial-dim tables computed in prepare: for every
// output coordinate the two source indices and the weight of the second; a
// nearest lookup is the special case weight 0. Execute then blends the 2^n
// corner pixels, vectorized over channels.
#include <algorithm>
#include <cmath>
#include <new>

#include "kernels/kernel_factories.h"
#include "kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

constexpr size_t kMaxSpatialDims = 8;

enum class Transform { kHalfPixel = 0, kPytorchHalfPixel = 1, kAlignCorners = 2, kAsymmetric = 3 };
enum class NearestRound { kPreferFloor = 0, kPreferCeil = 1, kFloor = 2, kCeil = 3 };

struct AxisTable {
  std::vector<uint32_t> lo, hi;  // source indices
  std::vector<float> w;          // weight of hi; lo gets 1 - w
};

class ResizeKernel final : public Kernel {
 public:
  explicit ResizeKernel(std::string opType) : opType_(std::move(opType)) {}

  Status init(const OpParams& params) override {
    const char* op = opType_.c_str();
    if (opType_ == "Resize") {
      if (params.b("exclude_outside", false))
        return sdk::notSupported("Resize: exclude_outside = true is not supported");
      const uint32_t t = params.u32("transformation_mode", 0), i = params.u32("interpolation_mode", 0),
                     n = params.u32("nearest_mode", 0);
      if (t > 3) return sdk::invalidParam("Resize: transformation_mode must be 0..3");
      if (i > 1) return sdk::invalidParam("Resize: interpolation_mode must be 0 (NEAREST) or 1 (LINEAR)");
      if (n > 3) return sdk::invalidParam("Resize: nearest_mode must be 0..3");
      transform_ = Transform(t);
      linear_ = i == 1;
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
        for (size_t corner = 0; corner < (size_t(1) << n); ++corner) {
          float weight = 1.f;
          size_t offset = 0;
          for (size_t d = 0; d < n; ++d) {
            const AxisTable& t = tables_[d];
            const bool upper = (corner >> d) & 1;
            weight *= upper ? t.w[coord[d]] : 1.f - t.w[coord[d]];
            offset += (upper ? t.hi[coord[d]] : t.lo[coord[d]]) * inStride[d];
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
    t.lo.resize(outSize);
    t.hi.resize(outSize);
    t.w.assign(outSize, 0.f);
    const double last = double(inSize) - 1;
    for (uint32_t o = 0; o < outSize; ++o) {
      const double x = sourceCoordinate(o, inSize, outSize);
      if (linear_) {
        const double clamped = std::min(std::max(x, 0.0), last);
        const double lo = std::floor(clamped);
        t.lo[o] = uint32_t(lo);
        t.hi[o] = uint32_t(std::min(lo + 1, last));
        t.w[o] = float(clamped - lo);
      } else {
        t.lo[o] = t.hi[o] = uint32_t(std::min(std::max(nearestIndex(x), 0.0), last));
      }
    }
    return t;
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
  bool linear_ = false, alignCorners_ = false, halfPixel_ = false;
  std::vector<uint32_t> inDims_, outDims_;
  std::vector<AxisTable> tables_;
};

}  // namespace

std::unique_ptr<Kernel> makeResize(const std::string& opType) {
  if (opType == "Resize" || opType == "ResizeBilinear" || opType == "ResizeNearestNeighbor")
    return std::make_unique<ResizeKernel>(opType);
  return nullptr;
}

}  // namespace qnn::cpu
