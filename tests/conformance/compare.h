// Compares a backend's output bytes with a case's expected tensor.
#pragma once

#include <string>

#include "tests/conformance/op_case.h"

namespace qnn::conformance {

// Returns "" on success, else a message naming the first mismatching element,
// the max error and the tolerance.
// asReal: a fixed-point output is compared as real values (both dequantized with the
// expected tensor's encoding) within atol/rtol instead of exactly.
std::string compareOutput(const CaseTensor& expected, const void* actual, size_t actualBytes, double atol,
                          double rtol, bool asReal = false);

}  // namespace qnn::conformance
