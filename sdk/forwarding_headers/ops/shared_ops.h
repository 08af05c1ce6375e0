// Old path of kernels/shared_ops.h, for the backends that still include it
// (backends/cpu, backends/htp_sim): delete once they include the new path.
#pragma once

#include "kernels/shared_ops.h"
