#include "htp_sim/htp_engine.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "HTP/QnnHtpProfile.h"
#include "QnnProfile.h"
#include "QnnTypes.h"
#include "context_binary/context_binary.h"
#include "htp_sim/kernels/htp_kernel.h"
#include "htp_sim/htp_passes.h"
#include "htp_sim/htp_perf_infra.h"
#include "htp_sim/htp_prepared_format.h"
#include "htp_sim/htp_blockwise.h"
#include "htp_sim/htp_support.h"
#include "quant/fixed_point.h"

namespace qnn::htp {
namespace {

using sdk::GraphIR;
using sdk::NodeInfo;
using sdk::Status;
using sdk::TensorInfo;
using sdk::TensorKind;

uint64_t microsSince(std::chrono::steady_clock::time_point start) {
  return static_cast<uint64_t>(
      std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count());
}

// The simulated DSP subsystem of one backend handle. A restart (forced after
// QNN_HTP_SIM_FAIL_AFTER_EXECUTES executes, for tests) invalidates every graph
// prepared before it: their executes fail until the client frees the context
// and creates it again, as after a real subsystem restart.
class Subsystem {
 public:
  Subsystem() {
    if (const char* env = std::getenv("QNN_HTP_SIM_FAIL_AFTER_EXECUTES")) failAfter_ = std::strtoull(env, nullptr, 10);
  }
  uint64_t epoch() const { return epoch_.load(); }
  // Called before each execute of a graph prepared in `graphEpoch`.
  Status beginExecute(uint64_t graphEpoch) {
    std::lock_guard<std::mutex> lock(mutex_);
    if (graphEpoch != epoch_)
      return {sdk::StatusCode::kSubsystemRestart,
              "the HTP subsystem restarted since this graph was loaded; free the context and create it again"};
    if (failAfter_ && ++executes_ > failAfter_) {
      executes_ = 0;
      ++epoch_;
      return {sdk::StatusCode::kSubsystemRestart,
              "the HTP subsystem restarted (simulated by QNN_HTP_SIM_FAIL_AFTER_EXECUTES); free the context and "
              "create it again"};
    }
    return Status::ok();
  }

 private:
  std::mutex mutex_;
  std::atomic<uint64_t> epoch_{0};
  uint64_t executes_ = 0;
  uint64_t failAfter_ = 0;
};

sdk::TensorView viewOf(const TensorInfo& t) {
  sdk::TensorView v;
  v.dtype = t.dtype;
  v.dims = t.dims;
  v.quant = t.quant;
  if (t.kind == TensorKind::kStatic) v.data = const_cast<uint8_t*>(t.staticData.data());
  return v;
}

// plan (may be null): the node's plan, whose fused activation (plan->clamp) goes to the kernel as
// its Epilogue, set between init and prepare (the HTP's point, core/op_kernel.h); *kernelClamps
// tells whether the kernel took it (else the engine clamps after execute).
// fp16Floats: the graph computes float tensors in fp16 (else fp32); saturateFp16: FP16_CLAMP_OVERFLOW.
Status makeKernel(const NodeInfo& node, const std::vector<sdk::TensorView>& ins,
                  const std::vector<sdk::TensorView>& outs, std::unique_ptr<Kernel>* out, bool fp16Floats = true,
                  const NodePlan* plan = nullptr, const TensorInfo* clampTensor = nullptr,
                  bool* kernelClamps = nullptr, bool saturateFp16 = false) {
  KernelFactory factory = findKernel(node.typeName);
  std::unique_ptr<Kernel> k = factory ? factory(node.typeName) : nullptr;
  if (!k)
    return sdk::unsupportedOp("node '" + node.name + "': the HTP simulator has no kernel for op " + node.typeName +
                              " yet");
  Status st = k->init(node.params);
  sdk::NumericMode mode;
  mode.fp16Floats = fp16Floats;
  mode.saturateFp16Overflow = saturateFp16;
  k->setNumericMode(mode);
  if (kernelClamps) *kernelClamps = false;
  if (st.isOk() && plan && clampTensor && kernelClamps) {
    const sdk::Epilogue epilogue = fusedEpilogue(*plan, *clampTensor);
    if (!epilogue.empty() && k->supportsEpilogue(epilogue)) {
      st = k->setEpilogue(epilogue);
      *kernelClamps = st.isOk();
    }
  }
  if (st.isOk()) st = k->prepare(ins, outs);
  if (!st.isOk()) return {st.code(), "node '" + node.name + "' (op " + node.typeName + "): " + st.message()};
  *out = std::move(k);
  return Status::ok();
}

template <typename T>
void clampAll(void* data, size_t n, int32_t lo, int32_t hi) {
  T* p = static_cast<T*>(data);
  for (size_t i = 0; i < n; ++i) p[i] = static_cast<T>(std::min<int32_t>(std::max<int32_t>(p[i], lo), hi));
}

void applyClamp(const FusedClamp& c, const TensorInfo& t, void* data) {
  size_t n = t.numElements();
  switch (t.dtype) {
    case sdk::DType::kUFixed8: clampAll<uint8_t>(data, n, c.lo, c.hi); break;
    case sdk::DType::kSFixed8: clampAll<int8_t>(data, n, c.lo, c.hi); break;
    case sdk::DType::kUFixed16: clampAll<uint16_t>(data, n, c.lo, c.hi); break;
    case sdk::DType::kSFixed16: clampAll<int16_t>(data, n, c.lo, c.hi); break;
    default: break;
  }
}

struct Step {
  const NodeInfo* node = nullptr;
  const NodePlan* plan = nullptr;
  std::unique_ptr<Kernel> kernel;
  std::vector<sdk::TensorView> ins, outs;
  bool kernelClamps = false;  // the kernel applies plan->clamp itself
  // Pointer slots of the inputs (-1: static or null, the view keeps its pointer) and outputs.
  std::vector<int> inSlots, outSlots;
  // The output is in[0]'s bytes unchanged (Reshape ...) and a native tensor: it reads
  // in[0]'s buffer instead of a copy.
  bool aliasesInput = false;
  void* aliasStatic = nullptr;  // aliasesInput with a static in[0]: its data
};

class HtpPreparedGraph : public sdk::PreparedGraph {
 public:
  HtpPreparedGraph(PreparedPlan plan, GraphOptions options, std::shared_ptr<Subsystem> subsystem, bool restored,
                   uint64_t prepareMicros)
      : plan_(std::move(plan)),
        options_(options),
        subsystem_(std::move(subsystem)),
        epoch_(subsystem_->epoch()),
        restored_(restored),
        prepareMicros_(prepareMicros) {}

