// ExampleNorm op package: the kernel of RmsNorm. For every position outside the
// reduced axes: rms = sqrt(mean(in^2 over axes) + epsilon), out = in / rms,
// times gamma[index along the last axis] in "standard" mode.
#include <cmath>
#include <vector>

#include "ExampleNormOps.h"

namespace ExampleNorm {

Qnn_ErrorHandle_t executeRmsNorm(const OpContext& context, const RmsNormParams& params) {
  const QnnCpuOpPackage_Tensor_t& in = context.input(0);
  const QnnCpuOpPackage_Tensor_t& gamma = context.input(1);
  QnnCpuOpPackage_Tensor_t& out = context.output(0);
  const uint32_t rank = in.rank;
  if (rank == 0 || out.rank != rank || elementCount(out) != elementCount(in)) {
    context.logError("input and output must have the same shape of rank >= 1");
    return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  }
  const uint32_t channels = in.currentDimensions[rank - 1];
  if (params.mode == RmsNormMode::standard && elementCount(gamma) != channels) {
    context.logError("gamma has %zu elements; the last axis has %u", elementCount(gamma), channels);
    return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  }
  std::vector<bool> reduced(rank, false);
  for (uint32_t axis : params.axes) {
    if (axis >= rank || reduced[axis]) {
      context.logError("axes must be distinct and below the rank %u (got %u)", rank, axis);
      return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
    }
    reduced[axis] = true;
  }
  if (params.axes.empty()) {
    context.logError("axes is empty");
    return QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT;
  }

  // Each element belongs to the group found by zeroing its coordinates on the
  // reduced axes; sums of squares are kept at the group's flat index.
  const size_t count = elementCount(in);
  size_t groupSize = 1;
  for (uint32_t a = 0; a < rank; ++a) groupSize *= reduced[a] ? in.currentDimensions[a] : 1;
  std::vector<size_t> strides(rank, 1);
  for (uint32_t a = rank - 1; a > 0; --a) strides[a - 1] = strides[a] * in.currentDimensions[a];
  auto groupOf = [&](size_t flat) {
    size_t group = 0;
    for (uint32_t a = 0; a < rank; ++a) {
      const size_t coordinate = (flat / strides[a]) % in.currentDimensions[a];
      if (!reduced[a]) group += coordinate * strides[a];
    }
    return group;
  };

  const float* x = tensorData<float>(in);
  const float* g = tensorData<float>(gamma);
  float* y = tensorData<float>(out);
  std::vector<double> sumSquares(count, 0.0);
  for (size_t i = 0; i < count; ++i) sumSquares[groupOf(i)] += static_cast<double>(x[i]) * x[i];
  for (size_t i = 0; i < count; ++i) {
    const double rms = std::sqrt(sumSquares[groupOf(i)] / static_cast<double>(groupSize) + params.epsilon);
    const double scale = params.mode == RmsNormMode::standard ? g[i % channels] : 1.0;
    y[i] = static_cast<float>(x[i] / rms * scale);
  }
  return QNN_SUCCESS;
}

}  // namespace ExampleNorm
