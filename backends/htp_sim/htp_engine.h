// The HTP simulator's execution engine: validation against the HTP column of the
// op definitions and the integer kernels, preparation through the NPU-style
// passes (htp_passes.h), execution through the kernels with the cost model's
// cycle estimates for profiling, the prepared form for context binaries, and the
// simulated subsystem restart.
#pragma once

#include <memory>

#include "runtime/engine.h"

namespace qnn::htp {

// The engine of one backend handle; the runtime owns it.
std::unique_ptr<sdk::ExecutionEngine> createHtpEngine();

}  // namespace qnn::htp
