// Cast and ElementWisePower on the HTP simulator.
//  * Cast converts values, not encodings (the op definition: scale/offset are
//    ignored, fixed-point stored values are read as plain integers), with the
//    CPU backend's conversions so both backends agree: a BOOL_8 input reads as
//    0/1; to BOOL_8 is "!= 0"; to FLOAT_32 is the C conversion (round to
//    nearest even); FLOAT_16 is read exactly and written rounded to nearest
//    even (the fp32 <-> fp16 casts at the edges of a float16 graph); FLOAT_32 to an integer type truncates toward zero and
//    saturates to the stored type's range (NaN -> 0); integer to integer keeps
//    the low bits of the two's complement value (C semantics). INT_64 (the
//    int64 graph inputs and outputs ONNX Runtime casts from and to) is read and
//    written exactly, never through a double.
//  * ElementWisePower (numpy broadcasting): y = quantize(pow(double(dequantize(a)), p))
//    with p the exponent's real value (INT_32 as is, FLOAT_32, or a dequantized
//    fixed-point value), the table-op rule of docs/htp-fixed-point.md. A static
//    exponent with one value (the usual x^2, x^0.5) becomes a table over every
//    stored base value at prepare; otherwise pow runs per element in double with
//    the same quantization, so both paths give identical results.
#include <cmath>
#include <cstring>
#include <limits>

#include "htp_sim/kernels/htp_kernel_registry.h"
#include "quant/half.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

constexpr std::initializer_list<DType> kCastTypes = {DType::kFloat32, DType::kFloat16, DType::kInt32,
                                                     DType::kUInt32,  DType::kInt64,   DType::kUFixed8,
                                                     DType::kSFixed8, DType::kBool8,   DType::kUInt8,
                                                     DType::kUFixed16};

bool isFloat(DType t) { return t == DType::kFloat32 || t == DType::kFloat16; }

// Element i of a float tensor as a double (exact).
double floatSource(const TensorView& t, size_t i) {
  if (t.dtype == DType::kFloat32) return double(t.as<const float>()[i]);
  return double(sdk::quant::halfBitsToFloat(t.as<const uint16_t>()[i]));
}

// The stored integer of `v` in an integer / fixed-point type of at most 32 bits.
int64_t wrapTo(int64_t v, const fx::QuantRange& r) {
  const uint64_t span = uint64_t(r.hi - r.lo) + 1;  // 2^bits
  const uint64_t low = uint64_t(v) & (span - 1);
  return r.lo < 0 && low >= span / 2 ? int64_t(low) - int64_t(span) : int64_t(low);
}

class CastKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    QNN_SDK_RETURN_IF_ERROR(checkArity("Cast", inputs, 1, 1, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType("Cast", "in[0]", inputs[0], kCastTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType("Cast", "out[0]", outputs[0], kCastTypes));
    if (inputs[0].rank() == 0) return sdk::invalidTensor("Cast: in[0] must have rank > 0");
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims("Cast", outputs[0], inputs[0].dims));
    // Cast ignores encodings: the full stored range, whatever the bitwidth says.
    range_ = fx::quantRange(outputs[0].dtype);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const TensorView& in = inputs[0];
    const TensorView& out = outputs[0];
    const size_t n = in.numElements();
    if (isFloat(in.dtype)) {
      for (size_t i = 0; i < n; ++i) storeFromFloat(out, i, floatSource(in, i));
    } else {
      for (size_t i = 0; i < n; ++i) {
        const int64_t v = loadInt(in, i);
        storeFromInteger(out, i, in.dtype == DType::kBool8 ? int64_t(v != 0) : v);
      }
    }
    return Status::ok();
  }

 private:
  void storeFromFloat(const TensorView& out, size_t i, double x) const {
    if (out.dtype == DType::kFloat32) {
      out.as<float>()[i] = float(x);
    } else if (out.dtype == DType::kFloat16) {
      out.as<uint16_t>()[i] = sdk::quant::floatToHalfBits(float(x));  // exact for float sources: one rounding
    } else if (out.dtype == DType::kBool8) {
      storeInt(out, i, x != 0.0 ? 1 : 0);
    } else {  // truncate toward zero, saturate (2^63 is the first double past INT64_MAX)
      const double t = std::isnan(x) ? 0.0 : std::trunc(x);
      storeInt(out, i, t <= double(range_.lo) ? range_.lo : t >= double(range_.hi) ? range_.hi : int64_t(t));
    }
  }

  void storeFromInteger(const TensorView& out, size_t i, int64_t v) const {
    if (out.dtype == DType::kFloat32) {
      out.as<float>()[i] = float(v);  // nearest, ties to even
    } else if (out.dtype == DType::kFloat16) {
      out.as<uint16_t>()[i] = sdk::quant::floatToHalfBits(float(v));  // below 2^24 float(v) is exact
    } else if (out.dtype == DType::kBool8) {
      storeInt(out, i, v != 0 ? 1 : 0);
    } else if (out.dtype == DType::kInt64) {
      storeInt(out, i, v);
    } else {
      storeInt(out, i, wrapTo(v, range_));
    }
  }

  fx::QuantRange range_;
};

