// ExampleElementwise op package: the kernel of Relu6Custom, out = min(max(in, 0), 6).
#include <algorithm>

#include "ExampleElementwiseOps.h"

namespace ExampleElementwise {

Qnn_ErrorHandle_t executeRelu6Custom(const OpContext& context, const Relu6CustomParams&) {
  const QnnCpuOpPackage_Tensor_t& in = context.input(0);
  QnnCpuOpPackage_Tensor_t& out = context.output(0);
  const size_t count = elementCount(in);
  if (elementCount(out) != count) {
    context.logError("output has %zu elements, input %zu", elementCount(out), count);
    return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  }
  const float* x = tensorData<float>(in);
  float* y = tensorData<float>(out);
  for (size_t i = 0; i < count; ++i) y[i] = std::min(std::max(x[i], 0.0f), 6.0f);
  return QNN_SUCCESS;
}

}  // namespace ExampleElementwise
