// The HTP simulator's kernels are sdk::OpKernels (core/op_kernel.h), the interface
// the CPU backend's kernels implement: init -> setNumericMode -> prepare -> execute ->
// free. They work on the tensors' stored types directly: UFIXED_POINT_8/16
// activations, SFIXED/UFIXED 8-bit (or 4-bit) weights with per-tensor or per-axis
// encodings, INT32 bias, and fp16-mode float tensors. Integer kernels accumulate in
// int32 and requantize with the one rule of sdk/quant/fixed_point.h, so results are
// deterministic and bit-exact.
//
//  * init(params): once per node at finalize; reads and checks params.
//  * setNumericMode(mode): once, the graph's float precision (fp16 unless told
//    otherwise; FP16_CLAMP_OVERFLOW saturation).
//  * supportsEpilogue / setEpilogue: a fused activation (Epilogue::clamp) given
//    BEFORE prepare on this backend (see core/op_kernel.h); the fixed-point weighted
//    and binary ops take it (ClampFusingKernel, htp_kernel_util.h).
//  * prepare(inputs, outputs): once, with every tensor's dtype, dims and encoding.
//    Static tensors (weights, bias) carry data here; a kernel precomputes
//    requantization multipliers and repacked weights now. Every shape, dtype or
//    encoding problem is reported here, so execute never fails on them.
//  * outputIsInputCopy(): after prepare; the engine then aliases out[0] to in[0].
//  * execute(inputs, outputs): any number of times, data pointers set.
//  * free: the destructor.
// A kernel object belongs to one node of one prepared graph; a graph is executed
// by one thread at a time, so kernels may keep scratch buffers as members.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/op_kernel.h"
#include "core/op_params.h"
#include "core/status.h"
#include "core/tensor_view.h"

namespace qnn::htp {

using sdk::DType;
using sdk::OpParams;
using sdk::QuantInfo;
using sdk::Status;
using sdk::TensorView;

using Kernel = sdk::OpKernel;

using KernelFactory = std::unique_ptr<Kernel> (*)(const std::string& opType);

// The one table of ops the simulator executes (htp_kernel_registry.cpp).
// Returns nullptr for an op without a kernel.
KernelFactory findKernel(const std::string& opType);
// Every op type the table holds, sorted.
std::vector<std::string> supportedOpTypes();

}  // namespace qnn::htp
