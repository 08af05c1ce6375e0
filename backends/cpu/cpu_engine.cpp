#include "cpu/cpu_engine.h"

#include "cpu/cpu_graph_config.h"
#include "cpu/engine/executor.h"
#include "cpu/engine/fusion_pass.h"
#include "cpu/engine/memory_planner.h"
#include "cpu/engine/step.h"
#include "cpu/kernels/kernel_util.h"

namespace qnn::cpu {
namespace {

// A finalized graph on the CPU: one step per node (engine/step.h), the fusion passes over them
// (engine/fusion_pass.h), the native buffers planned over what remains
// (engine/memory_planner.h), run in order by the executor (engine/executor.h).
class CpuPreparedGraph : public sdk::PreparedGraph {
 public:
  CpuPreparedGraph(const GraphIR& ir, std::shared_ptr<const sdk::OpPackageSet> packages)
      : ir_(ir), packages_(std::move(packages)), builder_(ir_, packages_.get()) {}

  // fuse: run the fusion passes (off while an op debug callback wants every node's own output).
  Status build(bool fuse = true) {
    steps_.clear();
    memory_ = {};
    fused_ = false;
    for (const NodeInfo& node : ir_.nodes) {
      std::unique_ptr<Step> step;
      QNN_SDK_RETURN_IF_ERROR(builder_.build(node, &step));
      steps_.push_back(std::move(step));
    }
    if (fuse && !ir_.afterNode) {
      StepGraph graph(ir_, builder_, steps_);
      for (const FusionPass& pass : fusionPasses()) fused_ = pass.run(graph) > 0 || fused_;
      for (auto& step : steps_) QNN_SDK_RETURN_IF_ERROR(applyEpilogue(*step));
    }
    memory_ = planNativeBuffers(ir_, steps_);
    executor_.reset(ir_, memory_.native);
    executor_.bind(ir_, steps_);
    return Status::ok();
  }

  // Tensor updates: the data and encodings of `ids` from `source`; only the
  // nodes reading or writing them get new kernels (the others keep theirs).
  Status refreshTensors(const GraphIR& source, const std::set<uint32_t>& ids) override {
    // ir_ is the graph object's IR itself (`source`): the updates are in it
    // already, in new buffers; the static pointers and the nodes' views follow.
    (void)source;
    for (uint32_t id : ids)
      if (const TensorInfo* t = ir_.findTensor(id); t && t->kind == TensorKind::kStatic) executor_.setStatic(*t, id);
    // A touched step holding more than its node and an activation (a fused pair, a folded
    // scale) rebuilds the whole plan; the others get a new kernel with the same epilogue.
    auto touched = [&](const Step& step) {
      for (const auto* list : {&step.inIds, &step.outIds, &step.foldedStatics})
        for (uint32_t id : *list)
          if (ids.count(id)) return true;
      return false;
    };
    for (auto& step : steps_)
      if (spansNodes(*step) && touched(*step)) return build();
    for (auto& step : steps_) {
      if (!touched(*step)) continue;
      std::unique_ptr<Step> fresh;
      QNN_SDK_RETURN_IF_ERROR(builder_.rebuild(*step, &fresh));
      step = std::move(fresh);
    }
    executor_.bind(ir_, steps_);
    return Status::ok();
  }

  Status execute(const std::vector<sdk::TensorBinding>& inputs, const std::vector<sdk::TensorBinding>& outputs,
                 const sdk::ExecuteOptions& options, std::vector<sdk::NodeTiming>* timings) override {
    if (fused_ && ir_.afterNode) QNN_SDK_RETURN_IF_ERROR(build(false));  // the callback sees every node's output
    return executor_.run(ir_, steps_, inputs, outputs, options, timings);
  }

 private:
  const GraphIR& ir_;  // owned by the graph object, which outlives this
  std::shared_ptr<const sdk::OpPackageSet> packages_;  // where package ops are resolved at build
  StepBuilder builder_;
  Steps steps_;
  MemoryPlan memory_;
  Executor executor_;
  bool fused_ = false;  // some step holds more than its own node
};

class CpuEngine : public sdk::ExecutionEngine {
 public:
  CpuEngine() { warmUpWorkers(); }

  Status validateNode(const NodeInfo& node, const std::vector<const TensorInfo*>& inputs,
                      const std::vector<const TensorInfo*>& outputs) override {
    std::unique_ptr<Kernel> kernel;
    bool emulate = needsFloatEmulation(node, inputs, outputs);
    return makeKernel(node, packages_.get(), false, viewsOf(inputs, emulate), viewsOf(outputs, emulate), &kernel);
  }

  Status prepare(const GraphIR& graph, std::unique_ptr<sdk::PreparedGraph>* out) override {
    auto prepared = std::make_unique<CpuPreparedGraph>(graph, packages_);
    QNN_SDK_RETURN_IF_ERROR(prepared->build());
    *out = std::move(prepared);
    return Status::ok();
  }

  std::vector<std::string> supportedOps() const override { return supportedOpTypes(); }

  Status applyGraphCustomConfig(const void* custom, GraphIR* graph, bool /*executed*/,
                                sdk::ConfigWarnings* warnings) override {
    return applyCpuGraphCustomConfig(custom, graph, warnings);
  }

  void setOpPackages(std::shared_ptr<const sdk::OpPackageSet> packages) override { packages_ = std::move(packages); }

 private:
  std::shared_ptr<const sdk::OpPackageSet> packages_;  // the backend handle's registered packages
};

}  // namespace

std::unique_ptr<sdk::ExecutionEngine> createCpuEngine() { return std::make_unique<CpuEngine>(); }

}  // namespace qnn::cpu
