// Quantized Resize (ONNX semantics), ResizeBilinear and ResizeNearestNeighbor
// (TensorFlow semantics) on [B, H, W, C] (or [B, W, C]).
// Per output row / column, the source coordinate is computed in double as in
// the op definition, giving two taps (lo, hi) and a fraction f (0 for nearest).
// The fraction becomes a Q15 weight F = round_half_away(f * 2^15), and
//   acc = sum over the 2x2 taps of wy * wx * (x + o_x)   (w = 2^15 - F or F)
//   y   = requantize(acc, s_x / (s_y * 2^30))
// so nearest sampling is an exact copy-with-requantization. Resize with
// interpolation_mode CUBIC (cubic_coeff, exclude_outside) runs the shared float
// algorithm of sdk/ops/resize.cpp on dequantized values (real_valued.cpp), the
// CPU backend's math.
#include <algorithm>
#include <cmath>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

constexpr int kWeightBits = 15;

struct Tap {
  int64_t lo = 0, hi = 0;
  int64_t weightHi = 0;  // Q15 weight of hi; lo gets 2^15 - weightHi
};

Tap makeTap(int64_t lo, int64_t hi, double frac) {
  return Tap{lo, hi, int64_t(std::llround(frac * double(1 << kWeightBits)))};
}
Tap linearTap(double coord, int64_t in) {
  coord = std::min(std::max(coord, 0.0), double(in - 1));
  const int64_t lo = int64_t(std::floor(coord));
  return makeTap(lo, std::min(lo + 1, in - 1), coord - double(lo));
}
Tap nearestTap(double index, int64_t in) {
  const int64_t i = std::min<int64_t>(std::max<int64_t>(int64_t(index), 0), in - 1);
  return makeTap(i, i, 0.0);
}

class QuantResize final : public Kernel {
 public:
  explicit QuantResize(std::string op) : op_(std::move(op)) {}

