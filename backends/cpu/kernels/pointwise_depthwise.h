// A 1x1 Conv2d whose output only a DepthWiseConv2d reads, run as one kernel
// (the expansion and depthwise halves of a MobileNet inverted-residual block).
// Unfused, the 1x1 conv writes its whole output (4.8 MB in MobileNetV2's
// second block) and the depthwise conv reads it back from L3 or memory. Fused,
// the depthwise output rows go in bands: the 1x1 conv computes just the input
// rows a band needs into a per-thread buffer that stays in L2, and the
// depthwise rows are computed from there. Rows at a band's edge are computed
// by both neighbouring bands (a few percent more 1x1 work).
//
// The CPU engine forms it at finalize (engine/fuse_pointwise_depthwise.cpp) from steps that already
// carry their fused activations; numerics are those of the two kernels run in
// turn (same GEMM, same depthwise row kernel, same order of sums).
#pragma once

#include <memory>
#include <vector>

#include "cpu/kernels/gemm.h"
#include "cpu/kernels/kernel.h"

namespace qnn::cpu {

// The fused kernel for Conv2d (params `pw`, inputs `pwInputs` = input, filter
// [1, 1, cin, cmid], optional bias) feeding DepthWiseConv2d (params `dw`,
// inputs `dwInputs` = that output, filter [fh, fw, 1, cmid], optional bias)
// with output `out`; clamp1 / clamp2 (may be null) are activations folded
// into each. Filters and biases must be static (data set). nullptr when the
// pair does not qualify: 1x1 stride 1 unpadded ungrouped float conv,
// multiplier-1 float depthwise conv, output rows wide enough to gain.
// Execute takes inputs pwInputs followed by dwInputs without dwInputs[0].
std::unique_ptr<Kernel> makePointwiseDepthwise(const OpParams& pw, const std::vector<TensorView>& pwInputs,
                                               const gemm::Clamp* clamp1, const OpParams& dw,
                                               const std::vector<TensorView>& dwInputs, const TensorView& out,
                                               const gemm::Clamp* clamp2);

}  // namespace qnn::cpu
