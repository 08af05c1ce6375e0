// Two-input element-wise ops with numpy broadcasting (arithmetic, comparisons,
// logical) and the three-input ElementWiseSelect.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

#include "cpu/kernels/broadcast.h"
#include "cpu/kernels/dtype_storage.h"
#include "cpu/kernels/kernel_factories.h"

namespace qnn::cpu {
namespace {

// Signed integer overflow is undefined in C++; the integer ops wrap like the
// hardware does, through the unsigned type.
template <typename T, typename F>
T wrapping(T a, T b, F f) {
  // 8- and 16-bit values would promote to (signed) int, whose products can
  // overflow: they compute in unsigned int.
  using U = std::make_unsigned_t<T>;
  using W = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, U>;
  return static_cast<T>(f(static_cast<W>(static_cast<U>(a)), static_cast<W>(static_cast<U>(b))));
}

struct Add {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) return wrapping(a, b, [](auto x, auto y) { return x + y; });
    else return a + b;
  }
};
struct Subtract {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) return wrapping(a, b, [](auto x, auto y) { return x - y; });
    else return a - b;
  }
};
struct Multiply {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) return wrapping(a, b, [](auto x, auto y) { return x * y; });
    else return a * b;
  }
};
// Integer division truncates (C semantics); x/0 gives 0 and INT_MIN/-1 wraps,
// where the CPU would trap.
struct Divide {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      if (std::is_signed_v<T> && b == static_cast<T>(-1)) return wrapping(T(0), a, [](auto x, auto y) { return x - y; });
      return a / b;
    } else {
      return a / b;
    }
  }
};
struct Maximum { template <typename T> T operator()(T a, T b) const { return a > b ? a : b; } };
struct Minimum { template <typename T> T operator()(T a, T b) const { return a < b ? a : b; } };
struct Power { float operator()(float a, float b) const { return std::pow(a, b); } };
struct SquaredDifference { float operator()(float a, float b) const { return (a - b) * (a - b); } };
struct FloorDiv { float operator()(float a, float b) const { return std::floor(a / b); } };
// C-style remainder (the dividend's sign); on integers x fmod 0 gives 0.
struct Fmod {
  template <typename T> T operator()(T a, T b) const {
    if constexpr (std::is_integral_v<T>) {
      if (b == 0) return 0;
      if (std::is_signed_v<T> && b == static_cast<T>(-1)) return 0;
      return static_cast<T>(a % b);
    } else {
      return std::fmod(a, b);
    }
  }
};
// Python-style remainder: the sign of the divisor; x mod 0 gives 0.
struct Mod {
  template <typename T> T operator()(T a, T b) const {
    if (b == 0) return 0;
    if constexpr (std::is_signed_v<T>) {
      if (b == static_cast<T>(-1)) return 0;
      T r = static_cast<T>(a % b);
      return (r != 0 && ((r < 0) != (b < 0))) ? static_cast<T>(r + b) : r;
    } else {
      return static_cast<T>(a % b);
    }
  }
};
struct Equal { template <typename T> uint8_t operator()(T a, T b) const { return a == b; } };
struct NotEqual { template <typename T> uint8_t operator()(T a, T b) const { return a != b; } };
struct Greater { template <typename T> uint8_t operator()(T a, T b) const { return a > b; } };
struct GreaterEqual { template <typename T> uint8_t operator()(T a, T b) const { return a >= b; } };
struct Less { template <typename T> uint8_t operator()(T a, T b) const { return a < b; } };
struct LessEqual { template <typename T> uint8_t operator()(T a, T b) const { return a <= b; } };
struct And { uint8_t operator()(uint8_t a, uint8_t b) const { return (a != 0) & (b != 0); } };
struct Or { uint8_t operator()(uint8_t a, uint8_t b) const { return (a != 0) | (b != 0); } };
struct Xor { uint8_t operator()(uint8_t a, uint8_t b) const { return (a != 0) ^ (b != 0); } };

