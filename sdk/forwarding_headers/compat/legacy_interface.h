// Old path of adapters/client_interface.h, for the backends that still include it
// (backends/cpu, backends/htp_sim): delete once they include the new path.
#pragma once

#include "adapters/client_interface.h"

namespace qnn {
namespace compat = adapters;
}  // namespace qnn
