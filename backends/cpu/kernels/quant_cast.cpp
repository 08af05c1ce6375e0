// Quantize, Dequantize, Cast and Convert: one element-wise conversion kernel.
// Each side of the conversion is either "quantized" (a fixed-point tensor read
// or written through its scale/offset: real = scale * (q + offset)) or "raw"
// (the stored value itself). The ops differ only in which sides are quantized:
//   Quantize  raw float -> quantized     Dequantize quantized -> raw float
//   Cast      raw -> raw (fixed-point read as plain integers, per the op def)
//   Convert   quantized wherever the dtype is fixed-point
// Rounding to fixed point: the op defs say only "round", so we use
// round-half-to-even (std::nearbyint in the default rounding mode): of the
// float32 quotient when a float is quantized (quantizedStep, as ONNX Runtime and
// the vendor's CPU backend), in double when a fixed-point value is requantized.
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

#include "cpu/kernels/broadcast.h"
#include "cpu/kernels/kernel_factories.h"
#include "cpu/quant_emulation.h"

namespace qnn::cpu {
namespace {

enum class ConvertOp { kQuantize, kDequantize, kCast, kConvert };

struct Side {
  DType dtype = DType::kUndefined;
  bool quantized = false;
  bool isBool = false;
  double scale = 1.0, offset = 0.0;
  double lo = 0.0, hi = 0.0;  // quantized: the integer range of the encoding
  unsigned narrowBits = 0;     // quantized with a bitwidth below the dtype's: read as narrowValue
};

// Raw value conversion (Cast): float -> integer truncates toward zero and
// saturates (NaN -> 0); integer -> integer keeps the low bits (C semantics);
// anything -> bool is "!= 0".
template <typename Out, typename In>
Out castValue(In x, bool outIsBool) {
  if (outIsBool) return static_cast<Out>(x != In(0));
  if constexpr (std::is_floating_point_v<Out>) {
    return static_cast<Out>(x);
  } else if constexpr (std::is_floating_point_v<In>) {
    if (std::isnan(x)) return 0;
    const double t = std::trunc(static_cast<double>(x));
    if (t <= static_cast<double>(std::numeric_limits<Out>::lowest())) return std::numeric_limits<Out>::lowest();
    if (t >= static_cast<double>(std::numeric_limits<Out>::max())) return std::numeric_limits<Out>::max();
    return static_cast<Out>(t);
  } else {
    return static_cast<Out>(x);
  }
}

template <typename In, typename Out>
void convertElements(const In* src, Out* dst, size_t n, const Side& in, const Side& out) {
  const bool viaReal = in.quantized || out.quantized;
  parallelFor(n, kElementwiseGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) {
      In x = src[i];
      if (in.isBool) x = static_cast<In>(x != In(0));
      if constexpr (std::is_integral_v<In>)
        if (in.narrowBits) x = static_cast<In>(narrowValue(x, in.narrowBits, std::is_signed_v<In>));
      if (!viaReal) {
        dst[i] = castValue<Out>(x, out.isBool);
        continue;
      }
      const double real = in.quantized ? in.scale * (static_cast<double>(x) + in.offset) : static_cast<double>(x);
      if (out.quantized) {
        // A float input is quantized as ONNX Runtime and the vendor's CPU backend do (quantizedStep).
        double q = (std::is_floating_point_v<In> && !in.quantized
                        ? quantizedStep(static_cast<float>(x), out.scale, out.hi > 65535.0)
                        : std::nearbyint(real / out.scale)) -
                   out.offset;
        q = std::isnan(q) ? 0.0 : std::min(std::max(q, out.lo), out.hi);
        dst[i] = static_cast<Out>(q);
      } else {
        dst[i] = castValue<Out>(real, out.isBool);
      }
    }
  });
}

// Calls fn(T{}) with T the storage type of dtype; false if there is none.
template <typename Fn>
bool withStorageType(DType dtype, Fn&& fn) {
  switch (dtype) {
    case DType::kFloat32: fn(float{}); return true;
    case DType::kInt8: case DType::kSFixed8: fn(int8_t{}); return true;
    case DType::kUInt8: case DType::kUFixed8: case DType::kBool8: fn(uint8_t{}); return true;
    case DType::kInt16: case DType::kSFixed16: fn(int16_t{}); return true;
    case DType::kUInt16: case DType::kUFixed16: fn(uint16_t{}); return true;
    case DType::kInt32: case DType::kSFixed32: fn(int32_t{}); return true;
    case DType::kUInt32: case DType::kUFixed32: fn(uint32_t{}); return true;
    case DType::kInt64: fn(int64_t{}); return true;
    default: return false;
  }
}

