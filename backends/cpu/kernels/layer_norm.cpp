// LayerNorm over trailing axes on AVX-512 / AVX2: the CPU backend's fast path
// in front of the shared kernel (sdk/ops/norm.cpp), which validates every case
// and runs the others (axes that are not the trailing dims, the portable
// path). The shared kernel sums each row in one float chain, which cannot be
// vectorized without reordering the additions: a transformer's 128 x 256
// LayerNorm took 41 us there. Here each pass over a row keeps 16-lane partial
// sums (summed at the end), so results differ from the shared kernel only by
// that order of additions — the same two passes (mean, then squared
// deviations), population variance, 1 / sqrt(var + epsilon), then
// (x - mean) * invStd * gamma + beta.
#include <algorithm>
#include <cmath>

#include "cpu/kernels/cpu_isa.h"
#include "cpu/kernels/kernel_factories.h"
#include "cpu/kernels/kernel_util.h"

#if defined(__x86_64__)
#include "cpu/kernels/x86_simd.h"
#endif

namespace qnn::cpu {
namespace {

// `rows` consecutive rows of n floats.
using RowsFn = void (*)(const float* x, const float* gamma, const float* beta, float* y, size_t n, float epsilon,
                        size_t rows);

#if defined(__x86_64__)
// Each pass runs over a group of rows before the next pass: a row alone is a chain (its sum, the
// reduction, the squared deviations, another reduction, the square root) that kept the core
// waiting; the rows' chains now overlap. Each row's arithmetic is unchanged.
QNN_CPU_TARGET_AVX512 void rowsAvx512(const float* x, const float* gamma, const float* beta, float* y, size_t n,
                                      float epsilon, size_t rows) {
  constexpr size_t kGroup = 8;
  for (size_t r0 = 0; r0 < rows; r0 += kGroup) {
    const size_t g = std::min(kGroup, rows - r0);
    float mean[kGroup], invStd[kGroup];
    for (size_t r = 0; r < g; ++r) {
      const float* xr = x + (r0 + r) * n;
      __m512 s = _mm512_setzero_ps();
      for (size_t i = 0; i < n; i += 16)
        s = _mm512_add_ps(s, _mm512_maskz_loadu_ps(__mmask16(n - i >= 16 ? 0xFFFF : (1u << (n - i)) - 1), xr + i));
      mean[r] = _mm512_reduce_add_ps(s) / float(n);
    }
    for (size_t r = 0; r < g; ++r) {
      const float* xr = x + (r0 + r) * n;
      const __m512 vmean = _mm512_set1_ps(mean[r]);
      __m512 q = _mm512_setzero_ps();
      for (size_t i = 0; i < n; i += 16) {
        const __mmask16 m = __mmask16(n - i >= 16 ? 0xFFFF : (1u << (n - i)) - 1);
        const __m512 d = _mm512_maskz_sub_ps(m, _mm512_maskz_loadu_ps(m, xr + i), vmean);
        q = _mm512_fmadd_ps(d, d, q);
      }
      invStd[r] = 1.f / std::sqrt(_mm512_reduce_add_ps(q) / float(n) + epsilon);
    }
    for (size_t r = 0; r < g; ++r) {
      const float* xr = x + (r0 + r) * n;
      float* yr = y + (r0 + r) * n;
      const __m512 vmean = _mm512_set1_ps(mean[r]), vinv = _mm512_set1_ps(invStd[r]);
      for (size_t i = 0; i < n; i += 16) {
        const __mmask16 m = __mmask16(n - i >= 16 ? 0xFFFF : (1u << (n - i)) - 1);
        __m512 v = _mm512_mul_ps(_mm512_sub_ps(_mm512_maskz_loadu_ps(m, xr + i), vmean), vinv);
        if (gamma) v = _mm512_mul_ps(v, _mm512_maskz_loadu_ps(m, gamma + i));
        if (beta) v = _mm512_add_ps(v, _mm512_maskz_loadu_ps(m, beta + i));
        _mm512_mask_storeu_ps(yr + i, m, v);
      }
    }
  }
}

QNN_CPU_TARGET_AVX2 float sum256(__m256 v) {
  __m128 h = _mm_add_ps(_mm256_castps256_ps128(v), _mm256_extractf128_ps(v, 1));
  h = _mm_add_ps(h, _mm_movehl_ps(h, h));
  h = _mm_add_ss(h, _mm_shuffle_ps(h, h, 1));
  return _mm_cvtss_f32(h);
}

QNN_CPU_TARGET_AVX2 void rowAvx2(const float* x, const float* gamma, const float* beta, float* y, size_t n,
                                 float epsilon) {
  const size_t body = n / 8 * 8;
  __m256 s = _mm256_setzero_ps();
  for (size_t i = 0; i < body; i += 8) s = _mm256_add_ps(s, _mm256_loadu_ps(x + i));
  float sum = sum256(s);
  for (size_t i = body; i < n; ++i) sum += x[i];
  const float mean = sum / float(n);
  const __m256 vmean = _mm256_set1_ps(mean);
  __m256 q = _mm256_setzero_ps();
  for (size_t i = 0; i < body; i += 8) {
    const __m256 d = _mm256_sub_ps(_mm256_loadu_ps(x + i), vmean);
    q = _mm256_fmadd_ps(d, d, q);
  }
  float sq = sum256(q);
  for (size_t i = body; i < n; ++i) sq += (x[i] - mean) * (x[i] - mean);
  const float invStd = 1.f / std::sqrt(sq / float(n) + epsilon);
  const __m256 vinv = _mm256_set1_ps(invStd);
  for (size_t i = 0; i < body; i += 8) {
    __m256 v = _mm256_mul_ps(_mm256_sub_ps(_mm256_loadu_ps(x + i), vmean), vinv);
    if (gamma) v = _mm256_mul_ps(v, _mm256_loadu_ps(gamma + i));
    if (beta) v = _mm256_add_ps(v, _mm256_loadu_ps(beta + i));
    _mm256_storeu_ps(y + i, v);
  }
  for (size_t i = body; i < n; ++i) y[i] = (x[i] - mean) * invStd * (gamma ? gamma[i] : 1.f) + (beta ? beta[i] : 0.f);
}

QNN_CPU_TARGET_AVX2 void rowsAvx2(const float* x, const float* gamma, const float* beta, float* y, size_t n,
                                  float epsilon, size_t rows) {
  for (size_t r = 0; r < rows; ++r) rowAvx2(x + r * n, gamma, beta, y + r * n, n, epsilon);
}

RowsFn selectRows() { return pickForIsa<RowsFn>(rowsAvx512, rowsAvx2, nullptr); }
#else
RowsFn selectRows() { return nullptr; }
#endif

class LayerNormKernel final : public Kernel {
 public:
  explicit LayerNormKernel(std::unique_ptr<Kernel> shared) : shared_(std::move(shared)) {}

