// A kernel that runs `quant` for fixed-point/integer data and `fp16` for float
// data (fp16 mode), chosen at prepare. Takes ownership of both; either may be
// null (then the other is returned as is).
#pragma once

#include "htp_sim/kernels/htp_kernel.h"

namespace qnn::htp {

std::unique_ptr<Kernel> makeDtypeDispatch(std::unique_ptr<Kernel> quant, std::unique_ptr<Kernel> fp16);

}  // namespace qnn::htp
