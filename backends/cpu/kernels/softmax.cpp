// Softmax and LogSoftmax (with beta) along any axis of a float32 tensor. Rows
// along the axis are independent, so they are split across threads; the max
// is subtracted first so exp never overflows.
#include <algorithm>
#include <cmath>

#include "core/vector_math.h"
#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"
#include "cpu/kernels/vector_exp.h"

namespace qnn::cpu {
namespace {

// A contiguous row (the usual last-axis softmax): 16 partial maxima and sums
// so the loops vectorize without reassociation flags, vector_math.h's exp
// (the portable path; AVX-512 and AVX2 below in explicit vectors). Writes
// exp(beta*x - max) to y and returns (max, sum of those).
constexpr size_t kLanes = 16;
struct RowStats {
  float maxScaled, sum;
};
QNN_CPU_ALWAYS_INLINE RowStats expRowBody(const float* x, float* y, size_t len, float beta) {
  float mx[kLanes], acc[kLanes];
  for (size_t j = 0; j < kLanes; ++j) mx[j] = -INFINITY, acc[j] = 0.f;
  size_t i = 0;
  for (; i + kLanes <= len; i += kLanes)
    for (size_t j = 0; j < kLanes; ++j) mx[j] = std::max(mx[j], beta * x[i + j]);
  for (; i < len; ++i) mx[0] = std::max(mx[0], beta * x[i]);
  float m = mx[0];
  for (size_t j = 1; j < kLanes; ++j) m = std::max(m, mx[j]);
  for (i = 0; i + kLanes <= len; i += kLanes)
    for (size_t j = 0; j < kLanes; ++j) {
      const float e = sdk::expApprox(beta * x[i + j] - m);
      y[i + j] = e;
      acc[j] += e;
    }
  for (; i < len; ++i) {
    const float e = sdk::expApprox(beta * x[i] - m);
    y[i] = e;
    acc[0] += e;
  }
  float sum = 0.f;
  for (size_t j = 0; j < kLanes; ++j) sum += acc[j];
  return {m, sum};
}
using ExpRowFn = RowStats (*)(const float*, float*, size_t, float);
#if defined(__x86_64__)
// Explicit vectors with vector_exp.h's exp (GCC left most of the body above
// scalar on AVX-512). max(bx, m) keeps m when bx is NaN, as std::max(m, bx).
QNN_CPU_TARGET_AVX512 RowStats expRowAvx512(const float* x, float* y, size_t len, float beta) {
  const __m512 vb = _mm512_set1_ps(beta);
  const size_t body = len / 32 * 32;  // two vectors per step: independent chains
  const __mmask16 all = 0xFFFF;
  __m512 mx0 = _mm512_set1_ps(-INFINITY), mx1 = mx0;
  for (size_t i = 0; i < body; i += 32) {
    mx0 = _mm512_max_ps(_mm512_mul_ps(vb, _mm512_loadu_ps(x + i)), mx0);
    mx1 = _mm512_max_ps(_mm512_mul_ps(vb, _mm512_loadu_ps(x + i + 16)), mx1);
  }
  for (size_t i = body; i < len; i += 16) {
    const __mmask16 m = __mmask16(len - i >= 16 ? all : (1u << (len - i)) - 1);
    mx0 = _mm512_mask_max_ps(mx0, m, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(m, x + i)), mx0);
  }
  const float maxScaled = _mm512_reduce_max_ps(_mm512_max_ps(mx1, mx0));
  const __m512 vmax = _mm512_set1_ps(maxScaled);
  __m512 acc0 = _mm512_setzero_ps(), acc1 = acc0;
  for (size_t i = 0; i < body; i += 32) {
    const __m512 e0 = vexp::expNonPositive512(_mm512_fmsub_ps(vb, _mm512_loadu_ps(x + i), vmax));
    const __m512 e1 = vexp::expNonPositive512(_mm512_fmsub_ps(vb, _mm512_loadu_ps(x + i + 16), vmax));
    _mm512_storeu_ps(y + i, e0);
    _mm512_storeu_ps(y + i + 16, e1);
    acc0 = _mm512_add_ps(acc0, e0);
    acc1 = _mm512_add_ps(acc1, e1);
  }
  for (size_t i = body; i < len; i += 16) {
    const __mmask16 m = __mmask16(len - i >= 16 ? all : (1u << (len - i)) - 1);
    const __m512 e = vexp::expNonPositive512(_mm512_fmsub_ps(vb, _mm512_maskz_loadu_ps(m, x + i), vmax));
    _mm512_mask_storeu_ps(y + i, m, e);
    acc0 = _mm512_mask_add_ps(acc0, m, acc0, e);
  }
  return {maxScaled, _mm512_reduce_add_ps(_mm512_add_ps(acc0, acc1))};
}
// Whole softmax of kGroupRows contiguous rows at once, each row's arithmetic exactly
// expRowAvx512's followed by the scaling by 1/sum (bit-identical results). One row alone is a
// chain of dependent steps (max, its horizontal reduction, exp, the sum's reduction, the scaling)
// that left the core idle most of the time on attention rows of 128; each pass here runs over all
// the group's rows before the next pass, so the rows' chains overlap.
constexpr size_t kGroupRows = 8;
QNN_CPU_TARGET_AVX512 void softmaxRowsAvx512(const float* const* xs, float* const* ys, size_t len, float beta) {
  constexpr size_t R = kGroupRows;
  const __m512 vb = _mm512_set1_ps(beta);
  const size_t body = len / 32 * 32;
  const __mmask16 all = 0xFFFF;
  float maxScaled[R], inv[R];
  for (size_t r = 0; r < R; ++r) {
    __m512 mx0 = _mm512_set1_ps(-INFINITY), mx1 = mx0;
    for (size_t i = 0; i < body; i += 32) {
      mx0 = _mm512_max_ps(_mm512_mul_ps(vb, _mm512_loadu_ps(xs[r] + i)), mx0);
      mx1 = _mm512_max_ps(_mm512_mul_ps(vb, _mm512_loadu_ps(xs[r] + i + 16)), mx1);
    }
    for (size_t i = body; i < len; i += 16) {
      const __mmask16 m = __mmask16(len - i >= 16 ? all : (1u << (len - i)) - 1);
      mx0 = _mm512_mask_max_ps(mx0, m, _mm512_mul_ps(vb, _mm512_maskz_loadu_ps(m, xs[r] + i)), mx0);
    }
    maxScaled[r] = _mm512_reduce_max_ps(_mm512_max_ps(mx1, mx0));
  }
  for (size_t r = 0; r < R; ++r) {
    const __m512 vmax = _mm512_set1_ps(maxScaled[r]);
    __m512 acc0 = _mm512_setzero_ps(), acc1 = acc0;
    for (size_t i = 0; i < body; i += 32) {
      const __m512 e0 = vexp::expNonPositive512(_mm512_fmsub_ps(vb, _mm512_loadu_ps(xs[r] + i), vmax));
      const __m512 e1 = vexp::expNonPositive512(_mm512_fmsub_ps(vb, _mm512_loadu_ps(xs[r] + i + 16), vmax));
      _mm512_storeu_ps(ys[r] + i, e0);
      _mm512_storeu_ps(ys[r] + i + 16, e1);
      acc0 = _mm512_add_ps(acc0, e0);
      acc1 = _mm512_add_ps(acc1, e1);
    }
    for (size_t i = body; i < len; i += 16) {
      const __mmask16 m = __mmask16(len - i >= 16 ? all : (1u << (len - i)) - 1);
      const __m512 e = vexp::expNonPositive512(_mm512_fmsub_ps(vb, _mm512_maskz_loadu_ps(m, xs[r] + i), vmax));
      _mm512_mask_storeu_ps(ys[r] + i, m, e);
      acc0 = _mm512_mask_add_ps(acc0, m, acc0, e);
    }
    inv[r] = 1.f / _mm512_reduce_add_ps(_mm512_add_ps(acc0, acc1));
  }
  for (size_t r = 0; r < R; ++r) {
    const __m512 scale = _mm512_set1_ps(inv[r]);
    for (size_t i = 0; i < len; i += 16) {
      const __mmask16 m = __mmask16(len - i >= 16 ? all : (1u << (len - i)) - 1);
      _mm512_mask_storeu_ps(ys[r] + i, m, _mm512_mul_ps(_mm512_maskz_loadu_ps(m, ys[r] + i), scale));
    }
  }
}
#endif
#if defined(__x86_64__)
QNN_CPU_TARGET_AVX2 RowStats expRowAvx2(const float* x, float* y, size_t len, float beta) {
  const size_t body = len / 8 * 8;
  const __m256 vb = _mm256_set1_ps(beta);
  __m256 mx = _mm256_set1_ps(-INFINITY);
  for (size_t i = 0; i < body; i += 8) mx = _mm256_max_ps(_mm256_mul_ps(vb, _mm256_loadu_ps(x + i)), mx);
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, mx);
  float maxScaled = lanes[0];
  for (int j = 1; j < 8; ++j) maxScaled = std::max(maxScaled, lanes[j]);
  for (size_t i = body; i < len; ++i) maxScaled = std::max(maxScaled, beta * x[i]);
  const __m256 vmax = _mm256_set1_ps(maxScaled);
  __m256 acc = _mm256_setzero_ps();
  for (size_t i = 0; i < body; i += 8) {
    const __m256 e = vexp::exp256(_mm256_fmsub_ps(vb, _mm256_loadu_ps(x + i), vmax));
    _mm256_storeu_ps(y + i, e);
    acc = _mm256_add_ps(acc, e);
  }
  _mm256_store_ps(lanes, acc);
  float sum = 0.f;
  for (int j = 0; j < 8; ++j) sum += lanes[j];
  for (size_t i = body; i < len; ++i) {
    y[i] = sdk::expApprox(beta * x[i] - maxScaled);
    sum += y[i];
  }
  return {maxScaled, sum};
}
#else
RowStats expRowAvx512(const float* x, float* y, size_t len, float beta) { return expRowBody(x, y, len, beta); }
RowStats expRowAvx2(const float* x, float* y, size_t len, float beta) { return expRowBody(x, y, len, beta); }
#endif
RowStats expRowPortable(const float* x, float* y, size_t len, float beta) { return expRowBody(x, y, len, beta); }
RowStats expRow(const float* x, float* y, size_t len, float beta) {
  static const ExpRowFn fn = pickForIsa<ExpRowFn>(expRowAvx512, expRowAvx2, expRowPortable);
  return fn(x, y, len, beta);
}

