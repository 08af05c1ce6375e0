// The "small program" of qnn-platform-validator --testBackend: one ElementWiseAdd of two
// 4-element tensors composed, finalized and executed through the backend's function
// table, its output compared with the exact sum.
#pragma once

#include <string>

#include "tools/common/qnn_backend.h"

namespace qnn::tools {

enum class ValidationGraphKind {
  Float32,  // FLOAT_32 tensors (CPU)
  Uint8,    // UFIXED_POINT_8 tensors, the HTP's native mode on every architecture
};

// Empty on success, otherwise which call failed and why (or which value was wrong).
// checkValues false: only the calls must succeed (the Saver records, it does not compute).
std::string runValidationGraph(const QnnBackend& backend, ValidationGraphKind kind, bool checkValues);

}  // namespace qnn::tools
