// The engine's view of the integer kernel library (kernels/, built as
// qnn_htp_kernels): while that library is absent from the build, no op has a
// kernel and every node is refused after the HTP support check.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/op_params.h"
#include "core/status.h"
#include "core/tensor_view.h"

#ifdef QNN_HTP_HAVE_KERNELS
#include "htp_sim/kernels/htp_kernel.h"
#else
namespace qnn::htp {
class Kernel {
 public:
  virtual ~Kernel() = default;
  virtual sdk::Status init(const sdk::OpParams& params) = 0;
  virtual sdk::Status prepare(const std::vector<sdk::TensorView>& inputs, const std::vector<sdk::TensorView>& outputs) = 0;
  virtual sdk::Status execute(const std::vector<sdk::TensorView>& inputs, const std::vector<sdk::TensorView>& outputs) = 0;
};
using KernelFactory = std::unique_ptr<Kernel> (*)(const std::string& opType);
inline KernelFactory findKernel(const std::string&) { return nullptr; }
inline std::vector<std::string> supportedOpTypes() { return {}; }
}  // namespace qnn::htp
#endif
