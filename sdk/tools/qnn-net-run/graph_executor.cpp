#include "tools/qnn-net-run/graph_executor.h"

#include "QnnSignal.h"
#include "tools/common/output_writer.h"
#include "tools/common/progress.h"
#include "tools/common/tool_error.h"

namespace qnn::tools::netrun {
namespace {

// Owns a timeout signal for the executions of one graph.
class TimeoutSignal {
 public:
  TimeoutSignal(const QnnBackend& backend, uint64_t timeoutUs) : api_(backend.api()) {
    if (timeoutUs == 0) return;
    if (!api_.signalCreate) throw ToolError("backend does not support signals; --timeout cannot be used");
    QnnSignal_Config_t timeout{};
    timeout.option = QNN_SIGNAL_CONFIG_OPTION_TIMEOUT;
    timeout.timeoutDurationUs = timeoutUs;
    const QnnSignal_Config_t* list[] = {&timeout, nullptr};
    backend.check(api_.signalCreate(backend.backend(), list, &signal_), "QnnSignal_create (--timeout)");
  }
  ~TimeoutSignal() {
    if (signal_) api_.signalFree(signal_);
  }
  Qnn_SignalHandle_t get() const { return signal_; }

 private:
  const QNN_INTERFACE_VER_TYPE& api_;
  Qnn_SignalHandle_t signal_ = nullptr;
};

}  // namespace

size_t executeGraph(const QnnBackend& backend, const NetRunOptions& o, GraphRun& run, ProfileCollector& profile) {
  const auto& api = backend.api();
  GraphSpec& spec = run.graph->spec;
  const std::string& name = spec.name;
  TimeoutSignal signal(backend, o.timeoutUs);
  const size_t m = o.batchMultiplier;
  std::vector<std::vector<uint8_t>> outBuf;
  for (const auto& t : spec.outputs) outBuf.emplace_back(t.byteSize() * m);
  std::vector<Qnn_Tensor_t> inputs(spec.inputs.size()), outputs(spec.outputs.size());

  const size_t lines = run.inputs->lineCount();
  const uint64_t runStart = profile.nowUs();
  const bool byDuration = o.durationSeconds >= 0;
  const size_t count = o.numInferences > 0 ? static_cast<size_t>(o.numInferences) : lines;
  int64_t profiled = 0;
  size_t inf = 0;
  Progress progress("qnn-net-run: graph '" + name + "'", byDuration ? 0 : count, progressWanted(o.quiet));
  for (;; ++inf) {
    progress.update(inf);
    if (byDuration) {
      if (inf > 0 && static_cast<double>(profile.nowUs() - runStart) >= o.durationSeconds * 1e6) break;
    } else if (inf >= count) {
      break;
    }
    const auto& in = run.inputs->load(inf % lines);
    for (size_t b = 0; b < m; ++b) {
      for (size_t i = 0; i < inputs.size(); ++i) {
        const size_t bytes = in[i].size() / m;
        inputs[i] = makeClientTensor(spec.inputs[i], const_cast<uint8_t*>(in[i].data()) + b * bytes,
                                     static_cast<uint32_t>(bytes));
      }
      for (size_t k = 0; k < outputs.size(); ++k) {
        const size_t bytes = spec.outputs[k].byteSize();
        outputs[k] = makeClientTensor(spec.outputs[k], outBuf[k].data() + b * bytes, static_cast<uint32_t>(bytes));
      }
      // Graph-level profiling window (--graph_profiling_start_delay / _num_executions).
      const uint64_t start = profile.nowUs();
      bool profileThis = run.profilingStartDelay < 0 ||
                         (static_cast<double>(start - runStart) >= run.profilingStartDelay * 1e6 &&
                          (run.profilingNumExecutions < 0 || profiled < run.profilingNumExecutions));
      Qnn_ProfileHandle_t ph = profileThis ? profile.handle() : nullptr;
      Qnn_ErrorHandle_t st = api.graphExecute(run.graph->handle, inputs.data(), static_cast<uint32_t>(inputs.size()),
                                              outputs.data(), static_cast<uint32_t>(outputs.size()), ph, signal.get());
      const uint64_t elapsed = profile.nowUs() - start;
      backend.check(st, "QnnGraph_execute of graph '" + name + "' (inference " + std::to_string(inf) + ")");
      if (profileThis) {
        ++profiled;
        profile.collect("execute", name, static_cast<int64_t>(inf), start);
        profile.addClientEvent("client: execute", name, static_cast<int64_t>(inf), start, elapsed);
      }
    }
    if (o.keepNumOutputs < 0 || static_cast<int64_t>(inf) < o.keepNumOutputs) {
      std::vector<OutputTensor> written;
      for (size_t k = 0; k < spec.outputs.size(); ++k)
        if (run.writtenOutputs.empty() || run.writtenOutputs.count(spec.outputs[k].name))
          written.push_back({&spec.outputs[k], outBuf[k].data(), m});
      writeInferenceOutputs(o.outputDir, inf, run.outputFolder, written, o.nativeOutputs);
    }
  }
  return inf;
}

}  // namespace qnn::tools::netrun