// The four stride patterns of a row, each a loop GCC vectorises.
template <typename T, typename Out, typename F>
inline void binaryRow(const T* a, size_t stepA, const T* b, size_t stepB, Out* out, size_t n, F f) {
  if (stepA && stepB) {
    for (size_t i = 0; i < n; ++i) out[i] = f(a[i], b[i]);
  } else if (stepA) {
    const T bv = *b;
    for (size_t i = 0; i < n; ++i) out[i] = f(a[i], bv);
  } else if (stepB) {
    const T av = *a;
    for (size_t i = 0; i < n; ++i) out[i] = f(av, b[i]);
  } else {
    const Out v = f(*a, *b);
    for (size_t i = 0; i < n; ++i) out[i] = v;
  }
}

using BinaryRunner = void (*)(const BroadcastPlan&, const TensorView& a, const TensorView& b, const TensorView& out);

template <typename F, typename T>
void runBinary(const BroadcastPlan& plan, const TensorView& a, const TensorView& b, const TensorView& out) {
  using Out = decltype(F{}(T{}, T{}));  // T for arithmetic, uint8_t (BOOL_8) for predicates
  const T* pa = a.as<const T>();
  const T* pb = b.as<const T>();
  Out* po = out.as<Out>();
  forEachBroadcastRow<2>(plan, kElementwiseGrain, [&](size_t outOff, const size_t* off, size_t n) {
    binaryRow(pa + off[0], plan.rowStep(0), pb + off[1], plan.rowStep(1), po + outOff, n, F{});
  });
}

// F on float32 with the result clamped into [lo, hi]: a Relu / ReluMinMax the
// CPU engine folded into this node (e.g. ResNet's residual Add -> Relu).
template <typename F>
struct ClampedF32 {
  float lo, hi;
  float operator()(float a, float b) const { return std::min(std::max(F{}(a, b), lo), hi); }
};
using ClampedRunner = void (*)(const BroadcastPlan&, const TensorView& a, const TensorView& b, const TensorView& out,
                               float lo, float hi);
template <typename F>
void runClampedF32(const BroadcastPlan& plan, const TensorView& a, const TensorView& b, const TensorView& out,
                   float lo, float hi) {
  const float* pa = a.as<const float>();
  const float* pb = b.as<const float>();
  float* po = out.as<float>();
  const ClampedF32<F> f{lo, hi};
  forEachBroadcastRow<2>(plan, kElementwiseGrain, [&](size_t outOff, const size_t* off, size_t n) {
    binaryRow(pa + off[0], plan.rowStep(0), pb + off[1], plan.rowStep(1), po + outOff, n, f);
  });
}

// The runner of functor F for the first of the dtypes Ds equal to `dtype`.
template <typename F, DType... Ds>
BinaryRunner pickRunner(DType dtype) {
  BinaryRunner r = nullptr;
  ((r == nullptr && dtype == Ds ? (r = &runBinary<F, typename Storage<Ds>::type>) : r), ...);
  return r;
}

constexpr DType kF32 = DType::kFloat32, kI32 = DType::kInt32, kU32 = DType::kUInt32, kBool = DType::kBool8;
constexpr DType kI8 = DType::kInt8, kU8 = DType::kUInt8, kI16 = DType::kInt16, kU16 = DType::kUInt16;

struct BinaryOpSpec {
  const char* name;
  BinaryRunner (*pick)(DType);  // nullptr for an input dtype the op does not take
  bool boolResult;              // predicates output BOOL_8, the rest in[0]'s dtype
  ClampedRunner clampedF32 = nullptr;  // float32 with a fused activation, where offered
};

