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
    in_.assign(inputs.size(), {});
    out_.assign(outputs.size(), {});
    inEnc_.assign(inputs.size(), {});
    outEnc_.assign(outputs.size(), {});
    inViews_.assign(inputs.begin(), inputs.end());
    outViews_.assign(outputs.begin(), outputs.end());
    convertedIn_.assign(inputs.size(), false);
    for (size_t i = 0; i < inputs.size(); ++i) {
      inViews_[i].quant = {};
      if (!isConverted(inputs[i].dtype) || inputs[i].dims.empty()) continue;
      if (sdk::dtypeIsFixedPoint(inputs[i].dtype))
        QNN_SDK_RETURN_IF_ERROR(tensorEncoding("real-valued op", "an input", inputs[i], &inEnc_[i]));
      inViews_[i].dtype = DType::kFloat32;
      inViews_[i].data = nullptr;
      if (inputs[i].data) {  // static: converted once
        convertIn(inputs[i], inEnc_[i], &in_[i]);
        inViews_[i].data = in_[i].data();
      } else {
        convertedIn_[i] = true;
      }
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      outViews_[i].quant = {};
      if (!isConverted(outputs[i].dtype)) continue;
      if (sdk::dtypeIsFixedPoint(outputs[i].dtype))
        QNN_SDK_RETURN_IF_ERROR(tensorEncoding("real-valued op", "an output", outputs[i], &outEnc_[i]));
      outViews_[i].dtype = DType::kFloat32;
      out_[i].resize(outputs[i].numElements());
    }
    return inner_->prepare(inViews_, outViews_);
  }

  // The inner kernel's views kept from prepare (no per-execute copies): the dynamic fixed-point /
  // float inputs converted into in_, the others' buffers passed as they are, out_ converted after.
  Status execute(const std::vector<TensorView>& inputs, const std::vector<TensorView>& outputs) override {
    for (size_t i = 0; i < inputs.size(); ++i) {
      if (inViews_[i].dims != inputs[i].dims) inViews_[i].dims = inputs[i].dims;
      if (convertedIn_[i]) {
        convertIn(inputs[i], inEnc_[i], &in_[i]);
        inViews_[i].data = in_[i].data();
      } else if (!isConverted(inputs[i].dtype) || inputs[i].dims.empty()) {
        inViews_[i].data = inputs[i].data;
      }
    }
    for (size_t i = 0; i < outputs.size(); ++i) {
      if (outViews_[i].dims != outputs[i].dims) outViews_[i].dims = outputs[i].dims;
      outViews_[i].data = isConverted(outputs[i].dtype) ? static_cast<void*>(out_[i].data()) : outputs[i].data;
    }
    QNN_SDK_RETURN_IF_ERROR(inner_->execute(inViews_, outViews_));
    for (size_t i = 0; i < outputs.size(); ++i) {
      const TensorView& t = outputs[i];
      if (sdk::dtypeIsFixedPoint(t.dtype)) {
        quantizeFloats(out_[i].data(), out_[i].size(), outEnc_[i], rangeOf(t), t);
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
    dequantizeAll(t, e, out->data());
  }

  std::unique_ptr<sdk::OpKernel> inner_;
  bool fp32_ = false, saturate_ = false;
  std::vector<std::vector<float>> in_, out_;
  std::vector<Encoding> inEnc_, outEnc_;
  std::vector<TensorView> inViews_, outViews_;
  std::vector<bool> convertedIn_;  // dynamic inputs converted at execute into in_
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
