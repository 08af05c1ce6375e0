// One step of a prepared CPU graph: the kernel of one node, or of several nodes the fusion
// passes folded into one, with its tensors' ids, views and float-emulation scratch; and how a
// node becomes a step (create, init and prepare its kernel).
#pragma once

#include <memory>
#include <vector>

#include "graph/graph_ir.h"
#include "cpu/kernels/kernel.h"
#include "runtime/op_package_registry.h"

namespace qnn::cpu {

using sdk::GraphIR;
using sdk::NodeInfo;
using sdk::TensorInfo;
using sdk::TensorKind;

struct Step {
  const NodeInfo* node = nullptr;
  // The nodes the fusion passes folded into this step, in the order they were folded (profiles
  // list them after the step's node, with no time of their own).
  std::vector<const NodeInfo*> folded;
  // The work they add to the node's kernel, as the passes agreed it with the kernel
  // (OpKernel::supportsEpilogue); set on the kernel once the passes are done (applyEpilogue).
  // A step whose kernel was made for the fused pair (pointwise -> depthwise) keeps it empty.
  sdk::Epilogue epilogue;
  // Static tensors the folded work read at prepare beyond inIds (a folded scale): an update to
  // one rebuilds the plan.
  std::vector<uint32_t> foldedStatics;
  std::unique_ptr<Kernel> kernel;
  std::vector<uint32_t> inIds, outIds;
  // Bytes out[0]'s buffer takes when more than its tensor's (a padded row pitch agreed with its
  // reader, engine/pad_row_pitch.cpp); 0: the tensor's own size.
  size_t outBytes = 0;
  std::vector<TensorView> inViews, outViews;  // data pointers refreshed per execute
  // Resolved once per plan (Executor::bind): each tensor's info and its entry in
  // the pointer table, so execute does no map lookups between kernels.
  std::vector<const TensorInfo*> inInfos, outInfos;
  std::vector<void**> inSlots, outSlots;
  bool floatEmulation = false;
  std::vector<std::vector<float>> floatIn, floatOut;  // scratch for emulation
  std::vector<bool> inputDequantizedOnce;             // static fixed-point inputs, done at build
};

using Steps = std::vector<std::unique_ptr<Step>>;

// A Relu or ReluMinMax of the built-in package (what a clamp can stand for).
bool isPlainActivation(const NodeInfo& node);
// Whether `step` holds more than its node and a folded activation, or addresses an operand through
// strides (a layout agreed with another step): a tensor update touching it rebuilds the whole plan.
bool spansNodes(const Step& step);
// Sets step.epilogue on its kernel (OpKernel::setEpilogue), when not empty.
Status applyEpilogue(Step& step);

// A node of a registered op package (not of the built-in package).
bool isPackageOp(const NodeInfo& node);

// Whether the node runs its float kernel on dequantized data (fixed-point tensors
// and an op that does not handle fixed point itself, or any package op).
bool needsFloatEmulation(const NodeInfo& node, const std::vector<const TensorInfo*>& ins,
                         const std::vector<const TensorInfo*>& outs);

// The kernel's views of tensors (FLOAT_32 for fixed-point ones under emulation;
// static data set unless it is quantized bytes under emulation).
std::vector<TensorView> viewsOf(const std::vector<const TensorInfo*>& tensors, bool floatEmulation);

// Creates, initializes and prepares the kernel of one node. forExecution: a
// package op's implementation is created (not only validated).
Status makeKernel(const NodeInfo& node, const sdk::OpPackageSet* packages, bool forExecution,
                  const std::vector<TensorView>& inViews, const std::vector<TensorView>& outViews,
                  std::unique_ptr<Kernel>* out);

// Builds the steps of one graph's nodes.
class StepBuilder {
 public:
  StepBuilder(const GraphIR& ir, const sdk::OpPackageSet* packages) : ir_(ir), packages_(packages) {}
  // The views, emulation scratch and prepared kernel of one node.
  Status build(const NodeInfo& node, std::unique_ptr<Step>* out) const;
  // A new kernel for a step that holds its node and at most a folded activation (after a tensor
  // update): the node's kernel prepared again, the same epilogue set on it.
  Status rebuild(const Step& step, std::unique_ptr<Step>* out) const;

 private:
  const GraphIR& ir_;
  const sdk::OpPackageSet* packages_;
};

}  // namespace qnn::cpu
