// Stft (float32), ONNX's STFT as QNN takes it (ONNX Runtime's QNN EP maps it:
// signal [batch, length, 1] real or [batch, length, 2] complex, the window as an
// optional second input, frame_step / frame_length / onesided as params):
//   out[b][t][k] = sum_n w[n] x[b][t * frame_step + n] e^(-2 pi i k n / frame_length)
// as (real, imaginary) pairs, frames = (length - frame_length) / frame_step + 1,
// bins = frame_length / 2 + 1 when onesided, else frame_length. frame_length
// defaults to the window's length; without a window the frames are unweighted.
// Sums run in double over a precomputed twiddle table.
#include <cmath>


#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

class StftKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("frame_step")) return sdk::invalidParam("Stft: missing mandatory param frame_step");
    step_ = params.u32("frame_step", 0);
    if (step_ == 0) return sdk::invalidParam("Stft: frame_step must be > 0");
    lengthParam_ = params.u32("frame_length", 0);
    onesided_ = params.b("onesided", true);
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Stft";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[0] (signal)", inputs[0], 3));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (signal)", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    batch_ = inputs[0].dims[0], length_ = inputs[0].dims[1], components_ = inputs[0].dims[2];
    if (components_ != 1 && components_ != 2)
      return sdk::invalidTensor(std::string(op) + ": in[0]'s last dim must be 1 (real) or 2 (complex)");
    windowed_ = inputs.size() == 2 && !inputs[1].dims.empty();
    frame_ = lengthParam_;
    if (windowed_) {
      QNN_SDK_RETURN_IF_ERROR(checkRank(op, "in[1] (window)", inputs[1], 1));
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1] (window)", inputs[1], {DType::kFloat32}));
      if (frame_ == 0) frame_ = inputs[1].dims[0];
      if (inputs[1].dims[0] != frame_)
        return sdk::invalidTensor(std::string(op) + ": the window has " + std::to_string(inputs[1].dims[0]) +
                                  " samples, frame_length is " + std::to_string(frame_));
    }
    if (frame_ == 0) return sdk::invalidParam(std::string(op) + ": frame_length is needed without a window");
    if (frame_ > length_)
      return sdk::invalidTensor(std::string(op) + ": frame_length " + std::to_string(frame_) + " exceeds the signal's " +
                                std::to_string(length_) + " samples");
    frames_ = (length_ - frame_) / step_ + 1;
    bins_ = onesided_ ? frame_ / 2 + 1 : frame_;
    cos_.resize(size_t(bins_) * frame_), sin_.resize(size_t(bins_) * frame_);
    for (uint32_t k = 0; k < bins_; ++k)
      for (uint32_t n = 0; n < frame_; ++n) {
        const double a = -2.0 * M_PI * double((uint64_t(k) * n) % frame_) / double(frame_);
        cos_[size_t(k) * frame_ + n] = std::cos(a), sin_[size_t(k) * frame_ + n] = std::sin(a);
      }
    return checkOutputDims(op, outputs[0], {batch_, frames_, bins_, 2});
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* x = inputs[0].as<const float>();
    const float* w = windowed_ ? inputs[1].as<const float>() : nullptr;
    float* out = outputs[0].as<float>();
    std::vector<double> re(frame_), im(frame_);
    for (uint32_t b = 0; b < batch_; ++b)
      for (uint32_t t = 0; t < frames_; ++t) {
        const float* f = x + (size_t(b) * length_ + size_t(t) * step_) * components_;
        for (uint32_t n = 0; n < frame_; ++n) {
          const double g = w ? w[n] : 1.0;
          re[n] = g * f[size_t(n) * components_];
          im[n] = components_ == 2 ? g * f[size_t(n) * 2 + 1] : 0.0;
        }
        float* o = out + (size_t(b) * frames_ + t) * bins_ * 2;
        for (uint32_t k = 0; k < bins_; ++k) {
          const double* c = cos_.data() + size_t(k) * frame_;
          const double* s = sin_.data() + size_t(k) * frame_;
          double sr = 0, si = 0;
          for (uint32_t n = 0; n < frame_; ++n) sr += re[n] * c[n] - im[n] * s[n], si += re[n] * s[n] + im[n] * c[n];
          o[k * 2] = float(sr), o[k * 2 + 1] = float(si);
        }
      }
    return Status::ok();
  }

 private:
  uint32_t step_ = 0, lengthParam_ = 0, frame_ = 0, batch_ = 0, length_ = 0, components_ = 1, frames_ = 0, bins_ = 0;
  bool onesided_ = true, windowed_ = false;
  std::vector<double> cos_, sin_;
};

}  // namespace

std::unique_ptr<Kernel> makeStft(const std::string& opType) {
  if (opType == "Stft") return std::make_unique<StftKernel>();
  return nullptr;
}

}  // namespace qnn::ops