  Status init(const OpParams& params) override {
    cubic_.reset();
    if (op_ == "Resize") {
      transformation_ = params.u32("transformation_mode", 0);
      const uint32_t interpolation = params.u32("interpolation_mode", 0);
      nearestMode_ = params.u32("nearest_mode", 0);
      if (transformation_ > 3) return sdk::invalidParam("Resize: transformation_mode must be 0..3");
      if (interpolation > 2)
        return sdk::invalidParam("Resize: interpolation_mode must be 0 (NEAREST), 1 (LINEAR) or 2 (CUBIC)");
      if (interpolation == 2) {  // the shared float algorithm on real values
        cubic_ = makeRealValued("Resize");
        return cubic_ ? cubic_->init(params) : sdk::notSupported("Resize: no cubic implementation");
      }
      if (params.b("exclude_outside", false))
        return sdk::notSupported("Resize: exclude_outside = true is supported with interpolation_mode CUBIC only");
      if (nearestMode_ > 3) return sdk::invalidParam("Resize: nearest_mode must be 0..3");
      linear_ = interpolation == 1;
    } else {
      linear_ = op_ == "ResizeBilinear";
      alignCorners_ = params.b("align_corners", false);
      halfPixel_ = params.b("half_pixel_centers", false);
    }
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    if (cubic_) return cubic_->prepare(inputs, outputs);
    const auto& in = inputs[0].dims;
    const auto& out = outputs[0].dims;
    const bool rank3 = in.size() == 3 && op_ == "Resize";
    if (!(in.size() == 4 || rank3) || out.size() != in.size())
      return sdk::invalidTensor(op_ + ": in[0] and out[0] must be [B, H, W, C]" + (op_ == "Resize" ? " or [B, W, C]" : ""));
    in4_ = rank3 ? std::vector<uint32_t>{in[0], 1, in[1], in[2]} : in;
    out4_ = rank3 ? std::vector<uint32_t>{out[0], 1, out[1], out[2]} : out;
    if (in4_[0] != out4_[0] || in4_[3] != out4_[3] || in4_[1] == 0 || in4_[2] == 0)
      return sdk::invalidTensor(op_ + ": out[0] " + dimsToString(out) + " must keep batch and channels of " +
                                dimsToString(in));
    rows_ = taps(in4_[1], out4_[1]);
    cols_ = taps(in4_[2], out4_[2]);
    Encoding ex, ey;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ex));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &ey));
    inOffset_ = ex.offset, outOffset_ = ey.offset;
    range_ = rangeOf(outputs[0]);
    return multiplierFor(op, double(ex.scale) / (double(ey.scale) * std::ldexp(1.0, 2 * kWeightBits)), &mult_);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (cubic_) return cubic_->execute(inputs, outputs);
    const size_t H = in4_[1], W = in4_[2], C = in4_[3], OH = out4_[1], OW = out4_[2];
    const int64_t one = int64_t(1) << kWeightBits;
    std::vector<int64_t> row(C);
    for (size_t b = 0; b < in4_[0]; ++b)
      for (size_t y = 0; y < OH; ++y)
        for (size_t x = 0; x < OW; ++x) {
          const Tap& ty = rows_[y];
          const Tap& tx = cols_[x];
          const int64_t wy[2] = {one - ty.weightHi, ty.weightHi}, wx[2] = {one - tx.weightHi, tx.weightHi};
          const int64_t sy[2] = {ty.lo, ty.hi}, sx[2] = {tx.lo, tx.hi};
          for (size_t c = 0; c < C; ++c) {
            int64_t acc = 0;
            for (int i = 0; i < 2; ++i)
              for (int j = 0; j < 2; ++j)
                acc += wy[i] * wx[j] * (loadInt(inputs[0], ((b * H + size_t(sy[i])) * W + size_t(sx[j])) * C + c) + inOffset_);
            row[c] = fx::requantize(acc, mult_, outOffset_, range_);
          }
          storeInts(outputs[0], ((b * OH + y) * OW + x) * C, row.data(), C);
        }
    return Status::ok();
  }

 private:
  // The taps of every output coordinate along one axis (op definitions).
  std::vector<Tap> taps(int64_t in, int64_t out) const {
    std::vector<Tap> t;
    for (int64_t o = 0; o < out; ++o) {
      if (op_ == "Resize") {
        const double scale = double(out) / double(in);
        double s;
        switch (transformation_) {
          case 0: s = (double(o) + 0.5) / scale - 0.5; break;
          case 1: s = out > 1 ? (double(o) + 0.5) / scale - 0.5 : 0.0; break;
          case 2: s = out == 1 ? 0.0 : double(o) * double(in - 1) / double(out - 1); break;
          default: s = double(o) / scale; break;
        }
        if (linear_) {
          t.push_back(linearTap(s, in));
        } else {
          const bool tie = s - std::floor(s) == 0.5;
          double idx;
          switch (nearestMode_) {
            case 0: idx = tie ? std::floor(s) : std::round(s); break;
            case 1: idx = tie ? std::ceil(s) : std::round(s); break;
            case 2: idx = std::floor(s); break;
            default: idx = std::ceil(s); break;
          }
          t.push_back(nearestTap(idx, in));
        }
        continue;
      }
      const double scale = alignCorners_ && out > 1 ? double(in - 1) / double(out - 1) : double(in) / double(out);
      if (linear_) {
        // TensorFlow: lower = max(floor(s), 0), upper = min(ceil(s), in - 1), lerp = s - floor(s).
        const double s = halfPixel_ ? (double(o) + 0.5) * scale - 0.5 : double(o) * scale;
        const int64_t lo = std::max<int64_t>(int64_t(std::floor(s)), 0), hi = std::min<int64_t>(int64_t(std::ceil(s)), in - 1);
        t.push_back(makeTap(std::min(lo, in - 1), hi, s - std::floor(s)));
      } else {
        const double s = halfPixel_ ? (double(o) + 0.5) * scale : double(o) * scale;
        t.push_back(nearestTap(alignCorners_ ? std::round(s) : std::floor(s), in));
      }
    }
    return t;
  }

  std::string op_;
  std::unique_ptr<Kernel> cubic_;  // interpolation_mode CUBIC
  uint32_t transformation_ = 0, nearestMode_ = 0;
  bool linear_ = false, alignCorners_ = false, halfPixel_ = false;
  std::vector<uint32_t> in4_, out4_;
  std::vector<Tap> rows_, cols_;
  int32_t inOffset_ = 0, outOffset_ = 0;
  fx::FixedPointMultiplier mult_;
  fx::QuantRange range_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantResize(const std::string& op) { return std::make_unique<QuantResize>(op); }

}  // namespace qnn::htp
