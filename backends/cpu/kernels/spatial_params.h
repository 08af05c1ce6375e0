// Window params of the 1-D and 3-D convolutions and pools (stride, pad_amount,
// dilation, filter_size, output_padding), read for any number of spatial dims.
// The 1-D ops give per-dim values as scalars (stride, dilation, output_padding)
// and pad_amount as [2]; the 3-D ops give tensors [3] and [3,2].
#pragma once

#include <string>
#include <vector>

#include "kernels/kernel.h"

namespace qnn::cpu {

// Reads `perDim` values for each of `spatial` dims of param `name` (a scalar when
// that is one value in all); absent and not mandatory: `def` repeated. Values
// must be in [minValue, 2^31).
Status readSpatialParam(const OpParams& params, const char* op, const char* name, size_t spatial, size_t perDim,
                        bool mandatory, int64_t def, int64_t minValue, std::vector<int64_t>* out);

}  // namespace qnn::cpu
