// Compares a backend's output bytes with a case's expected tensor.
#pragma once

#include <string>

#include "op_case.h"

namespace qnn::conformance {

// Returns "" on success, else a message naming the first mismatching element,
// the max error and the tolerance.
std::string compareOutput(const CaseTensor& expected, const void* actual, size_t actualBytes, double atol,
                          double rtol);

}  // namespace qnn::conformance
