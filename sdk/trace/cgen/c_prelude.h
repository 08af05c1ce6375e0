// The fixed C text every generated saver_output.c contains after its header:
// main(), --backend/--logging/--params handling, params.bin loading, error
// reporting with the failing line, and the tensor/memory/output helpers the
// generated calls use. It expects PARAMS_SIZE and PARAMS_FILE to be defined.
#pragma once

namespace qnn::trace::cgen {

// Static text; never freed.
const char* cPrelude();

}  // namespace qnn::trace::cgen