  Status build() {
    const GraphIR& g = plan_.graph;
    if (plan_.plans.size() != g.nodes.size()) return sdk::corruptData("prepared HTP graph: plan and nodes differ");
    for (auto& [id, t] : g.tensors) {
      if (t.kind == TensorKind::kNative) buffers_[id].resize(std::max<size_t>(1, t.byteSize()));
      slotOf_[id] = int(baseSlots_.size());
      baseSlots_.push_back(t.kind == TensorKind::kNative ? buffers_[id].data() : nullptr);
    }
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      auto s = std::make_unique<Step>();
      s->node = &g.nodes[i];
      s->plan = &plan_.plans[i];
      for (uint32_t id : s->node->inputIds) {
        const TensorInfo* t = g.findTensor(id);
        if (!t) return sdk::corruptData("prepared HTP graph: node '" + s->node->name + "' reads an unknown tensor");
        s->ins.push_back(viewOf(*t));
      }
      for (uint32_t id : s->node->outputIds) {
        const TensorInfo* t = g.findTensor(id);
        if (!t) return sdk::corruptData("prepared HTP graph: node '" + s->node->name + "' writes an unknown tensor");
        s->outs.push_back(viewOf(*t));
      }
      const TensorInfo* out0 = s->node->outputIds.empty() ? nullptr : g.findTensor(s->node->outputIds[0]);
      QNN_SDK_RETURN_IF_ERROR(
          makeKernel(*s->node, s->ins, s->outs, &s->kernel, options_.fp16, s->plan, out0, &s->kernelClamps,
                     options_.fp16ClampOverflow));
      for (uint32_t id : s->node->inputIds) {
        const TensorInfo* t = g.findTensor(id);
        s->inSlots.push_back(t->kind != TensorKind::kStatic && t->kind != TensorKind::kNull ? slotOf_[id] : -1);
      }
      for (uint32_t id : s->node->outputIds) s->outSlots.push_back(slotOf_[id]);
      s->aliasesInput = s->kernel->outputIsInputCopy() && out0 && out0->kind == TensorKind::kNative &&
                        !s->plan->clamp.active && !s->ins.empty() && s->outs.size() == 1;
      if (s->aliasesInput && s->inSlots[0] < 0) {  // a static input: its data is the output
        s->aliasStatic = s->ins[0].data;
      }
      steps_.push_back(std::move(s));
    }
    return Status::ok();
  }

