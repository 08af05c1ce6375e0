// The HTP simulator's real-valued ops (backends/htp_sim/kernels/real_valued.cpp:
// the shared float algorithms of sdk/kernels/ on dequantized values) on the CPU
// backend's float cases, quantized: every float tensor as UFIXED_POINT_16 (8 for
// the ops the HTP takes in 8 bits only) under an encoding covering its values, the expected bytes quantize(the shared
// algorithm run in float on the dequantized inputs) — the bridge's rule. Used by
// the kernel runner (tests/htp_kernels) and the C API runner (tests/htp).
#pragma once

#include <string>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {

bool isRealValuedHtpOp(const std::string& opType);
OpCase quantizedRealValuedCase(const OpCase& c);
// The case with its float tensors as `dtype` (UFIXED_POINT_8 / _16) under encodings covering
// their values, the expected outputs the case's own float reference quantized (not recomputed),
// compared as real values within atol (fixedPointAsReal): the error quantizing the inputs and
// outputs brings, checked against the independent reference.
OpCase quantizedAgainstReference(const OpCase& c, DType dtype, double atol);

}  // namespace qnn::conformance
