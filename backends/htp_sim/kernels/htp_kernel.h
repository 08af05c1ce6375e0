// The HTP simulator's kernel interface: init -> prepare -> execute -> free, as on
// the CPU backend, but kernels work on the tensors' stored types directly:
// UFIXED_POINT_8/16 activations, SFIXED/UFIXED 8-bit (or 4-bit) weights with
// per-tensor or per-axis encodings, INT32 bias, and fp16-mode float tensors.
// Integer kernels accumulate in int32 and requantize with the one rule of
// sdk/quant/fixed_point.h, so results are deterministic and bit-exact.
//
//  * init(params): once per node at finalize; reads and checks params.
//  * prepare(inputs, outputs): once, with every tensor's dtype, dims and encoding.
//    Static tensors (weights, bias) carry data here; a kernel precomputes
//    requantization multipliers and repacked weights now. Every shape, dtype or
//    encoding problem is reported here, so execute never fails on them.
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

// Being moved onto the one interface, sdk::OpKernel (core/op_kernel.h); the
// virtual below is what is left of the simulator's own.
class Kernel : public sdk::OpKernel {
 public:
  // Optional, between init and prepare: fuse a following Relu / Relu1 / Relu6 /
  // ReluMinMax whose output encoding this kernel's output takes over. Outputs are
  // then clamped to [quantize(realMin), quantize(realMax)] of the output encoding,
  // bit-identical to running the activation after the kernel with equal
  // encodings. Returns false when the kernel cannot fuse (keep the activation).
  // Implemented by Conv2d, DepthWiseConv2d, TransposeConv2d, FullyConnected,
  // MatMul and Batchnorm.
  virtual bool fuseOutputClamp(double realMin, double realMax) {
    (void)realMin;
    (void)realMax;
    return false;
  }
};

using KernelFactory = std::unique_ptr<Kernel> (*)(const std::string& opType);

// The one table of ops the simulator executes (htp_kernel_registry.cpp).
// Returns nullptr for an op without a kernel.
KernelFactory findKernel(const std::string& opType);
// Every op type the table holds, sorted.
std::vector<std::string> supportedOpTypes();

}  // namespace qnn::htp
