// Quantized LayerNorm over the last axis (the only axis the HTP accepts) and
// InstanceNorm (per batch and channel over the spatial axes), in integers. Per
// group of N values, v = x + o_x:
//   S1 = sum v, S2 = sum v^2, c_i = N v_i - S1           (exact)
//   D  = N S2 - S1^2 + E,  E = round_half_away(eps N^2 / s_x^2)   (prepare, double)
//   R  = floor(sqrt(D * 2^32))                           (exact integer square root)
//   z_i = round_half_away(c_i * 2^32 / R)                (normalized value, Q16; 0 if R = 0)
//   acc_i = z_i (g_i + o_g) + round_half_away(s_b (b_i + o_b) 2^16 / s_g)
//   y_i = requantize(acc_i, s_g / (2^16 s_y))
// Without gamma, g + o_g = 1 and s_g = 1; without beta the bias term is 0.
// LayerNorm's gamma / beta run along the row, InstanceNorm's per channel.
#include <cmath>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

__extension__ typedef __int128 Wide;
__extension__ typedef unsigned __int128 UWide;

constexpr int kNormBits = 16;

// floor(sqrt(v)) for v >= 0, exact: a long double guess corrected by +-1 steps.
UWide isqrt(UWide v) {
  UWide r = UWide(std::sqrt(static_cast<long double>(v)));
  while (r > 0 && r * r > v) --r;
  while ((r + 1) * (r + 1) <= v) ++r;
  return r;
}

Wide roundedDivideWide(Wide num, Wide den) {
  const Wide mag = num < 0 ? -num : num;
  const Wide r = (2 * mag + den) / (2 * den);
  return num < 0 ? -r : r;
}

// gamma / beta: their encodings at prepare, g + o_g and the Q16 beta term at execute.
class Affine {
 public:
  // in[1] / in[2], when present: datatype and `count` elements.
  Status check(const char* op, const std::vector<TensorView>& inputs, size_t count) const {
    for (size_t k = 1; k < inputs.size(); ++k) {
      QNN_SDK_RETURN_IF_ERROR(checkDType(op, k == 1 ? "in[1] (gamma)" : "in[2] (beta)", inputs[k],
                                         {DType::kUFixed8, DType::kUFixed16, DType::kSFixed8, DType::kSFixed32}));
      if (inputs[k].numElements() != count)
        return sdk::invalidTensor(std::string(op) + ": " + (k == 1 ? "gamma" : "beta") + " must have " +
                                  std::to_string(count) + " elements");
    }
    return Status::ok();
  }
  Status prepare(const char* op, const std::vector<TensorView>& inputs) {
    eg_ = Encoding{1.f, 0};
    eb_ = Encoding{1.f, 0};
    if (inputs.size() >= 2) QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[1] (gamma)", inputs[1], &eg_));
    if (inputs.size() >= 3) QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[2] (beta)", inputs[2], &eb_));
    return Status::ok();
  }
  float gammaScale() const { return eg_.scale; }
  // gamma[i] = g_i + o_g, beta[i] = round_half_away(s_b (b_i + o_b) 2^16 / s_g); absent tensors leave the defaults.
  void read(const TensorView* gammaTensor, const TensorView* betaTensor, std::vector<int64_t>* gamma,
            std::vector<int64_t>* beta) const {
    for (size_t i = 0; i < gamma->size(); ++i) {
      if (gammaTensor) (*gamma)[i] = loadInt(*gammaTensor, i) + eg_.offset;
      if (betaTensor)
        (*beta)[i] = std::llround(double(eb_.scale) * double(loadInt(*betaTensor, i) + eb_.offset) *
                                  std::ldexp(1.0, kNormBits) / double(eg_.scale));
    }
  }

 private:
  Encoding eg_, eb_;
};

// One group of n values v = x + o_x -> outputs (the integer steps above).
class GroupNormalizer {
 public:
  Status prepare(const char* op, const Encoding& ex, float gammaScale, float epsilon, size_t n, const TensorView& out) {
    Encoding ey;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", out, &ey));
    outOffset_ = ey.offset;
    range_ = rangeOf(out);
    epsilonTerm_ = std::llround(double(epsilon) * double(n) * double(n) / (double(ex.scale) * double(ex.scale)));
    return multiplierFor(op, double(gammaScale) / (std::ldexp(1.0, kNormBits) * double(ey.scale)), &mult_);
  }
  // gamma / beta indexed i * step (step 0: one value for the whole group).
  void run(const std::vector<int64_t>& v, const int64_t* gamma, const int64_t* beta, size_t step, int64_t* out) const {
    Wide s1 = 0, s2 = 0;
    for (int64_t x : v) s1 += x, s2 += Wide(x) * x;
    const Wide n = Wide(v.size());
    const Wide root = Wide(isqrt(UWide(n * s2 - s1 * s1 + epsilonTerm_) << 32));
    for (size_t i = 0; i < v.size(); ++i) {
      const Wide c = n * v[i] - s1;
      const int64_t z = root == 0 ? 0 : int64_t(roundedDivideWide(c * (Wide(1) << 32), root));
      out[i] = fx::requantize(z * gamma[i * step] + beta[i * step], mult_, outOffset_, range_);
    }
  }

