// Old path of adapters/client_datatypes.h, for the backends that still include it
// (backends/htp_sim): delete once they include the new path.
#pragma once

#include "adapters/client_datatypes.h"
