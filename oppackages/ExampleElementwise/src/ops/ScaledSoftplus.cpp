// ExampleElementwise op package: the kernel of ScaledSoftplus,
// out = log(1 + exp(beta * in)) / beta, element by element.
#include <cmath>

#include "ExampleElementwiseOps.h"

namespace ExampleElementwise {

Qnn_ErrorHandle_t executeScaledSoftplus(const OpContext& context, const ScaledSoftplusParams& params) {
  if (!(params.beta > 0.0f)) {
    context.logError("beta must be positive, got %g", static_cast<double>(params.beta));
    return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  }
  const QnnCpuOpPackage_Tensor_t& in = context.input(0);
  QnnCpuOpPackage_Tensor_t& out = context.output(0);
  const size_t count = elementCount(in);
  if (elementCount(out) != count) {
    context.logError("output has %zu elements, input %zu", elementCount(out), count);
    return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  }
  const float* x = tensorData<float>(in);
  float* y = tensorData<float>(out);
  for (size_t i = 0; i < count; ++i) {
    // log1p(exp(t)) = max(t, 0) + log1p(exp(-|t|)): no overflow for large |t|.
    const float t = params.beta * x[i];
    y[i] = (std::fmax(t, 0.0f) + std::log1p(std::exp(-std::fabs(t)))) / params.beta;
  }
  return QNN_SUCCESS;
}

}  // namespace ExampleElementwise
