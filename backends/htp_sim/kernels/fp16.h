// fp16 mode: the HTP computes float graphs in IEEE half precision. The fp16
// kernels (fp16_*.cpp) read FLOAT_16 tensors, or FLOAT_32 tensors (graph
// inputs/outputs of an fp16 graph) whose values they first round to half,
// compute each op in float32 and round every output element to half
// (sdk/quant/half.h: nearest, ties to even) before storing it as FLOAT_16 or as
// the float32 value of that half. Static weights are rounded once at prepare.
// So every tensor of an fp16 graph holds fp16 values, as on the device; only
// the arithmetic inside one op is wider (float32 accumulation). A graph without
// QNN_PRECISION_FLOAT16 (the API 2.32 default, FP32) skips the rounding: the same
// kernels then compute in float32 throughout.
#pragma once

#include <cstddef>
#include <memory>
#include <vector>

#include "htp_sim/kernels/htp_kernel_util.h"
#include "quant/half.h"

namespace qnn::htp {

using sdk::quant::roundToHalf;

inline bool isFloatType(DType t) { return t == DType::kFloat32 || t == DType::kFloat16; }
constexpr std::initializer_list<DType> kFloatTypes = {DType::kFloat32, DType::kFloat16};

// Every element of float tensor t in float32, FLOAT_32 ones rounded to half when `round`.
void loadHalfValues(const TensorView& t, std::vector<float>* out, bool round = true);
// Stores values[0..n) into float tensor t: FLOAT_16 as half, FLOAT_32 rounded to half when `round`.
// `saturate` (FP16_CLAMP_OVERFLOW): a finite value whose half overflows is stored as +-65504 instead of +-inf.
void storeHalfValues(const TensorView& t, const float* values, size_t n, bool round = true, bool saturate = false);

// Base of the fp16 kernels: checks that the data inputs and every output are
// float, keeps static inputs loaded (rounded) from prepare, loads the others at
// every execute, and stores the outputs rounded to half. Subclasses implement
// shapePrepare (shapes, params against tensors) and compute.
class Fp16Kernel : public Kernel {
 public:
  explicit Fp16Kernel(std::string op) : op_(std::move(op)) {}
  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) final;
  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) final;
  void setNumericMode(const sdk::NumericMode& mode) final {
    roundToHalf_ = mode.fp16Floats;
    saturate_ = mode.fp16Floats && mode.saturateFp16Overflow;
  }

 protected:
  // Number of leading inputs that carry float data (the rest, e.g. indices, are read by the subclass).
  virtual size_t floatInputCount(size_t numInputs) const { return numInputs; }
  virtual Status shapePrepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) = 0;
  // in[i]: input i's values (empty for an absent optional input); out[o] sized
  // to output o's element count. Outputs are rounded by the caller.
  virtual Status compute(const std::vector<const std::vector<float>*>& in, std::vector<std::vector<float>>& out,
                         const std::vector<TensorView>& inputs) = 0;

  std::string op_;

 private:
  // Static inputs as floats: shared by the kernels of every graph with the same weights.
  std::vector<std::shared_ptr<const std::vector<float>>> staticValues_;
  std::vector<std::vector<float>> dynamicValues_;
  std::vector<bool> isStatic_;
  std::vector<std::vector<float>> outValues_;
  bool roundToHalf_ = true;
  bool saturate_ = false;
};

// Factories (the table is htp_kernel_registry.cpp).
std::unique_ptr<Kernel> makeFp16Conv2d(const std::string& op);
std::unique_ptr<Kernel> makeFp16FullyConnected(const std::string& op);
std::unique_ptr<Kernel> makeFp16MatMul(const std::string& op);
std::unique_ptr<Kernel> makeFp16Binary(const std::string& op);
std::unique_ptr<Kernel> makeFp16Unary(const std::string& op);
std::unique_ptr<Kernel> makeFp16Pool(const std::string& op);
std::unique_ptr<Kernel> makeFp16Reduce(const std::string& op);
std::unique_ptr<Kernel> makeFp16Softmax(const std::string& op);
std::unique_ptr<Kernel> makeFp16LayerNorm(const std::string& op);
std::unique_ptr<Kernel> makeFp16Movement(const std::string& op);
std::unique_ptr<Kernel> makeFp16Typed(const std::string& op);  // Argmax, Argmin
std::unique_ptr<Kernel> makeFp16FloatClass(const std::string& op);  // IsInf, IsNan (fp16_float_class.cpp)

}  // namespace qnn::htp
