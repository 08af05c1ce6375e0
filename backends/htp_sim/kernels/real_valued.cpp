// The ops the HTP simulator runs on real values with the shared float algorithms
// of sdk/ops/ (detection post-processing, RoI sampling, recurrent cells,
// GroupNorm, L2Norm, Lrn, GridSample, image transforms): the vendor's integer
// method for them is not
// public, and their math (sorting, IoU, exponentials, bilinear weights) is not a
// requantization chain. The rule (docs/htp-fixed-point.md, "Real-valued ops"):
//  * a fixed-point input is dequantized, (q + offset) * scale, to float32; a
//    float input (fp16 graphs) is read as float32, rounded to half unless the
//    graph computes in fp32; integer and bool inputs are passed as they are;
//  * the shared algorithm runs in float32, exactly as on the CPU backend;
//  * a fixed-point output is quantized (float32 quotient rounded half to
//    even, docs/htp-fixed-point.md) with saturation; a float output is rounded to half unless fp32; integer and bool
//    outputs are written by the algorithm as they are.
// Static inputs are converted once at prepare.
#include <algorithm>

#include "htp_sim/kernels/fp16.h"
#include "htp_sim/kernels/htp_kernel_registry.h"
#include "kernels/shared_ops.h"

namespace qnn::htp {
namespace {

bool isConverted(DType t) { return sdk::dtypeIsFixedPoint(t) || isFloatType(t); }

class RealValuedKernel final : public Kernel {
 public:
  explicit RealValuedKernel(std::unique_ptr<sdk::OpKernel> inner) : inner_(std::move(inner)) {}

  void setNumericMode(const sdk::NumericMode& mode) override {
    fp32_ = !mode.fp16Floats;
    saturate_ = mode.fp16Floats && mode.saturateFp16Overflow;
  }
  Status init(const OpParams& params) override { return inner_->init(params); }

  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    staticIn_.clear();
    in_.assign(inputs.size(), {});
    out_.assign(outputs.size(), {});
    inEnc_.assign(inputs.size(), {});
    outEnc_.assign(outputs.size(), {});
    std::vector<TensorView> inViews(inputs.size()), outViews(outputs.size());
    for (size_t i = 0; i < inputs.size(); ++i) {
      inViews[i] = inputs[i];
      inViews[i].quant = {};
      if (!isConverted(inputs[i].dtype) || inputs[i].dims.empty()) continue;
      if (sdk::dtypeIsFixedPoint(inputs[i].dtype))
        QNN_SDK_RETURN_IF_ERROR(tensorEncoding("real-valued op", "an input", inputs[i], &inEnc_[i]));
      inViews[i].dtype = DType::kFloat32;
      inViews[i].data = nullptr;
      if (inputs[i].data) {  // static: converted once
        convertIn(inputs[i], inEnc_[i], &in_[i]);
        inViews[i].data = in_[i].data();
        staticIn_.push_back(i);
      }
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      outViews[i] = outputs[i];
      outViews[i].quant = {};
      if (!isConverted(outputs[i].dtype)) continue;
      if (sdk::dtypeIsFixedPoint(outputs[i].dtype))
        QNN_SDK_RETURN_IF_ERROR(tensorEncoding("real-valued op", "an output", outputs[i], &outEnc_[i]));
      outViews[i].dtype = DType::kFloat32;
      out_[i].resize(outputs[i].numElements());
    }
    return inner_->prepare(inViews, outViews);
  }

  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    std::vector<TensorView> inViews(inputs), outViews(outputs);
    for (size_t i = 0; i < inputs.size(); ++i) {
      inViews[i].quant = {};
      if (!isConverted(inputs[i].dtype) || inputs[i].dims.empty()) continue;
      if (std::find(staticIn_.begin(), staticIn_.end(), i) == staticIn_.end()) convertIn(inputs[i], inEnc_[i], &in_[i]);
      inViews[i].dtype = DType::kFloat32;
      inViews[i].data = in_[i].data();
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      outViews[i].quant = {};
      if (!isConverted(outputs[i].dtype)) continue;
      outViews[i].dtype = DType::kFloat32;
      outViews[i].data = out_[i].data();
    }
    QNN_SDK_RETURN_IF_ERROR(inner_->execute(inViews, outViews));
    for (size_t i = 0; i < outputs.size(); ++i) {
      const TensorView& t = outputs[i];
      if (sdk::dtypeIsFixedPoint(t.dtype)) {
        const fx::QuantRange range = rangeOf(t);
        for (size_t k = 0; k < out_[i].size(); ++k)
          storeInt(t, k, fx::quantizeValue(out_[i][k], outEnc_[i].scale, outEnc_[i].offset, range));
      } else if (isFloatType(t.dtype)) {
        storeHalfValues(t, out_[i].data(), out_[i].size(), !fp32_, saturate_);
      }
    }
    return Status::ok();
  }

 private:
  void convertIn(const TensorView& t, const Encoding& e, std::vector<float>* out) const {
    if (isFloatType(t.dtype)) return loadHalfValues(t, out, !fp32_);
    out->resize(t.numElements());
    for (size_t k = 0; k < out->size(); ++k) (*out)[k] = fx::dequantizeValue(loadInt(t, k), e.scale, e.offset);
  }

  std::unique_ptr<sdk::OpKernel> inner_;
  bool fp32_ = false, saturate_ = false;
  std::vector<std::vector<float>> in_, out_;
  std::vector<Encoding> inEnc_, outEnc_;
  std::vector<size_t> staticIn_;
};

}  // namespace

// A shared op that moves values without reading them (Buffer): it sees the
// tensors as they are, so fixed-point and fp16 data pass bit for bit.
class SharedMoveKernel final : public Kernel {
 public:
  explicit SharedMoveKernel(std::unique_ptr<sdk::OpKernel> inner) : inner_(std::move(inner)) {}
  Status init(const OpParams& params) override { return inner_->init(params); }
  Status prepare(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    return inner_->prepare(inputs, outputs);
  }
  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    return inner_->execute(inputs, outputs);
  }

 private:
  std::unique_ptr<sdk::OpKernel> inner_;
};

std::unique_ptr<Kernel> makeSharedMove(const std::string& op) {
  sdk::OpKernelFactory factory = ops::findSharedOp(op);
  auto inner = factory ? factory(op) : nullptr;
  if (!inner) return nullptr;
  return std::make_unique<SharedMoveKernel>(std::move(inner));
}

std::unique_ptr<Kernel> makeRealValued(const std::string& op) {
  sdk::OpKernelFactory factory = ops::findSharedOp(op);
  auto inner = factory ? factory(op) : nullptr;
  if (!inner) return nullptr;
  return std::make_unique<RealValuedKernel>(std::move(inner));
}

}  // namespace qnn::htp
