// LayerNorm, Batchnorm and InstanceNorm on float32 (channel-last layouts).
// Means and variances use two passes (mean first, then squared deviations),
// which stays accurate when |mean| >> std, and the biased (population) variance.
#include <algorithm>
#include <cmath>
#include <new>

#include "kernels/op_common.h"
#include "kernels/shared_ops.h"

namespace qnn::ops {
namespace {

// An optional input may be left out or passed as a NULL tensor (undefined dtype).
bool hasInput(const std::vector<TensorView>& inputs, size_t i) {
  return inputs.size() > i && inputs[i].dtype != DType::kUndefined;
}

Status checkFloatInput(const char* op, const char* role, const TensorView& t, const std::vector<uint32_t>& dims) {
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, role, t, {DType::kFloat32}));
  if (t.dims != dims)
    return sdk::invalidTensor(std::string(op) + ": " + role + " dims " + dimsToString(t.dims) + " must be " +
                              dimsToString(dims));
  return Status::ok();
}

// ---------------------------------------------------------------------------
// Normalizes over the dims in `axes`; gamma/beta have the shape of those dims.
class LayerNormKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    epsilon_ = params.f32("epsilon", 1e-3f);
    if (!(epsilon_ >= 0.f)) return sdk::invalidParam("LayerNorm: epsilon must be >= 0");
    const sdk::ParamValue* p = params.find("axes");
    if (!p) return sdk::invalidParam("LayerNorm: missing mandatory param axes");
    if (!p->isTensor || p->dims.size() != 1 || p->dims[0] == 0)
      return sdk::invalidParam("LayerNorm: param axes must be a non-empty 1-D tensor");
    axes_ = p->tensorAsInt64();
    std::sort(axes_.begin(), axes_.end());
    if (axes_.empty() || axes_.front() < 0 || std::adjacent_find(axes_.begin(), axes_.end()) != axes_.end())
      return sdk::invalidParam("LayerNorm: axes must be distinct non-negative dims");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "LayerNorm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& dims = inputs[0].dims;
    if (dims.empty() || size_t(axes_.back()) >= dims.size())
      return sdk::invalidParam("LayerNorm: axes out of range for in[0] " + dimsToString(dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], dims));
    std::vector<uint32_t> paramDims;
    for (int64_t a : axes_) paramDims.push_back(dims[a]);
    if (hasInput(inputs, 1)) QNN_SDK_RETURN_IF_ERROR(checkFloatInput(op, "in[1] (gamma)", inputs[1], paramDims));
    if (hasInput(inputs, 2)) QNN_SDK_RETURN_IF_ERROR(checkFloatInput(op, "in[2] (beta)", inputs[2], paramDims));

    // Offsets of the reduced elements within a group and of each group's first
    // element; the common trailing-axes case is contiguous and needs neither.
    std::vector<bool> reduced(dims.size(), false);
    for (int64_t a : axes_) reduced[a] = true;
    trailing_ = size_t(axes_.back()) == dims.size() - 1 && axes_.back() - axes_.front() + 1 == int64_t(axes_.size());
    groupSize_ = 1;
    for (int64_t a : axes_) groupSize_ *= dims[a];
    numGroups_ = groupSize_ ? inputs[0].numElements() / groupSize_ : 0;
    try {
      reducedOffsets_.clear();
      groupOffsets_.clear();
      if (!trailing_) {
        reducedOffsets_ = offsetsOf(dims, reduced, true);
        groupOffsets_ = offsetsOf(dims, reduced, false);
      }
    } catch (const std::bad_alloc&) {
      return {sdk::StatusCode::kOutOfMemory, "LayerNorm: out of memory for index tables"};
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* x = inputs[0].as<const float>();
    const float* gamma = hasInput(inputs, 1) ? inputs[1].as<const float>() : nullptr;
    const float* beta = hasInput(inputs, 2) ? inputs[2].as<const float>() : nullptr;
    float* y = outputs[0].as<float>();
    const size_t n = groupSize_;
    parallelFor(numGroups_, std::max<size_t>(1, 8192 / std::max<size_t>(n, 1)), [&](size_t g0, size_t g1) {
      for (size_t g = g0; g < g1; ++g) {
        if (trailing_) {
          const float* xs = x + g * n;
          float* ys = y + g * n;
          float sum = 0.f;
          for (size_t i = 0; i < n; ++i) sum += xs[i];
          const float mean = sum / n;
          float sq = 0.f;
          for (size_t i = 0; i < n; ++i) sq += (xs[i] - mean) * (xs[i] - mean);
          const float invStd = 1.f / std::sqrt(sq / n + epsilon_);
          for (size_t i = 0; i < n; ++i)
            ys[i] = (xs[i] - mean) * invStd * (gamma ? gamma[i] : 1.f) + (beta ? beta[i] : 0.f);
        } else {
          const size_t base = groupOffsets_[g];
          float sum = 0.f;
          for (size_t i = 0; i < n; ++i) sum += x[base + reducedOffsets_[i]];
          const float mean = sum / n;
          float sq = 0.f;
          for (size_t i = 0; i < n; ++i) {
            const float d = x[base + reducedOffsets_[i]] - mean;
            sq += d * d;
          }
          const float invStd = 1.f / std::sqrt(sq / n + epsilon_);
          for (size_t i = 0; i < n; ++i) {
            const size_t at = base + reducedOffsets_[i];
            y[at] = (x[at] - mean) * invStd * (gamma ? gamma[i] : 1.f) + (beta ? beta[i] : 0.f);
          }
        }
      }
    });
    return Status::ok();
  }

 private:
  // Row-major offsets of every coordinate over the dims where reduced == want
  // (the other dims held at 0), enumerated in row-major order of those dims.
  static std::vector<size_t> offsetsOf(const std::vector<uint32_t>& dims, const std::vector<bool>& reduced, bool want) {
    std::vector<size_t> strides(dims.size(), 1);
    for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
    std::vector<size_t> offsets{0};
    for (size_t d = 0; d < dims.size(); ++d) {
      if (reduced[d] != want) continue;
      std::vector<size_t> next;
      next.reserve(offsets.size() * dims[d]);
      for (size_t o : offsets)
        for (uint32_t c = 0; c < dims[d]; ++c) next.push_back(o + c * strides[d]);
      offsets.swap(next);
    }
    return offsets;
  }

  float epsilon_ = 1e-3f;
  std::vector<int64_t> axes_;
  bool trailing_ = true;
  size_t groupSize_ = 0, numGroups_ = 0;
  std::vector<size_t> reducedOffsets_, groupOffsets_;
};

