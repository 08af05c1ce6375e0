// The one-input, same-shape kernels (elementwise_unary.cpp, activation.cpp)
// share this machinery: a table of MapOpSpec rows, each naming the functor per
// supported dtype, and one MapKernel that checks shapes and runs the functor
// over the tensor in parallel.
#pragma once

#include <string>
#include <type_traits>

#include "cpu/kernels/broadcast.h"
#include "cpu/kernels/dtype_storage.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {

// Every param any map op reads, filled by the op's readParams.
struct MapParams {
  float alpha = 1.f;       // Elu
  float beta = 1.f;        // Softplus
  float threshold = -1.f;  // Softplus
  float minValue = 0.f;    // ReluMinMax
  float maxValue = 0.f;
  bool detectNegative = true, detectPositive = true;  // IsInf
};

using MapRunner = void (*)(const TensorView& in, const TensorView& out, const MapParams& params);

// Functors with state take MapParams in their constructor; the rest are empty.
template <typename F>
F makeFunctor(const MapParams& p) {
  if constexpr (std::is_constructible_v<F, const MapParams&>) return F(p);
  else return F{};
}

template <typename F, typename T>
void runMap(const TensorView& in, const TensorView& out, const MapParams& params) {
  const F f = makeFunctor<F>(params);
  using Out = decltype(f(T{}));
  const T* src = in.as<const T>();
  Out* dst = out.as<Out>();
  parallelFor(in.numElements(), kElementwiseGrain, [&](size_t begin, size_t end) {
    for (size_t i = begin; i < end; ++i) dst[i] = f(src[i]);
  });
}

// The runner of F for the first of the dtypes Ds equal to `dtype`, else nullptr.
template <typename F, DType... Ds>
MapRunner pickMapRunner(DType dtype) {
  MapRunner r = nullptr;
  ((r == nullptr && dtype == Ds ? (r = &runMap<F, typename Storage<Ds>::type>) : r), ...);
  return r;
}

struct MapOpSpec {
  const char* name;
  MapRunner (*pick)(DType);
  DType outType = DType::kUndefined;  // kUndefined: the input's dtype
  Status (*readParams)(const OpParams&, MapParams*) = nullptr;
};

class MapKernel final : public Kernel {
 public:
  explicit MapKernel(const MapOpSpec& spec) : spec_(spec) {}

  Status init(const OpParams& params) override {
    return spec_.readParams ? spec_.readParams(params, &params_) : Status::ok();
  }

  Status prepare(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    const char* op = spec_.name;
    QNN_SDK_RETURN_IF_ERROR(checkArity(op, in, 1, 1, out, 1));
    runner_ = spec_.pick(in[0].dtype);
    if (!runner_)
      return sdk::unsupportedDType(std::string(op) + ": in[0] datatype " + sdk::dtypeName(in[0].dtype) +
                                   " is not supported");
    const DType want = spec_.outType == DType::kUndefined ? in[0].dtype : spec_.outType;
    if (out[0].dtype != want)
      return sdk::unsupportedDType(std::string(op) + ": out[0] datatype " + sdk::dtypeName(out[0].dtype) +
                                   " must be " + sdk::dtypeName(want));
    // One value may be held as [1] on one side and rank 0 on the other.
    if (in[0].numElements() == 1 && out[0].numElements() == 1 && (in[0].rank() == 0 || out[0].rank() == 0))
      return Status::ok();
    return checkOutputDims(op, out[0], in[0].dims);
  }

  Status execute(const std::vector<TensorView>& in, const std::vector<TensorView>& out) override {
    runner_(in[0], out[0], params_);
    return Status::ok();
  }

 private:
  const MapOpSpec& spec_;
  MapParams params_;
  MapRunner runner_ = nullptr;
};

// The kernel for opType from a table of specs, nullptr if it has none.
template <size_t N>
std::unique_ptr<Kernel> makeMapKernel(const MapOpSpec (&table)[N], const std::string& opType) {
  for (const MapOpSpec& spec : table)
    if (opType == spec.name) return std::make_unique<MapKernel>(spec);
  return nullptr;
}

}  // namespace qnn::cpu
