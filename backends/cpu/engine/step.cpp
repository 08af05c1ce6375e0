#include "cpu/engine/step.h"

#include "cpu/cpu_op_package_kernel.h"
#include "opdefs/op_catalog.h"
#include "cpu/quant_emulation.h"

namespace qnn::cpu {
namespace {

// Ops that read or write fixed-point data themselves; every other op runs its
// float kernel on dequantized data when its tensors are fixed-point.
bool handlesFixedPointItself(const std::string& op) {
  return op == "Quantize" || op == "Dequantize" || op == "Convert" || op == "Cast" || op == "Reshape" ||
         op == "Squeeze" || op == "ExpandDims" || op == "Transpose" || op == "Concat" || op == "Split" ||
         op == "StridedSlice" || op == "Gather" || op == "Tile" || op == "Argmax" || op == "Argmin" || op == "Buffer";
}

TensorView viewOf(const TensorInfo& t, bool asFloat) {
  TensorView v;
  v.dtype = asFloat && (sdk::dtypeIsFixedPoint(t.dtype)) ? DType::kFloat32 : t.dtype;
  v.dims = t.dims;
  if (!asFloat) v.quant = t.quant;
  // Under float emulation a fixed-point static tensor's bytes are still quantized
  // while the view says FLOAT_32: exposing them would let prepare() read them as
  // floats (4x past the buffer). Leave data null so the kernel treats the tensor
  // as dynamic; execute() hands it the dequantized copy.
  const bool quantizedBytes = asFloat && sdk::dtypeIsFixedPoint(t.dtype);
  if (t.kind == TensorKind::kStatic && !quantizedBytes) v.data = const_cast<uint8_t*>(t.staticData.data());
  return v;
}

// The kernel object of one node: a built-in kernel, or a wrapper over the op
// of a registered package (whose op impl is created only when forExecution).
Status createKernel(const NodeInfo& node, const sdk::OpPackageSet* packages, bool forExecution,
                    std::unique_ptr<Kernel>* out) {
  if (isPackageOp(node)) {
    auto package = packages ? packages->find(node.packageName) : nullptr;
    if (!package || !package->hasOp(node.typeName))
      return sdk::unsupportedOp("node '" + node.name + "': op '" + node.typeName + "' of op package '" +
                                node.packageName + "' is not registered with this backend");
    *out = std::make_unique<PackageOpKernel>(std::move(package), node, forExecution);
    return Status::ok();
  }
  KernelFactory factory = findKernel(node.typeName);
  if (!factory) return sdk::unsupportedOp("the CPU backend has no kernel for op type '" + node.typeName + "'");
  *out = factory(node.typeName);
  if (!*out) return sdk::unsupportedOp("the CPU backend cannot create op type '" + node.typeName + "'");
  return Status::ok();
}

}  // namespace

bool isPackageOp(const NodeInfo& node) { return node.packageName != sdk::kBuiltinOpPackage; }

bool isPlainActivation(const NodeInfo& node) {
  return !isPackageOp(node) && (node.typeName == "Relu" || node.typeName == "ReluMinMax");
}

bool spansNodes(const Step& step) {
  return step.folded.size() > 1 || (step.folded.size() == 1 && !isPlainActivation(*step.folded[0])) ||
         !step.epilogue.strided.empty();
}

Status applyEpilogue(Step& step) {
  if (step.epilogue.empty()) return Status::ok();
  Status st = step.kernel->setEpilogue(step.epilogue);
  if (!st.isOk()) return {st.code(), "node '" + step.node->name + "': " + st.message()};
  return Status::ok();
}

// Op packages see float data for fixed-point tensors: the CPU op package
// interface carries no quantization parameters.
bool needsFloatEmulation(const NodeInfo& node, const std::vector<const TensorInfo*>& ins,
                         const std::vector<const TensorInfo*>& outs) {
  if (!isPackageOp(node) && handlesFixedPointItself(node.typeName)) return false;
  for (auto* t : ins)
    if (t && sdk::dtypeIsFixedPoint(t->dtype) && t->dtype != DType::kSFixed32) return true;
  for (auto* t : outs)
    if (sdk::dtypeIsFixedPoint(t->dtype)) return true;
  return false;
}

std::vector<TensorView> viewsOf(const std::vector<const TensorInfo*>& tensors, bool floatEmulation) {
  std::vector<TensorView> views;
  for (auto* t : tensors) views.push_back(viewOf(*t, floatEmulation));
  return views;
}

Status makeKernel(const NodeInfo& node, const sdk::OpPackageSet* packages, bool forExecution,
                  const std::vector<TensorView>& inViews, const std::vector<TensorView>& outViews,
                  std::unique_ptr<Kernel>* out) {
  std::unique_ptr<Kernel> kernel;
  QNN_SDK_RETURN_IF_ERROR(createKernel(node, packages, forExecution, &kernel));
  Status st = kernel->init(node.params);
  if (!st.isOk()) return {st.code(), "node '" + node.name + "': " + st.message()};
  st = kernel->prepare(inViews, outViews);
  if (!st.isOk()) return {st.code(), "node '" + node.name + "': " + st.message()};
  *out = std::move(kernel);
  return Status::ok();
}

Status StepBuilder::build(const NodeInfo& node, std::unique_ptr<Step>* out) const {
  auto step = std::make_unique<Step>();
  step->node = &node;
  std::vector<const TensorInfo*> ins, outs;
  for (uint32_t id : node.inputIds) ins.push_back(ir_.findTensor(id));
  for (uint32_t id : node.outputIds) outs.push_back(ir_.findTensor(id));
  step->floatEmulation = needsFloatEmulation(node, ins, outs);
  step->inIds = node.inputIds;
  step->outIds = node.outputIds;
  step->inViews = viewsOf(ins, step->floatEmulation);
  step->outViews = viewsOf(outs, step->floatEmulation);
  step->inputDequantizedOnce.assign(ins.size(), false);
  if (step->floatEmulation) {
    for (size_t i = 0; i < ins.size(); ++i) {
      const TensorInfo* t = ins[i];
      step->floatIn.emplace_back(sdk::dtypeIsFixedPoint(t->dtype) ? t->numElements() : 0);
      // Static weights are dequantized once here, so the kernel can pack
      // them at prepare like float weights.
      if (t->kind == TensorKind::kStatic && sdk::dtypeIsFixedPoint(t->dtype)) {
        dequantizeToFloat(*t, t->staticData.data(), step->floatIn[i].data());
        step->inViews[i].data = step->floatIn[i].data();
        step->inputDequantizedOnce[i] = true;
      }
    }
    for (auto* t : outs) step->floatOut.emplace_back(sdk::dtypeIsFixedPoint(t->dtype) ? t->numElements() : 0);
  }
  QNN_SDK_RETURN_IF_ERROR(makeKernel(node, packages_, true, step->inViews, step->outViews, &step->kernel));
  *out = std::move(step);
  return Status::ok();
}

Status StepBuilder::rebuild(const Step& step, std::unique_ptr<Step>* out) const {
  std::unique_ptr<Step> fresh;
  QNN_SDK_RETURN_IF_ERROR(build(*step.node, &fresh));
  if (!step.folded.empty()) {  // a folded activation: its output, the clamp
    fresh->folded = step.folded;
    fresh->epilogue = step.epilogue;
    fresh->outIds = step.outIds;
    fresh->outViews[0] = step.outViews[0];
  }
  if (!fresh->kernel->supportsEpilogue(fresh->epilogue))
    return sdk::internalError("node '" + step.node->name + "': its kernel no longer takes the fused activation");
  QNN_SDK_RETURN_IF_ERROR(applyEpilogue(*fresh));
  *out = std::move(fresh);
  return Status::ok();
}

}  // namespace qnn::cpu