// ---------------------------------------------------------------------------
// out[..., c] = x[..., c] * weight[c] + bias[c]; statistics are pre-folded.
class BatchnormKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "Batchnorm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& dims = inputs[0].dims;
    if (dims.empty()) return sdk::invalidTensor("Batchnorm: in[0] must have rank > 0");
    channels_ = dims.back();
    QNN_SDK_RETURN_IF_ERROR(checkFloatInput(op, "in[1] (weights)", inputs[1], {channels_}));
    if (hasInput(inputs, 2)) QNN_SDK_RETURN_IF_ERROR(checkFloatInput(op, "in[2] (biases)", inputs[2], {channels_}));
    rows_ = channels_ ? inputs[0].numElements() / channels_ : 0;
    return checkOutputDims(op, outputs[0], dims);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* x = inputs[0].as<const float>();
    const float* w = inputs[1].as<const float>();
    const float* b = hasInput(inputs, 2) ? inputs[2].as<const float>() : nullptr;
    float* y = outputs[0].as<float>();
    const size_t c = channels_;
    parallelFor(rows_, std::max<size_t>(1, 16384 / std::max<size_t>(c, 1)), [&](size_t r0, size_t r1) {
      for (size_t r = r0; r < r1; ++r) {
        const float* xs = x + r * c;
        float* ys = y + r * c;
        if (b) {
          for (size_t i = 0; i < c; ++i) ys[i] = xs[i] * w[i] + b[i];
        } else {
          for (size_t i = 0; i < c; ++i) ys[i] = xs[i] * w[i];
        }
      }
    });
    return Status::ok();
  }

 private:
  uint32_t channels_ = 0;
  size_t rows_ = 0;
};

