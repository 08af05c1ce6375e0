// The fixed C text every generated saver_output.c contains after its header:
// main(), --backend/--logging/--params handling, params.bin loading, error
// reporting with the failing line, and the tensor/memory/output helpers the
// generated calls use. It expects PARAMS_SIZE and PARAMS_FILE to be defined.
#pragma once

#include <string>

namespace qnn::trace::cgen {

// The optional parts: each names types or table members that only some API versions have.
struct PreludeParts {
  bool errorMessages = true;     // QnnError_getMessage in failure lines (API 2.11 and later)
  bool binaryCallbacks = false;  // Qnn_ContextBinaryCallback_t helpers
  bool listLoads = false;        // contextCreateFromBinaryListAsync helpers (API 2.17 and later)
  bool api2_39 = false;          // API39(): the members API 2.39 appended
};

std::string cPrelude(const PreludeParts& parts);

}  // namespace qnn::trace::cgen