  Status execute(const std::vector<sdk::TensorBinding>& inputs, const std::vector<sdk::TensorBinding>& outputs,
                 const sdk::ExecuteOptions& options, std::vector<sdk::NodeTiming>* timings) override {
    QNN_SDK_RETURN_IF_ERROR(subsystem_->beginExecute(epoch_));
    auto start = std::chrono::steady_clock::now();
    slots_ = baseSlots_;
    for (const auto* bindings : {&inputs, &outputs})
      for (auto& b : *bindings) {
        auto it = slotOf_.find(b.tensorId);
        if (it != slotOf_.end()) slots_[size_t(it->second)] = b.data;
      }
    uint64_t cycles = 0;
    // Op trace: the nodes on the accelerator's timeline, one after another from the start of the
    // execute, each as long as its estimated cycles at the current clock.
    const uint64_t traceBase = sdk::NodeTiming::steadyMicros(start);
    const uint32_t traceMHz = std::max<uint32_t>(1, currentPowerState().clockMHz);
    for (auto& s : steps_) {
      if (options.checkCancel) QNN_SDK_RETURN_IF_ERROR(options.checkCancel());
      // The clock only when node timings are collected (it costs as much as a small node).
      const auto nodeStart = options.collectNodeTimings && timings ? std::chrono::steady_clock::now()
                                                                   : std::chrono::steady_clock::time_point{};
      for (size_t i = 0; i < s->ins.size(); ++i)
        if (s->inSlots[i] >= 0) s->ins[i].data = slots_[size_t(s->inSlots[i])];
      if (s->aliasesInput) {
        void* in0 = s->inSlots[0] >= 0 ? s->ins[0].data : s->aliasStatic;
        slots_[size_t(s->outSlots[0])] = in0;
        s->outs[0].data = in0;
      } else {
        for (size_t i = 0; i < s->outs.size(); ++i) s->outs[i].data = slots_[size_t(s->outSlots[i])];
        QNN_SDK_RETURN_IF_ERROR(s->kernel->execute(s->ins, s->outs));
      }
      if (s->plan->clamp.active && !s->kernelClamps)
        applyClamp(s->plan->clamp, *plan_.graph.findTensor(s->node->outputIds[0]), s->outs[0].data);
      if (options.opTrace && options.graphEvents)
        options.graphEvents->push_back({QNN_PROFILE_EVENTTYPE_TRACE, QNN_PROFILE_EVENTUNIT_CYCLES, s->plan->cycles,
                                        s->node->name + " (" + s->node->typeName + "): op trace, estimated HTP cycles",
                                        traceBase + cycles / traceMHz});
      cycles += s->plan->cycles;
      if (options.collectNodeTimings && timings) {
        sdk::NodeTiming t{s->node->name, s->node->typeName, microsSince(nodeStart), {},
                          sdk::NodeTiming::steadyMicros(nodeStart)};
        t.extra.push_back({QNN_PROFILE_EVENTTYPE_NODE, QNN_PROFILE_EVENTUNIT_CYCLES, s->plan->cycles,
                           s->node->name + ": estimated HTP cycles (" + (s->plan->onHmx ? "HMX" : "HVX") + ", " +
                               std::to_string(s->plan->tiles) + (s->plan->tiles == 1 ? " tile, " : " tiles, ") +
                               s->plan->layout +
                               (s->plan->clamp.active ? ", fused " + s->plan->clamp.activation : std::string()) +
                               ")"});
        timings->push_back(std::move(t));
      }
    }
    if (options.graphEvents) addExecuteEvents(cycles, microsSince(start), options.graphEvents);
    return Status::ok();
  }

  // Finalize: the host time of the preparation as the vendor's "RPC (finalize) time", a
  // top-level event before the finalize event; the passes' changes as its sub-events. Of a
  // graph loaded from a context binary: a sub-event of the load saying so.
  void finalizeEvents(std::vector<sdk::ProfileExtraEvent>* events) const override {
    sdk::ProfileExtraEvent prepared{QNN_HTP_PROFILE_EVENTTYPE_GRAPH_FINALIZE_HOST_RPC_TIME_MICROSEC,
                                    QNN_PROFILE_EVENTUNIT_MICROSEC, prepareMicros_, "RPC (finalize) time"};
    if (restored_)
      prepared.identifier = plan_.graph.name + ": prepared graph loaded from the context binary (passes not re-run)";
    else
      prepared.topLevel = true;
    events->push_back(prepared);
    for (const PassRecord& p : plan_.passes)
      events->push_back({QNN_PROFILE_EVENTTYPE_BACKEND, QNN_PROFILE_EVENTUNIT_COUNT, p.changes,
                         "pass " + p.pass + (p.detail.empty() ? std::string() : ": " + p.detail)});
  }

