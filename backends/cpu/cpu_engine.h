// The CPU backend's ExecutionEngine: validates nodes against the kernel table and
// prepares graphs into a flat list of kernel invocations over preallocated
// buffers.
#pragma once

#include <memory>

#include "runtime/engine.h"

namespace qnn::cpu {

std::unique_ptr<sdk::ExecutionEngine> createCpuEngine();

}  // namespace qnn::cpu
