// The CPU backend's kernel interface: init -> prepare -> execute -> free.
//
//  * init(params): once, when the graph is finalized; reads and checks params.
//  * prepare(inputs, outputs): once, after init, with every tensor's dtype, dims
//    and quantization. Static tensors (weights) carry their data here, others have
//    data == nullptr. Everything that can be wrong with shapes or dtypes is
//    reported here, so that execute never fails on them. Output dims are given by
//    the client; prepare checks them against what the op computes.
//  * execute(inputs, outputs): any number of times, data pointers set, possibly
//    different buffers each time. Must not allocate on the hot path if avoidable.
//  * free: the destructor.
// A kernel object belongs to one node of one graph; graphs are executed by one
// thread at a time, so a kernel may keep scratch buffers as members.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/op_kernel.h"

namespace qnn::cpu {

using sdk::DType;
using sdk::OpParams;
using sdk::QuantInfo;
using sdk::Status;
using sdk::TensorView;

// The shared interface (core/op_kernel.h), so the float algorithms of sdk/ops/
// are CPU kernels as they are.
using Kernel = sdk::OpKernel;

using KernelFactory = std::unique_ptr<Kernel> (*)(const std::string& opType);

// The one table of ops this backend runs (kernel_registry.cpp). Returns nullptr
// for an op the backend does not implement.
KernelFactory findKernel(const std::string& opType);
// Every op type the table holds, sorted.
std::vector<std::string> supportedOpTypes();

}  // namespace qnn::cpu
