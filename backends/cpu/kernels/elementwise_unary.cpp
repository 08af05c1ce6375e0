// One-input element-wise math ops (ElementWise*), one functor each.
#include <cmath>
#include <cstdint>
#include <type_traits>

#include "cpu/kernels/elementwise_map.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

struct SquareRoot { float operator()(float x) const { return std::sqrt(x); } };
struct Rsqrt { float operator()(float x) const { return 1.f / std::sqrt(x); } };
struct Exp { float operator()(float x) const { return std::exp(x); } };
struct Log { float operator()(float x) const { return std::log(x); } };
struct Abs { float operator()(float x) const { return std::fabs(x); } };
struct Neg {
  template <typename T> T operator()(T x) const {
    // Through unsigned so that -INT_MIN wraps instead of being undefined.
    if constexpr (std::is_integral_v<T>) return static_cast<T>(0u - static_cast<std::make_unsigned_t<T>>(x));
    else return -x;
  }
};
struct Floor { float operator()(float x) const { return std::floor(x); } };
struct Ceil { float operator()(float x) const { return std::ceil(x); } };
// Ties to even, as the op defines; nearbyint uses the default rounding mode.
struct Round { float operator()(float x) const { return std::nearbyint(x); } };
struct Sign { template <typename T> T operator()(T x) const { return static_cast<T>((T(0) < x) - (x < T(0))); } };
struct Sin { float operator()(float x) const { return std::sin(x); } };
struct Cos { float operator()(float x) const { return std::cos(x); } };
struct Asin { float operator()(float x) const { return std::asin(x); } };
struct Atan { float operator()(float x) const { return std::atan(x); } };
struct Not { uint8_t operator()(uint8_t x) const { return x == 0; } };
struct IsNan { uint8_t operator()(float x) const { return std::isnan(x); } };
struct IsInf {
  explicit IsInf(const MapParams& p) : negative(p.detectNegative), positive(p.detectPositive) {}
  uint8_t operator()(float x) const { return std::isinf(x) && (x > 0 ? positive : negative); }
  bool negative, positive;
};

Status readIsInfParams(const OpParams& params, MapParams* p) {
  p->detectNegative = params.b("detect_negative", true);
  p->detectPositive = params.b("detect_positive", true);
  return Status::ok();
}

// ln(1 + e^(beta x)) / beta, returning x once beta*x passes a non-negative
// threshold. Written as max(bx,0) + log1p(e^-|bx|) so large inputs do not
// overflow e^(bx).
struct Softplus {
  explicit Softplus(const MapParams& p) : beta(p.beta), threshold(p.threshold) {}
  float operator()(float x) const {
    const float bx = beta * x;
    if (threshold >= 0.f && bx > threshold) return x;
    return (std::fmax(bx, 0.f) + std::log1p(std::exp(-std::fabs(bx)))) / beta;
  }
  float beta, threshold;
};

Status readSoftplusParams(const OpParams& params, MapParams* p) {
  p->beta = params.f32("beta", 1.f);
  p->threshold = params.f32("threshold", -1.f);
  if (!(p->beta > 0.f)) return sdk::invalidParam("ElementWiseSoftplus: beta must be > 0, got " + std::to_string(p->beta));
  return Status::ok();
}

constexpr DType kF32 = DType::kFloat32;

const MapOpSpec kUnaryOps[] = {
    {"ElementWiseSquareRoot", pickMapRunner<SquareRoot, kF32>},
    {"ElementWiseRsqrt", pickMapRunner<Rsqrt, kF32>},
    {"ElementWiseExp", pickMapRunner<Exp, kF32>},
    {"ElementWiseLog", pickMapRunner<Log, kF32>},
    {"ElementWiseAbs", pickMapRunner<Abs, kF32>},
    {"ElementWiseNeg", pickMapRunner<Neg, kF32, DType::kInt32>},
    {"ElementWiseFloor", pickMapRunner<Floor, kF32>},
    {"ElementWiseCeil", pickMapRunner<Ceil, kF32>},
    {"ElementWiseRound", pickMapRunner<Round, kF32>},
    {"ElementWiseSign", pickMapRunner<Sign, kF32, DType::kInt8, DType::kInt32, DType::kUInt32, DType::kInt64>},
    {"ElementWiseSin", pickMapRunner<Sin, kF32>},
    {"ElementWiseCos", pickMapRunner<Cos, kF32>},
    {"ElementWiseAsin", pickMapRunner<Asin, kF32>},
    {"ElementWiseAtan", pickMapRunner<Atan, kF32>},
    {"ElementWiseSoftplus", pickMapRunner<Softplus, kF32>, DType::kUndefined, readSoftplusParams},
    {"ElementWiseNot", pickMapRunner<Not, DType::kBool8>},
    {"IsNan", pickMapRunner<IsNan, kF32>, DType::kBool8},
    {"IsInf", pickMapRunner<IsInf, kF32>, DType::kBool8, readIsInfParams},
};

}  // namespace

std::unique_ptr<Kernel> makeElementWiseUnary(const std::string& opType) { return makeMapKernel(kUnaryOps, opType); }

}  // namespace qnn::cpu
