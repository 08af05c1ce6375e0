// Factories of the HTP integer kernel families; the table that maps op types
// to them is htp_kernel_registry.cpp. Each returns a new kernel the caller owns.
#pragma once

#include <atomic>

#include "htp_sim/kernels/htp_kernel.h"

namespace qnn::htp {

std::unique_ptr<Kernel> makeQuantConv2d(const std::string& op);
std::unique_ptr<Kernel> makeQuantDepthWiseConv2d(const std::string& op);
std::unique_ptr<Kernel> makeQuantFullyConnected(const std::string& op);
std::unique_ptr<Kernel> makeQuantMatMul(const std::string& op);
std::unique_ptr<Kernel> makeQuantTransposeConv2d(const std::string& op);
std::unique_ptr<Kernel> makeQuantBatchnorm(const std::string& op);
std::unique_ptr<Kernel> makeQuantTable(const std::string& op);
std::unique_ptr<Kernel> makeQuantClamp(const std::string& op);
std::unique_ptr<Kernel> makeQuantBinary(const std::string& op);
std::unique_ptr<Kernel> makeQuantPrelu(const std::string& op);
std::unique_ptr<Kernel> makeQuantCompareLogic(const std::string& op);
std::unique_ptr<Kernel> makeQuantSelect(const std::string& op);
std::unique_ptr<Kernel> makeQuantMovement(const std::string& op);
std::unique_ptr<Kernel> makeQuantRearrange(const std::string& op);  // rearrange.cpp
std::unique_ptr<Kernel> makeQuantIndexOps(const std::string& op);   // index_ops.cpp: CumulativeSum, NonZero, OneHot
std::unique_ptr<Kernel> makeQuantPool3d(const std::string& op);     // pool3d.cpp: PoolAvg3d
std::unique_ptr<Kernel> makeQuantConv3d(const std::string& op);     // conv3d.cpp: Conv3d, TransposeConv3d
std::unique_ptr<Kernel> makeRealValued(const std::string& op);      // real_valued.cpp: the shared float algorithms of sdk/ops/
std::unique_ptr<Kernel> makeSharedMove(const std::string& op);      // real_valued.cpp: shared ops that move values as they are (Buffer)
std::unique_ptr<Kernel> makeQuantPool(const std::string& op);
std::unique_ptr<Kernel> makeQuantReduce(const std::string& op);
std::unique_ptr<Kernel> makeQuantSoftmax(const std::string& op);
// Tests: false makes unsigned 8/16-bit Softmax kernels prepared afterwards take the scalar rows.
extern std::atomic<bool> gSoftmaxVectorRows;
std::unique_ptr<Kernel> makeQuantResize(const std::string& op);
std::unique_ptr<Kernel> makeQuantLayerNorm(const std::string& op);
std::unique_ptr<Kernel> makeQuantInstanceNorm(const std::string& op);
std::unique_ptr<Kernel> makeQuantTopK(const std::string& op);
std::unique_ptr<Kernel> makeQuantCast(const std::string& op);
std::unique_ptr<Kernel> makeQuantArgMinMax(const std::string& op);
std::unique_ptr<Kernel> makeQuantCastValues(const std::string& op);
std::unique_ptr<Kernel> makeQuantPower(const std::string& op);

}  // namespace qnn::htp