// ---------------------------------------------------------------------------
// Per (batch, channel) normalization over the spatial dims of [B, ..., C].
class InstanceNormKernel final : public Kernel {
 public:
  Status init(const OpParams& params) override {
    epsilon_ = params.f32("epsilon", 1e-12f);
    if (!(epsilon_ >= 0.f)) return sdk::invalidParam("InstanceNorm: epsilon must be >= 0");
    normalizeVariance_ = params.b("normalize_variance", true);
    const uint32_t mode = params.u32("mode", 0), region = params.u32("region", 0);
    if (mode > 1) return sdk::invalidParam("InstanceNorm: mode must be 0 (MU_SIGMA) or 1 (RMS)");
    if (region > 2) return sdk::invalidParam("InstanceNorm: region must be 0, 1 or 2");
    if (mode != 0) return sdk::notSupported("InstanceNorm: only mode MU_SIGMA (0) is supported");
    if (region != 0) return sdk::notSupported("InstanceNorm: only region ACROSS_SPATIAL (0) is supported");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "InstanceNorm";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 3, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& dims = inputs[0].dims;
    if (dims.size() < 3) return sdk::invalidTensor("InstanceNorm: in[0] must have rank > 2, got " + dimsToString(dims));
    channels_ = dims.back();
    batch_ = dims[0];
    QNN_SDK_RETURN_IF_ERROR(checkFloatInput(op, "in[1] (gamma)", inputs[1], {channels_}));
    if (hasInput(inputs, 2)) QNN_SDK_RETURN_IF_ERROR(checkFloatInput(op, "in[2] (beta)", inputs[2], {channels_}));
    spatial_ = 1;
    for (size_t d = 1; d + 1 < dims.size(); ++d) spatial_ *= dims[d];
    try {
      stats_.assign(size_t(batch_) * channels_ * 2, 0.f);
    } catch (const std::bad_alloc&) {
      return {sdk::StatusCode::kOutOfMemory, "InstanceNorm: out of memory"};
    }
    return checkOutputDims(op, outputs[0], dims);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* x = inputs[0].as<const float>();
    const float* gamma = inputs[1].as<const float>();
    const float* beta = hasInput(inputs, 2) ? inputs[2].as<const float>() : nullptr;
    float* y = outputs[0].as<float>();
    const size_t c = channels_, s = spatial_;
    parallelFor(batch_, 1, [&](size_t b0, size_t b1) {
      for (size_t b = b0; b < b1; ++b) {
        const float* xs = x + b * s * c;
        float* ys = y + b * s * c;
        // Channel-vectorized passes over the pixels: mean, then variance.
        float* mean = stats_.data() + b * c * 2;
        float* scale = mean + c;
        std::fill(mean, mean + c, 0.f);
        std::fill(scale, scale + c, 0.f);
        for (size_t p = 0; p < s; ++p)
          for (size_t i = 0; i < c; ++i) mean[i] += xs[p * c + i];
        for (size_t i = 0; i < c; ++i) mean[i] /= float(s);
        if (normalizeVariance_) {
          for (size_t p = 0; p < s; ++p)
            for (size_t i = 0; i < c; ++i) {
              const float d = xs[p * c + i] - mean[i];
              scale[i] += d * d;
            }
          for (size_t i = 0; i < c; ++i) scale[i] = gamma[i] / std::sqrt(scale[i] / float(s) + epsilon_);
        } else {
          for (size_t i = 0; i < c; ++i) scale[i] = gamma[i];
        }
        for (size_t p = 0; p < s; ++p)
          for (size_t i = 0; i < c; ++i) ys[p * c + i] = (xs[p * c + i] - mean[i]) * scale[i] + (beta ? beta[i] : 0.f);
      }
    });
    return Status::ok();
  }

 private:
  float epsilon_ = 1e-12f;
  bool normalizeVariance_ = true;
  uint32_t channels_ = 0, batch_ = 0;
  size_t spatial_ = 0;
  std::vector<float> stats_;
};

}  // namespace

std::unique_ptr<Kernel> makeNorm(const std::string& opType) {
  if (opType == "LayerNorm") return std::make_unique<LayerNormKernel>();
  if (opType == "Batchnorm") return std::make_unique<BatchnormKernel>();
  if (opType == "InstanceNorm") return std::make_unique<InstanceNormKernel>();
  return nullptr;
}

}  // namespace qnn::ops
