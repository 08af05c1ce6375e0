// Quantized unary ops.
//  * Table ops (Sigmoid, Tanh, Gelu, HardSwish, Elu, ElementWise{Exp, Log, ...},
//    ElementWiseNot as x == 0, ElementWiseUnary as its operation's op or 1 / x,
//    ElementWiseNeuron HARD_SIGMOID as max(0, min(1, alpha * x + beta))):
//    a table over every stored input value (256 or 65536 entries) built at
//    prepare as quantize(f(dequantize(q))), f evaluated in double; execute is
//    a lookup, so the result is exactly that definition.
//  * Clamp ops (Relu, Relu1, Relu6, ReluMinMax): requantize to the output
//    encoding with the fixed-point rule, then clamp to the quantized bounds
//    quantize(min) .. quantize(max) of the output encoding.
// 8-bit in and out: a 256-entry table of output bytes, built at prepare with the
// rule above, is applied to the stored bytes (a Clamp with equal encodings is a
// plain clamp of the bytes).
#include <cmath>
#include <functional>

#include "htp_sim/kernels/byte_paths.h"
#include "htp_sim/kernels/copy_runs.h"
#include "core/generic_elementwise.h"
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "htp_sim/kernels/htp_kernel_util.h"

namespace qnn::htp {
namespace {

using RealFunction = std::function<double(double)>;

// The real-valued definition of each table op.
RealFunction tableFunction(const std::string& op, const OpParams& params) {
  if (op == "Sigmoid") return [](double x) { return 1.0 / (1.0 + std::exp(-x)); };
  if (op == "Tanh") return [](double x) { return std::tanh(x); };
  if (op == "Gelu") return [](double x) { return 0.5 * x * (1.0 + std::erf(x / std::sqrt(2.0))); };
  if (op == "HardSwish") return [](double x) { return x * std::min(std::max(x + 3.0, 0.0), 6.0) / 6.0; };
  if (op == "Elu") {
    const double alpha = params.f32("alpha", 1.f);
    return [alpha](double x) { return x > 0 ? x : alpha * (std::exp(x) - 1.0); };
  }
  if (op == "ElementWiseExp") return [](double x) { return std::exp(x); };
  if (op == "ElementWiseLog") return [](double x) { return std::log(x); };
  if (op == "ElementWiseSquareRoot") return [](double x) { return std::sqrt(x); };
  if (op == "ElementWiseRsqrt") return [](double x) { return 1.0 / std::sqrt(x); };
  if (op == "ElementWiseAbs") return [](double x) { return std::fabs(x); };
  if (op == "ElementWiseNeg") return [](double x) { return -x; };
  if (op == "ElementWiseFloor") return [](double x) { return std::floor(x); };
  if (op == "ElementWiseCeil") return [](double x) { return std::ceil(x); };
  if (op == "ElementWiseRound") return [](double x) { return std::nearbyint(x); };
  if (op == "ElementWiseSign") return [](double x) { return double((0 < x) - (x < 0)); };
  if (op == "ElementWiseSin") return [](double x) { return std::sin(x); };
  if (op == "ElementWiseCos") return [](double x) { return std::cos(x); };
  if (op == "ElementWiseAsin") return [](double x) { return std::asin(x); };
  if (op == "ElementWiseAtan") return [](double x) { return std::atan(x); };
  if (op == "ElementWiseNot") return [](double x) { return x == 0.0 ? 1.0 : 0.0; };
  if (op == "ElementWiseNeuron") {  // HARD_SIGMOID only (init refuses the others)
    HardSigmoidParams p;
    if (!neuronHardSigmoidParams(params, &p).isOk()) return nullptr;
    const double alpha = p.alpha, beta = p.beta;
    return [alpha, beta](double x) { return std::min(1.0, std::max(0.0, alpha * x + beta)); };
  }
  if (op == "ElementWiseUnary") {  // the operation's dedicated op, or RECIPROCAL
    bool defined = false;
    const char* target = sdk::genericElementWiseTarget(op, params.u32("operation", 0), &defined);
    if (!defined) return nullptr;
    if (!target) return [](double x) { return 1.0 / x; };
    return tableFunction(target, params);
  }
  return nullptr;
}

constexpr std::initializer_list<DType> kTableTypes = {DType::kUFixed8, DType::kSFixed8, DType::kUFixed16,
                                                      DType::kSFixed16};

// One fixed-point input, one output of the same shape.
Status checkUnaryActivation(const char* op, const std::vector<TensorView>& inputs,
                            const std::vector<TensorView>& outputs) {
  QNN_SDK_RETURN_IF_ERROR(checkArity(op, inputs, 1, 1, outputs, 1));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0]", inputs[0], kTableTypes));
  QNN_SDK_RETURN_IF_ERROR(checkDType(op, "out[0]", outputs[0], kTableTypes));
  return checkOutputDims(op, outputs[0], inputs[0].dims);
}

class TableKernel final : public Kernel {
 public:
  explicit TableKernel(std::string op) : op_(std::move(op)) {}