constexpr DType kF32 = DType::kFloat32;
const std::initializer_list<DType> kFixed8and16 = {DType::kSFixed8, DType::kUFixed8, DType::kSFixed16,
                                                   DType::kUFixed16};
const std::initializer_list<DType> kFixedAll = {DType::kSFixed8,  DType::kUFixed8,  DType::kSFixed16,
                                                DType::kUFixed16, DType::kSFixed32, DType::kUFixed32};
const std::initializer_list<DType> kCastTypes = {kF32,           DType::kInt32,  DType::kUInt32, DType::kInt8,
                                                 DType::kUInt8,  DType::kInt16,  DType::kUInt16, DType::kInt64,
                                                 DType::kBool8,  DType::kUFixed8, DType::kSFixed8};
const std::initializer_list<DType> kConvertTypes = {kF32, DType::kSFixed8, DType::kUFixed8, DType::kSFixed16,
                                                    DType::kUFixed16};

class ConvertKernel final : public Kernel {
 public:
  ConvertKernel(std::string op, ConvertOp kind) : op_(std::move(op)), kind_(kind) {}

  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    switch (kind_) {
      case ConvertOp::kQuantize:
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], {kF32}));
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], kFixed8and16));
        break;
      case ConvertOp::kDequantize:
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], kFixedAll));
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], {kF32}));
        break;
      case ConvertOp::kCast:
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], kCastTypes));
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], kCastTypes));
        break;
      case ConvertOp::kConvert:
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", in[0], kConvertTypes));
        QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", out[0], kConvertTypes));
        break;
    }
    // One value may be held as [1] on one side and rank 0 on the other.
    if (!(in[0].numElements() == 1 && out[0].numElements() == 1 && (in[0].rank() == 0 || out[0].rank() == 0)))
      QNN_SDK_RETURN_IF_ERROR(checkOutputDims(op, out[0], in[0].dims));
    const bool quantizes = kind_ != ConvertOp::kCast;
    QNN_SDK_RETURN_IF_ERROR(describe("in[0]", in[0], quantizes, &in_));
    return describe("out[0]", out[0], quantizes, &out_);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const size_t n = in[0].numElements();
    withStorageType(in_.dtype, [&](auto inTag) {
      using In = decltype(inTag);
      withStorageType(out_.dtype, [&](auto outTag) {
        using Out = decltype(outTag);
        convertElements(in[0].as<const In>(), out[0].as<Out>(), n, in_, out_);
      });
    });
    return Status::ok();
  }

 private:
  Status describe(const char* role, const TensorView& t, bool quantizes, Side* side) const {
    *side = Side{};
    side->dtype = t.dtype;
    side->isBool = t.dtype == DType::kBool8;
    side->quantized = quantizes && sdk::dtypeIsFixedPoint(t.dtype);
    if (!side->quantized) return Status::ok();
    if (t.quant.kind != QuantInfo::Kind::kScaleOffset)
      return sdk::notSupported(op_ + ": " + role + " needs a per-tensor scale/offset encoding" +
                               (t.quant.perChannel() ? " (per-axis and blockwise encodings are not supported)" : ""));
    if (!(t.quant.scale > 0.f) || !std::isfinite(t.quant.scale))
      return sdk::invalidTensor(op_ + ": " + role + " scale must be a positive number, got " +
                                std::to_string(t.quant.scale));
    side->scale = t.quant.scale;
    side->offset = t.quant.offset;
    // The integer range: the dtype's, or narrower when a bitwidth is given.
    const unsigned width = static_cast<unsigned>(sdk::dtypeSize(t.dtype) * 8);
    const unsigned bits = t.quant.bitwidth > 0 && t.quant.bitwidth < width ? t.quant.bitwidth : width;
    side->narrowBits = bits < width ? bits : 0;
    if (sdk::dtypeIsSigned(t.dtype)) {
      side->lo = -std::ldexp(1.0, bits - 1);
      side->hi = std::ldexp(1.0, bits - 1) - 1;
    } else {
      side->lo = 0;
      side->hi = std::ldexp(1.0, bits) - 1;
    }
    return Status::ok();
  }

  std::string op_;
  ConvertOp kind_;
  Side in_, out_;
};

}  // namespace

std::unique_ptr<Kernel> makeQuantizeLike(const std::string& opType) {
  static const std::pair<const char*, ConvertOp> kOps[] = {{"Quantize", ConvertOp::kQuantize},
                                                            {"Dequantize", ConvertOp::kDequantize},
                                                            {"Cast", ConvertOp::kCast},
                                                            {"Convert", ConvertOp::kConvert}};
  for (const auto& [name, kind] : kOps)
    if (opType == name) return std::make_unique<ConvertKernel>(opType, kind);
  return nullptr;
}

}  // namespace qnn::cpu
