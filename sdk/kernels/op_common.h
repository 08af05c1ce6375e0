// What the shared op algorithms of sdk/kernels/ see: the OpKernel interface, the
// argument checks every backend uses, and the backend's parallel-for hook.
#pragma once

#include "core/kernel_checks.h"
#include "core/op_kernel.h"

namespace qnn::ops {

using Kernel = sdk::OpKernel;
using sdk::checkArity;
using sdk::checkDType;
using sdk::checkOutputDims;
using sdk::checkOutputDimsAllowScalar;
using sdk::checkSameElementType;
using sdk::checkRank;
using sdk::DType;
using sdk::dimsToString;
using sdk::OpParams;
using sdk::kElementwiseGrain;
using sdk::parallelFor;
using sdk::rowGrain;
using sdk::QuantInfo;
using sdk::Status;
using sdk::TensorView;

}  // namespace qnn::ops
