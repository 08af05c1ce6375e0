// Runs float kernels on fixed-point tensors (the CPU backend's int8 mode):
// inputs are dequantized, outputs quantized with the tensor's encoding.
// Rounding: round half to even of the float32 quotient (quantizedStep), then
// saturate to the dtype.
#pragma once

#include <cmath>
#include <cstdint>

#include "graph/graph_ir.h"
#include "quant/fixed_point.h"

namespace qnn::cpu {

// round(x / scale), half to even, of the float32 quotient, as ONNX Runtime's
// QuantizeLinear computes it (the vendor's CPU backend matches it there): a
// quotient that is a tie in float32 but not in double rounds as the tie
// (0.35f / 0.1f is 3.5f -> 4; in double 3.4999999 -> 3). `wide` (outputs of more
// than 16 bits): the quotient in double, as float32 cannot hold their steps.
// The HTP simulator quantizes with the same rule (sdk/quant/fixed_point.h).
inline double quantizedStep(float x, float scale, bool wide) { return sdk::quant::float32QuotientStep(x, scale, wide); }

// A stored fixed-point integer under an encoding of `bits` bits narrower than its
// container: the low `bits` bits, sign-extended when `isSigned` (a signed 4-bit -3
// may be stored 0xFD or, as ONNX Runtime's QNN EP stores it, 0x0D).
inline int64_t narrowValue(int64_t stored, unsigned bits, bool isSigned) {
  const uint64_t low = static_cast<uint64_t>(stored) & ((uint64_t(1) << bits) - 1);
  const uint64_t sign = uint64_t(1) << (bits - 1);
  return isSigned && (low & sign) ? static_cast<int64_t>(low) - static_cast<int64_t>(uint64_t(1) << bits)
                                  : static_cast<int64_t>(low);
}

// Fixed-point tensors of an encoding narrower than the datatype (bitwidth 4 in
// 8-bit containers) are read as narrowValue and written saturated to the
// bitwidth's range (-8..7 / 0..15), sign-extended.
void dequantizeToFloat(const sdk::TensorInfo& t, const void* src, float* dst);
void quantizeFromFloat(const sdk::TensorInfo& t, const float* src, void* dst);

}  // namespace qnn::cpu