  Status init(const OpParams& params) override {
    QNN_SDK_RETURN_IF_ERROR(shared_->init(params));
    epsilon_ = params.f32("epsilon", 1e-3f);
    const sdk::ParamValue* p = params.find("axes");
    axes_ = p ? p->tensorAsInt64() : std::vector<int64_t>{};
    std::sort(axes_.begin(), axes_.end());
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(shared_->prepare(inputs, outputs));  // every check, with its messages
    const auto& dims = inputs[0].dims;
    // Trailing contiguous axes: each group is one contiguous row.
    const bool trailing = !axes_.empty() && size_t(axes_.back()) == dims.size() - 1 &&
                          axes_.back() - axes_.front() + 1 == int64_t(axes_.size());
    rowsFn_ = trailing ? selectRows() : nullptr;
    n_ = 1;
    for (int64_t a : axes_) n_ *= dims[size_t(a)];
    rows_ = n_ ? inputs[0].numElements() / n_ : 0;
    // An optional input may be left out or passed as a NULL tensor (undefined dtype).
    hasGamma_ = inputs.size() > 1 && inputs[1].dtype != DType::kUndefined;
    hasBeta_ = inputs.size() > 2 && inputs[2].dtype != DType::kUndefined;
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    if (!rowsFn_ || n_ == 0) return shared_->execute(inputs, outputs);
    const float* x = inputs[0].as<const float>();
    const float* gamma = hasGamma_ ? inputs[1].as<const float>() : nullptr;
    const float* beta = hasBeta_ ? inputs[2].as<const float>() : nullptr;
    float* y = outputs[0].as<float>();
    parallelFor(rows_, std::max<size_t>(1, 8192 / n_), [&](size_t r0, size_t r1) {
      rowsFn_(x + r0 * n_, gamma, beta, y + r0 * n_, n_, epsilon_, r1 - r0);
    });
    return Status::ok();
  }

 private:
  std::unique_ptr<Kernel> shared_;
  float epsilon_ = 1e-3f;
  std::vector<int64_t> axes_;
  RowsFn rowsFn_ = nullptr;
  size_t n_ = 0, rows_ = 0;
  bool hasGamma_ = false, hasBeta_ = false;
};

}  // namespace

std::unique_ptr<Kernel> makeLayerNorm(const std::string& opType) {
  if (opType != "LayerNorm") return nullptr;
  return std::make_unique<LayerNormKernel>(makeNorm(opType));
}

}  // namespace qnn::cpu