class SoftmaxKernel final : public Kernel {
 public:
  explicit SoftmaxKernel(bool isLog) : isLog_(isLog), op_(isLog ? "LogSoftmax" : "Softmax") {}

  Status init(const OpParams& params) override {
    // Softmax's axis defaults to the last dim; LogSoftmax's is mandatory.
    if (isLog_ && !params.has("axis")) return sdk::invalidParam("LogSoftmax: missing mandatory param axis");
    hasAxis_ = params.has("axis");
    axis_ = params.u32("axis", 0);
    beta_ = params.f32("beta", 1.f);
    if (!std::isfinite(beta_)) return sdk::invalidParam(std::string(op_) + ": beta must be finite");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity(op_, inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "in[0]", inputs[0], {DType::kFloat32}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op_, "out[0]", outputs[0], {DType::kFloat32}));
    const auto& dims = inputs[0].dims;
    if (dims.empty()) return sdk::invalidTensor(std::string(op_) + ": in[0] must have rank > 0");
    const size_t axis = hasAxis_ ? axis_ : dims.size() - 1;
    if (axis >= dims.size())
      return sdk::invalidParam(std::string(op_) + ": axis " + std::to_string(axis) + " out of range for in[0] " +
                               dimsToString(dims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op_, outputs[0], dims));
    outer_ = inner_ = 1;
    for (size_t d = 0; d < axis; ++d) outer_ *= dims[d];
    for (size_t d = axis + 1; d < dims.size(); ++d) inner_ *= dims[d];
    len_ = dims[axis];
    return Status::ok();
  }

  // softmax(beta * (s * x)) is softmax((beta * s) * x): max and exp already take beta * x, for a
  // negative product too.
  bool supportsEpilogue(const sdk::Epilogue& e) const override {
    return !e.clamp && !e.residualInput && !e.maxPool && !e.gelu && e.strided.empty() &&
           (!e.inputScale || std::isfinite(beta_ * *e.inputScale));
  }
  Status setEpilogue(const sdk::Epilogue& e) override {
    if (e.inputScale) beta_ = beta_ * *e.inputScale;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const float* in = inputs[0].as<const float>();
    float* out = outputs[0].as<float>();
    const size_t rows = outer_ * inner_;
    const size_t grain = std::max<size_t>(1, 4096 / std::max<size_t>(len_, 1));
    const bool grouped = inner_ == 1 && !isLog_ && cpuIsa() == Isa::kAvx512;
    parallelFor(rows, grain, [&](size_t r0, size_t r1) {
#if defined(__x86_64__)
      for (; grouped && r0 + kGroupRows <= r1; r0 += kGroupRows) {
        const float* xs[kGroupRows];
        float* ys[kGroupRows];
        for (size_t g = 0; g < kGroupRows; ++g) xs[g] = in + (r0 + g) * len_, ys[g] = out + (r0 + g) * len_;
        softmaxRowsAvx512(xs, ys, len_, beta_);
      }
#endif
      for (size_t r = r0; r < r1; ++r) {
        const size_t base = (r / inner_) * len_ * inner_ + r % inner_;
        normalizeRow(in + base, out + base, inner_);
      }
    });
    return Status::ok();
  }

 private:
  // One row of len_ elements `stride` apart. out may alias in.
  void normalizeRow(const float* x, float* y, size_t stride) const {
    if (len_ == 0) return;
    if (stride == 1 && !isLog_) {
      const RowStats st = expRow(x, y, len_, beta_);
      const float inv = 1.f / st.sum;
      for (size_t i = 0; i < len_; ++i) y[i] *= inv;
      return;
    }
    // exp(beta*x - max(beta*x)); max taken over beta*x so negative beta works.
    float maxScaled = -INFINITY;
    for (size_t i = 0; i < len_; ++i) maxScaled = std::max(maxScaled, beta_ * x[i * stride]);
    float sum = 0.f;
    if (isLog_) {
      // (beta*x - max) - log(sum): the shifted value is exact near the maximum, where
      // folding max into log(sum) first would round it away (a large max leaves
      // log(sum) few bits). The sum in double.
      double sumD = 0.0;
      for (size_t i = 0; i < len_; ++i) sumD += std::exp(static_cast<double>(beta_ * x[i * stride] - maxScaled));
      const double logSum = std::log(sumD);
      for (size_t i = 0; i < len_; ++i)
        y[i * stride] = static_cast<float>(static_cast<double>(beta_ * x[i * stride] - maxScaled) - logSum);
    } else {
      for (size_t i = 0; i < len_; ++i) {
        const float e = std::exp(beta_ * x[i * stride] - maxScaled);
        y[i * stride] = e;
        sum += e;
      }
      const float inv = 1.f / sum;
      for (size_t i = 0; i < len_; ++i) y[i * stride] *= inv;
    }
  }

  const bool isLog_;
  const char* op_;
  bool hasAxis_ = false;
  uint32_t axis_ = 0;
  float beta_ = 1.f;
  size_t outer_ = 1, inner_ = 1, len_ = 0;
};

}  // namespace

std::unique_ptr<Kernel> makeSoftmax(const std::string& opType) {
  if (opType == "Softmax") return std::make_unique<SoftmaxKernel>(false);
  if (opType == "LogSoftmax") return std::make_unique<SoftmaxKernel>(true);
  return nullptr;
}

}  // namespace qnn::cpu