// ---------------------------------------------------------------------------
constexpr std::initializer_list<DType> kExponentTypes = {DType::kInt32,   DType::kFloat32,  DType::kUFixed8,
                                                         DType::kSFixed8, DType::kUFixed16, DType::kSFixed16};

class PowerKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = "ElementWisePower";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 2, 2, outputs, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kActivationTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1]", inputs[1], kExponentTypes));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kActivationTypes));
    std::vector<uint32_t> outDims;
    QNN_SDK_RETURN_IF_ERROR(broadcastShapes(op, inputs[0].dims, inputs[1].dims, &outDims));
    QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, outputs[0], outDims));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &eBase_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[1]", inputs[1], &eExp_));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eOut_));
    indexBase_ = broadcastIndexMap(inputs[0].dims, outDims);
    indexExp_ = broadcastIndexMap(inputs[1].dims, outDims);
    range_ = rangeOf(outputs[0]);
    table_.clear();
    if (inputs[1].data && uniformExponent(inputs[1])) {
      // Every value the stored type can hold (not just a narrower bitwidth's): the lookup never leaves the table.
      const fx::QuantRange baseRange = fx::quantRange(inputs[0].dtype);
      const double p = exponentAt(inputs[1], 0);
      baseLo_ = baseRange.lo;
      table_.resize(size_t(baseRange.hi - baseRange.lo + 1));
      for (size_t i = 0; i < table_.size(); ++i) table_[i] = int32_t(powerOf(baseLo_ + int64_t(i), p));
    }
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = outputs[0].numElements();
    for (size_t i = 0; i < n; ++i) {
      const int64_t a = loadInt(inputs[0], indexBase_.empty() ? i : indexBase_[i]);
      const int64_t y = !table_.empty() ? table_[size_t(a - baseLo_)]
                                        : powerOf(a, exponentAt(inputs[1], indexExp_.empty() ? i : indexExp_[i]));
      storeInt(outputs[0], i, y);
    }
    return Status::ok();
  }

 private:
  // The real exponent of element i: INT_32 as is, FLOAT_32, fixed point dequantized.
  double exponentAt(const TensorView& t, size_t i) const {
    if (t.dtype == DType::kFloat32) return double(t.as<const float>()[i]);
  if (t.dtype == DType::kFloat16) return double(sdk::quant::halfBitsToFloat(t.as<const uint16_t>()[i]));
    const int64_t v = loadInt(t, i);
    return t.dtype == DType::kInt32 ? double(v) : double(fx::dequantizeValue(v, eExp_.scale, eExp_.offset));
  }

  bool uniformExponent(const TensorView& t) const {
    const size_t n = t.numElements(), size = sdk::dtypeSize(t.dtype);
    const uint8_t* bytes = t.as<const uint8_t>();
    for (size_t i = 1; i < n; ++i)
      if (std::memcmp(bytes, bytes + i * size, size) != 0) return false;
    return true;
  }

  int64_t powerOf(int64_t base, double p) const {
    const double x = double(fx::dequantizeValue(base, eBase_.scale, eBase_.offset));
    return fx::quantizeValue(std::pow(x, p), eOut_.scale, eOut_.offset, range_);
  }

  Encoding eBase_, eExp_, eOut_;
  std::vector<uint32_t> indexBase_, indexExp_;
  fx::QuantRange range_;
  int64_t baseLo_ = 0;
  std::vector<int32_t> table_;  // static uniform exponent: output per stored base value
};

}  // namespace

std::unique_ptr<Kernel> makeQuantCastValues(const std::string&) { return std::make_unique<CastKernel>(); }
std::unique_ptr<Kernel> makeQuantPower(const std::string&) { return std::make_unique<PowerKernel>(); }

}  // namespace qnn::htp