  bool serialize(const GraphIR& source, std::vector<uint8_t>* out) const override {
    return encodePreparedGraph(plan_, options_, source, out).isOk();
  }

  // After tensor updates (LoRA sections): the passes again with this graph's options, also when it was
  // restored from a binary (its options are the binary's; the loading context's settings lack graph.fp16).
  Status prepareAgain(const GraphIR& source, std::unique_ptr<sdk::PreparedGraph>* out) const override {
    return prepareGraph(source, options_, subsystem_, out);
  }

  // The optimization passes over `graph` with `options`, then the kernels.
  static Status prepareGraph(const GraphIR& graph, const GraphOptions& options, std::shared_ptr<Subsystem> subsystem,
                             std::unique_ptr<sdk::PreparedGraph>* out) {
    auto start = std::chrono::steady_clock::now();
    PreparedPlan plan;
    QNN_SDK_RETURN_IF_ERROR(runPasses(graph, options, &plan));
    auto prepared =
        std::make_unique<HtpPreparedGraph>(std::move(plan), options, std::move(subsystem), false, microsSince(start));
    QNN_SDK_RETURN_IF_ERROR(prepared->build());
    *out = std::move(prepared);
    return Status::ok();
  }

  // The HVX thread count may change until the first execution (QnnHtpGraph.h).
  void applySettingsBeforeFirstExecute(const sdk::BackendSettings& settings) override {
    options_.hvxThreads = resolveGraphOptions(settings).hvxThreads;
  }

 private:
  // Execute: top-level events before the execute event, in the vendor HTP's order and with its
  // identifiers (docs/profiling-log-format.md): HVX threads, the host's RPC time (measured: the
  // whole simulated execution), the HTP-side RPC and accelerator times (estimated from the
  // cycles at the voted clock), then the estimated cycles, whose identifier states the setup.
  void addExecuteEvents(uint64_t cycles, uint64_t hostMicros, std::vector<sdk::ProfileExtraEvent>* ev) const {
    PowerState power = currentPowerState();
    uint64_t accelMicros = cycles / std::max<uint32_t>(1, power.clockMHz);
    std::string setup = "HTP V" + std::to_string(options_.arch) + ", " + std::to_string(options_.hvxThreads) +
                        " HVX threads, " + std::to_string(options_.vtcmMB) + " MB VTCM, power mode " + power.mode +
                        " (" + std::to_string(power.clockMHz) + " MHz), RPC control latency " +
                        std::to_string(power.rpcControlLatencyUs) + " us, polling " +
                        std::to_string(power.rpcPollingTimeUs) + " us";
    const size_t first = ev->size();
    ev->push_back({QNN_HTP_PROFILE_EVENTTYPE_GRAPH_NUMBER_OF_HVX_THREADS, QNN_PROFILE_EVENTUNIT_COUNT,
                   options_.hvxThreads, "Number of HVX threads used"});
    ev->push_back({QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_HOST_RPC_TIME_MICROSEC, QNN_PROFILE_EVENTUNIT_MICROSEC,
                   hostMicros, "RPC (execute) time"});
    ev->push_back({QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_HTP_RPC_TIME_MICROSEC, QNN_PROFILE_EVENTUNIT_MICROSEC,
                   accelMicros + power.rpcControlLatencyUs, "QNN accelerator (execute) time"});
    ev->push_back({QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_ACCEL_TIME_MICROSEC, QNN_PROFILE_EVENTUNIT_MICROSEC,
                   accelMicros, "Accelerator (execute) time"});
    ev->push_back({QNN_HTP_PROFILE_EVENTTYPE_GRAPH_EXECUTE_ACCEL_TIME_CYCLE, QNN_PROFILE_EVENTUNIT_CYCLES, cycles,
                   "Accelerator (execute) time (cycles), estimated: " + setup});
    for (size_t i = first; i < ev->size(); ++i) (*ev)[i].topLevel = true;
  }