  Status init(const OpParams& params) override {
    if (op_ == "ElementWiseNeuron") {
      HardSigmoidParams p;
      QNN_SDK_RETURN_IF_ERROR(neuronHardSigmoidParams(params, &p));
    }
    f_ = tableFunction(op_, params);
    if (!f_) return sdk::unsupportedOp(op_ + ": no table definition");
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkUnaryActivation(op, inputs, outputs));
    Encoding ein, eout;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "in[0]", inputs[0], &ein));
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout));
    const fx::QuantRange inRange = rangeOf(inputs[0]), outRange = rangeOf(outputs[0]);
    lo_ = inRange.lo;
    table_.resize(size_t(inRange.hi - inRange.lo + 1));
    for (size_t i = 0; i < table_.size(); ++i) {
      const double x = fx::dequantizeValue(lo_ + int64_t(i), ein.scale, ein.offset);
      table_[i] = int32_t(fx::quantizeValue(f_(x), eout.scale, eout.offset, outRange));
    }
    bytePath_ = isByteActivation(inputs[0]) && isByteActivation(outputs[0]);
    if (bytePath_)
      for (int byte = 0; byte < 256; ++byte)
        byteTable_[byte] = uint8_t(table_[size_t(byteValue(inputs[0].dtype, uint8_t(byte)) - lo_)]);
    // Other 8/16-bit pairs: the same entries as stored bits (2 bytes each, a typed loop).
    if (!bytePath_)
      stored_.build(inputs[0].dtype, outputs[0].dtype, [&](int64_t q) { return int64_t(table_[size_t(q - lo_)]); });
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = inputs[0].numElements();
    if (bytePath_) {
      lookupBytes(byteTable_, inputs[0].as<const uint8_t>(), outputs[0].as<uint8_t>(), n);
      return Status::ok();
    }
    if (!stored_.empty()) {
      stored_.apply(inputs[0].data, n, outputs[0].data);
      return Status::ok();
    }
    for (size_t i = 0; i < n; ++i) storeInt(outputs[0], i, table_[size_t(loadInt(inputs[0], i) - lo_)]);
    return Status::ok();
  }

 private:
  std::string op_;
  RealFunction f_;
  int64_t lo_ = 0;
  std::vector<int32_t> table_;
  bool bytePath_ = false;
  uint8_t byteTable_[256] = {};
  StoredValueTable stored_;
};

// ---------------------------------------------------------------------------
class ClampKernel final : public Kernel {
 public:
  explicit ClampKernel(std::string op) : op_(std::move(op)) {}

  Status init(const OpParams& params) override {
    if (op_ == "Relu") min_ = 0, max_ = INFINITY;
    else if (op_ == "Relu1") min_ = -1, max_ = 1;
    else if (op_ == "Relu6") min_ = 0, max_ = 6;
    else {
      if (!params.has("min_value") || !params.has("max_value"))
        return sdk::invalidParam("ReluMinMax: min_value and max_value are mandatory");
      min_ = params.f32("min_value", 0.f), max_ = params.f32("max_value", 0.f);
      if (!(min_ <= max_)) return sdk::invalidParam("ReluMinMax: min_value must be <= max_value");
    }
    return Status::ok();
  }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const char* op = op_.c_str();
    QNN_SDK_RETURN_IF_ERROR(checkUnaryActivation(op, inputs, outputs));
    QNN_SDK_RETURN_IF_ERROR(requant_.prepare(op, inputs[0], outputs[0]));
    Encoding eout;
    QNN_SDK_RETURN_IF_ERROR(tensorEncoding(op, "out[0]", outputs[0], &eout));
    const fx::QuantRange r = rangeOf(outputs[0]);
    lo_ = fx::quantizeValue(min_, eout.scale, eout.offset, r);
    hi_ = fx::quantizeValue(max_, eout.scale, eout.offset, r);
    bytePath_ = isByteActivation(inputs[0]) && isByteActivation(outputs[0]);
    // The plain byte clamp needs lo <= hi (always so for min <= max) and no requantization.
    byteClamp_ = bytePath_ && requant_.isIdentity() && lo_ <= hi_;
    if (bytePath_)
      for (int byte = 0; byte < 256; ++byte) byteTable_[byte] = uint8_t(clamped(byteValue(inputs[0].dtype, uint8_t(byte))));
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    const size_t n = inputs[0].numElements();
    const uint8_t* x = inputs[0].as<const uint8_t>();
    if (byteClamp_) {
      clampBytes(x, outputs[0].as<uint8_t>(), n, inputs[0].dtype == DType::kSFixed8, int32_t(lo_), int32_t(hi_));
      return Status::ok();
    }
    if (bytePath_) {
      lookupBytes(byteTable_, x, outputs[0].as<uint8_t>(), n);
      return Status::ok();
    }
    for (size_t i = 0; i < n; ++i) storeInt(outputs[0], i, clamped(loadInt(inputs[0], i)));
    return Status::ok();
  }

 private:
  int64_t clamped(int64_t q) const {
    const int64_t v = requant_(q);
    return v < lo_ ? lo_ : (v > hi_ ? hi_ : v);
  }

  std::string op_;
  double min_ = 0, max_ = 0;
  int64_t lo_ = 0, hi_ = 0;
  Requantizer requant_;
  bool bytePath_ = false, byteClamp_ = false;
  uint8_t byteTable_[256] = {};
};

}  // namespace

std::unique_ptr<Kernel> makeQuantTable(const std::string& op) { return std::make_unique<TableKernel>(op); }
std::unique_ptr<Kernel> makeQuantClamp(const std::string& op) { return std::make_unique<ClampKernel>(op); }

}  // namespace qnn::htp