const BinaryOpSpec kBinaryOps[] = {
    {"ElementWiseAdd", pickRunner<Add, kF32, kI32, kU32, kI8, kU8, kI16, kU16>, false, runClampedF32<Add>},
    {"ElementWiseSubtract", pickRunner<Subtract, kF32, kI32, kU32, kI8, kU8, kI16, kU16>, false, runClampedF32<Subtract>},
    {"ElementWiseMultiply", pickRunner<Multiply, kF32, kI32, kU32, kI8, kU8, kI16, kU16>, false, runClampedF32<Multiply>},
    {"ElementWiseDivide", pickRunner<Divide, kF32, kI32, kU32, kI8, kU8, kI16, kU16>, false},
    {"ElementWiseMaximum", pickRunner<Maximum, kF32, kI32, kU32, kI8, kU8, kI16, kU16>, false},
    {"ElementWiseMinimum", pickRunner<Minimum, kF32, kI32, kU32, kI8, kU8, kI16, kU16>, false},
    {"ElementWisePower", pickRunner<Power, kF32>, false},
    {"ElementWiseSquaredDifference", pickRunner<SquaredDifference, kF32>, false},
    {"ElementWiseFloorDiv", pickRunner<FloorDiv, kF32>, false},
    {"ElementWiseFmod", pickRunner<Fmod, kF32, kI32, kU32, kI8, kU8, kI16, kU16>, false},
    {"ElementWiseMod", pickRunner<Mod, kI32, kU32, kI8, kU8, kI16, kU16>, false},
    {"ElementWiseEqual", pickRunner<Equal, kF32, kI32, kU32, kBool>, true},
    {"ElementWiseNotEqual", pickRunner<NotEqual, kF32, kI32, kU32, kBool>, true},
    {"ElementWiseGreater", pickRunner<Greater, kF32, kI32, kU32>, true},
    {"ElementWiseGreaterEqual", pickRunner<GreaterEqual, kF32, kI32, kU32>, true},
    {"ElementWiseLess", pickRunner<Less, kF32, kI32, kU32>, true},
    {"ElementWiseLessEqual", pickRunner<LessEqual, kF32, kI32, kU32>, true},
    {"ElementWiseAnd", pickRunner<And, kBool>, true},
    {"ElementWiseOr", pickRunner<Or, kBool>, true},
    {"ElementWiseXor", pickRunner<Xor, kBool>, true},
};

class BinaryKernel final : public Kernel {
 public:
  explicit BinaryKernel(const BinaryOpSpec& spec) : spec_(spec) {}

  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = spec_.name;
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 2, 2, out, 1));
    runner_ = spec_.pick(in[0].dtype);
    if (!runner_)
      return sdk::unsupportedDType(std::string(op) + ": in[0] datatype " + sdk::dtypeName(in[0].dtype) +
                                   " is not supported");
    if (in[1].dtype != in[0].dtype)
      return sdk::unsupportedDType(std::string(op) + ": in[1] datatype " + sdk::dtypeName(in[1].dtype) +
                                   " must equal in[0]'s " + sdk::dtypeName(in[0].dtype));
    const DType outType = spec_.boolResult ? kBool : in[0].dtype;
    if (out[0].dtype != outType)
      return sdk::unsupportedDType(std::string(op) + ": out[0] datatype " + sdk::dtypeName(out[0].dtype) +
                                   " must be " + sdk::dtypeName(outType));
    // Rank-0 inputs are scalars and broadcast as such.
    std::vector<uint32_t> outDims;
    QNN_SDK_RETURN_IF_ERROR(makeBroadcastPlan(op, {in[0].dims, in[1].dims}, &outDims, &plan_));
    QNN_SDK_RETURN_IF_ERROR(checkBroadcastOutputDims(op, out[0], outDims));
    findStaticZeros(in);
    return Status::ok();
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const TensorView& a = zeroInput_ == 0 ? zeroView_ : in[0];
    const TensorView& b = zeroInput_ == 1 ? zeroView_ : in[1];
    if (clamped_) spec_.clampedF32(plan_, a, b, out[0], lo_, hi_);
    else runner_(plan_, a, b, out[0]);
    return Status::ok();
  }

  // A clamp, for the float ops with a clamped runner.
  bool supportsEpilogue(const sdk::Epilogue& e) const override {
    return e.empty() || (spec_.clampedF32 && runner_ == spec_.pick(DType::kFloat32) && !e.residualInput &&
                         !e.maxPool && !e.inputScale && !e.gelu && e.strided.empty());
  }
  Status setEpilogue(const sdk::Epilogue& e) override {
    if (e.clamp) lo_ = e.clamp->lo, hi_ = e.clamp->hi, clamped_ = true;
    return Status::ok();
  }

 private:
  // A float32 Add of a static tensor of +0.0 as large as the output: how converters express ONNX's
  // Expand (e.g. the LLM decoder's K/V heads repeated for grouped-query attention: a 512 KiB zero
  // tensor per Expand). The kernel still adds +0.0 to every element (so -0.0 becomes +0.0 as
  // before, bit for bit), but from one register instead of streaming the zeros from memory:
  // the zero input's strides become 0 and it reads one float.
  void findStaticZeros(const std::vector<TensorView>& in) {
    zeroInput_ = -1;
    if (std::strcmp(spec_.name, "ElementWiseAdd") != 0 || in[0].dtype != kF32) return;
    for (int k = 0; k < 2; ++k) {
      const TensorView& t = in[static_cast<size_t>(k)];
      if (!t.data || t.numElements() != plan_.numElements || plan_.numElements == 0) continue;
      const auto* bytes = static_cast<const unsigned char*>(t.data);
      if (bytes[0] != 0 || std::memcmp(bytes, bytes + 1, t.byteSize() - 1) != 0) continue;
      zeroInput_ = k;
      std::fill(plan_.strides[static_cast<size_t>(k)].begin(), plan_.strides[static_cast<size_t>(k)].end(), 0);
      zeroView_ = TensorView{};
      zeroView_.data = &zero_;
      zeroView_.dtype = kF32;
      return;
    }
  }

  const BinaryOpSpec& spec_;
  BinaryRunner runner_ = nullptr;
  BroadcastPlan plan_;
  int zeroInput_ = -1;  // the input findStaticZeros found to be all +0.0, or -1
  float zero_ = 0.0f;
  TensorView zeroView_;
  bool clamped_ = false;
  float lo_ = 0.f, hi_ = 0.f;
};