  PreparedPlan plan_;
  GraphOptions options_;
  std::shared_ptr<Subsystem> subsystem_;
  uint64_t epoch_;
  bool restored_;
  uint64_t prepareMicros_;
  std::map<uint32_t, std::vector<uint8_t>> buffers_;  // native tensors
  // Every tensor's pointer slot: native tensors their buffer, the others null until an
  // execute binds them (slots_: this execute's pointers, aliases included).
  std::map<uint32_t, int> slotOf_;
  std::vector<void*> baseSlots_, slots_;
  std::vector<std::unique_ptr<Step>> steps_;
};

class HtpEngine : public sdk::ExecutionEngine {
 public:
  HtpEngine() : subsystem_(std::make_shared<Subsystem>()) {}

  // The same nodes in a graph as in QnnBackend_validateOpConfig: every architecture takes
  // them, float ones on V68 too (htp_options.cpp).
  Status validateNode(const NodeInfo& node, const std::vector<const TensorInfo*>& inputs,
                      const std::vector<const TensorInfo*>& outputs) override {
    return validate(node, inputs, outputs);
  }

  Status acceptTensor(const TensorInfo& tensor) override { return htpAcceptsTensor(tensor); }

  Status applyGraphCustomConfig(const void* custom, GraphIR* graph, bool executed,
                                sdk::ConfigWarnings* warnings) override {
    return htp::applyGraphCustomConfig(custom, &graph->backendConfig, &graph->precision, executed, warnings);
  }

  Status prepare(const GraphIR& graph, std::unique_ptr<sdk::PreparedGraph>* out) override {
    return HtpPreparedGraph::prepareGraph(graph, resolveGraphOptions(graph.backendConfig), subsystem_, out);
  }

  Status restore(const GraphIR& graph, const uint8_t* data, size_t size,
                 std::unique_ptr<sdk::PreparedGraph>* out) override {
    auto start = std::chrono::steady_clock::now();
    PreparedPlan plan;
    GraphOptions options;
    QNN_SDK_RETURN_IF_ERROR(decodePreparedGraph(data, size, graph, &plan, &options));
    // The loading device must be the architecture the graph was prepared for.
    GraphOptions device = resolveGraphOptions(graph.backendConfig);
    if (graph.backendConfig.count("device.arch") || graph.backendConfig.count("device.soc"))
      if (device.arch != options.arch)
        return sdk::invalidArgument("graph '" + graph.name + "' was prepared for HTP V" + std::to_string(options.arch) +
                                    ", the device is V" + std::to_string(device.arch));
    auto prepared = std::make_unique<HtpPreparedGraph>(std::move(plan), options, subsystem_, true, microsSince(start));
    QNN_SDK_RETURN_IF_ERROR(prepared->build());
    *out = std::move(prepared);
    return Status::ok();
  }

  std::vector<std::string> supportedOps() const override {
    std::vector<std::string> ops;
    for (const std::string& op : htpOpTypes())
      if (findKernel(op)) ops.push_back(op);
    return ops;
  }

 private:
  Status validate(const NodeInfo& node, const std::vector<const TensorInfo*>& givenInputs,
                  const std::vector<const TensorInfo*>& outputs) {
    // Judged as prepare will run it: blockwise weights expanded to per-channel (htp_blockwise.h).
    std::vector<TensorInfo> expanded(givenInputs.size());
    std::vector<const TensorInfo*> inputs(givenInputs);
    for (size_t i = 0; i < inputs.size(); ++i)
      if (inputs[i] && inputs[i]->quant.kind == sdk::QuantInfo::Kind::kBlockwiseExpansion) {
        QNN_SDK_RETURN_IF_ERROR(expandBlockwise(*inputs[i], &expanded[i]));
        inputs[i] = &expanded[i];
      }
    QNN_SDK_RETURN_IF_ERROR(checkHtpSupport(node, inputs, outputs));
    std::vector<sdk::TensorView> ins, outs;
    for (auto* t : inputs) ins.push_back(t ? viewOf(*t) : sdk::TensorView{});
    for (auto* t : outputs) outs.push_back(t ? viewOf(*t) : sdk::TensorView{});
    std::unique_ptr<Kernel> k;
    return makeKernel(node, ins, outs, &k);
  }

  std::shared_ptr<Subsystem> subsystem_;
};

}  // namespace

std::unique_ptr<sdk::ExecutionEngine> createHtpEngine() { return std::make_unique<HtpEngine>(); }

}  // namespace qnn::htp
