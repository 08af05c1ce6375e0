// The HTP simulator's answers to the device, property and custom-config calls
// of the shared runtime (sdk/runtime/backend_hooks.h).
#pragma once

#include <memory>

#include "runtime/backend_hooks.h"

namespace qnn::htp {

// Shared by every backend handle of the library.
std::shared_ptr<sdk::BackendHooks> createHtpHooks();

}  // namespace qnn::htp