// out = cond ? in[1] : in[2], all three broadcast together.
class SelectKernel final : public Kernel {
 public:
  Status init(const OpParams&) override { return Status::ok(); }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = "ElementWiseSelect";
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 3, 3, out, 1));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[0] (condition)", in[0], {kBool}));
    QNN_SDK_RETURN_IF_ERROR(checkDType(op, "in[1]", in[1], {kF32, kI32, kU32, DType::kUInt8, DType::kInt8}));
    if (in[2].dtype != in[1].dtype || out[0].dtype != in[1].dtype)
      return sdk::unsupportedDType(std::string(op) + ": in[2] and out[0] datatypes (" + sdk::dtypeName(in[2].dtype) +
                                   ", " + sdk::dtypeName(out[0].dtype) + ") must equal in[1]'s " +
                                   sdk::dtypeName(in[1].dtype));
    // Rank-0 inputs are scalars and broadcast as such.
    std::vector<uint32_t> outDims;
    QNN_SDK_RETURN_IF_ERROR(makeBroadcastPlan(op, {in[0].dims, in[1].dims, in[2].dims}, &outDims, &plan_));
    elementSize_ = sdk::dtypeSize(in[1].dtype);
    return checkBroadcastOutputDims(op, out[0], outDims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    // Select only moves values, so dispatch on element size.
    if (elementSize_ == 4) run<uint32_t>(in, out);
    else run<uint8_t>(in, out);
    return Status::ok();
  }

 private:
  template <typename T>
  void run(const std::vector<TensorView>& in, const std::vector<TensorView>& out) {
    const uint8_t* cond = in[0].as<const uint8_t>();
    const T* x = in[1].as<const T>();
    const T* y = in[2].as<const T>();
    T* o = out[0].as<T>();
    const size_t sc = plan_.rowStep(0), sx = plan_.rowStep(1), sy = plan_.rowStep(2);
    forEachBroadcastRow<3>(plan_, kElementwiseGrain, [&](size_t outOff, const size_t* off, size_t n) {
      const uint8_t* c = cond + off[0];
      const T* a = x + off[1];
      const T* b = y + off[2];
      T* dst = o + outOff;
      if (sc && sx && sy) {
        for (size_t i = 0; i < n; ++i) dst[i] = c[i] ? a[i] : b[i];
      } else {
        for (size_t i = 0; i < n; ++i) dst[i] = c[i * sc] ? a[i * sx] : b[i * sy];
      }
    });
  }

  BroadcastPlan plan_;
  size_t elementSize_ = 4;
};

}  // namespace

std::unique_ptr<Kernel> makeElementWiseBinary(const std::string& opType) {
  for (const BinaryOpSpec& spec : kBinaryOps)
    if (opType == spec.name) return std::make_unique<BinaryKernel>(spec);
  return nullptr;
}

std::unique_ptr<Kernel> makeSelect(const std::string& opType) {
  return opType == "ElementWiseSelect" ? std::make_unique<SelectKernel>() : nullptr;
}

}  // namespace qnn::cpu