 private:
  int32_t outOffset_ = 0;
  int64_t epsilonTerm_ = 0;
  fx::FixedPointMultiplier mult_;
  fx::QuantRange range_;
};

class QuantLayerNorm final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    if (!params.has("axes")) return sdk::invalidParam("LayerNorm: axes is mandatory");
    axes_ = params.ints("axes", {});
    epsilon_ = params.f32("epsilon", 0.001f);
    if (!(epsilon_ >= 0) || !std::isfinite(epsilon_)) return sdk::invalidParam("LayerNorm: epsilon must be >= 0");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "LayerNorm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    const size_t rank = inputs[0].rank();
    if (rank == 0 || axes_.size() != 1 || axes_[0] != int64_t(rank - 1))
      return sdk::notSupported("LayerNorm: only normalization over the last axis is supported on HTP");
    n_ = inputs[0].dims.back();
    hasGamma_ = inputs.size() >= 2, hasBeta_ = inputs.size() == 3;
    QNN_SDK_RETURN_IF_ERROR(affine_.check(op, inputs, n_));
    Encoding ex;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ex));
    inOffset_ = ex.offset;
    QNN_SDK_RETURN_IF_ERROR(affine_.prepare(op, inputs));
    return normalizer_.prepare(op, ex, affine_.gammaScale(), epsilon_, n_, outputs[0]);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (n_ == 0) return Status::ok();
    std::vector<int64_t> gamma(n_, 1), beta(n_, 0), v(n_), row(n_);
    affine_.read(hasGamma_ ? &inputs[1] : nullptr, hasBeta_ ? &inputs[2] : nullptr, &gamma, &beta);
    const size_t rows = inputs[0].numElements() / n_;
    for (size_t r = 0; r < rows; ++r) {
      for (size_t i = 0; i < n_; ++i) v[i] = loadInt(inputs[0], r * n_ + i) + inOffset_;
      normalizer_.run(v, gamma.data(), beta.data(), 1, row.data());
      storeInts(outputs[0], r * n_, row.data(), n_);
    }
    return Status::ok();
  }

 private:
  std::vector<int64_t> axes_;
  float epsilon_ = 0.001f;
  size_t n_ = 0;
  bool hasGamma_ = false, hasBeta_ = false;
  int32_t inOffset_ = 0;
  Affine affine_;
  GroupNormalizer normalizer_;
};

// ---------------------------------------------------------------------------
class QuantInstanceNorm final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    epsilon_ = params.f32("epsilon", 1e-12f);
    if (!(epsilon_ >= 0) || !std::isfinite(epsilon_)) return sdk::invalidParam("InstanceNorm: epsilon must be >= 0");
    if (params.u32("mode", 0) != 0) return sdk::notSupported("InstanceNorm: only mode MU_SIGMA is supported on HTP");
    if (params.u32("region", 0) != 0)
      return sdk::notSupported("InstanceNorm: only region ACROSS_SPATIAL is supported on HTP");
    if (!params.b("normalize_variance", true))
      return sdk::notSupported("InstanceNorm: normalize_variance = false is not supported");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "InstanceNorm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], inputs[0].dims));
    const auto& d = inputs[0].dims;
    if (d.size() < 2) return sdk::invalidTensor("InstanceNorm: in[0] needs rank >= 2 ([batch, ..., channel])");
    batch_ = d[0], channels_ = d.back();
    spatial_ = 1;
    for (size_t i = 1; i + 1 < d.size(); ++i) spatial_ *= d[i];
    QNN_SDK_RETURN_IF_ERROR(affine_.check(op, inputs, channels_));
    Encoding ex;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ex));
    inOffset_ = ex.offset;
    hasBeta_ = inputs.size() == 3;
    QNN_SDK_RETURN_IF_ERROR(affine_.prepare(op, inputs));
    return normalizer_.prepare(op, ex, affine_.gammaScale(), epsilon_, spatial_, outputs[0]);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (spatial_ == 0 || channels_ == 0) return Status::ok();
    std::vector<int64_t> gamma(channels_, 1), beta(channels_, 0), v(spatial_), out(spatial_);
    affine_.read(&inputs[1], hasBeta_ ? &inputs[2] : nullptr, &gamma, &beta);
    for (size_t b = 0; b < batch_; ++b)
      for (size_t c = 0; c < channels_; ++c) {
        const size_t base = b * spatial_ * channels_ + c;
        for (size_t i = 0; i < spatial_; ++i) v[i] = loadInt(inputs[0], base + i * channels_) + inOffset_;
        normalizer_.run(v, &gamma[c], &beta[c], 0, out.data());
        for (size_t i = 0; i < spatial_; ++i) storeInt(outputs[0], base + i * channels_, out[i]);
      }
    return Status::ok();
  }

 private:
  float epsilon_ = 1e-12f;
  size_t batch_ = 0, channels_ = 0, spatial_ = 0;
  bool hasBeta_ = false;
  int32_t inOffset_ = 0;
  Affine affine_;
  GroupNormalizer normalizer_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantInstanceNorm(const std::string&) { return std::make_unique<QuantInstanceNorm>(); }

std::unique_ptr<Kernel> makeQuantLayerNorm(const std::string&) { return std::make_unique<QuantLayerNorm>(); }

}  // namespace qnn::htp
