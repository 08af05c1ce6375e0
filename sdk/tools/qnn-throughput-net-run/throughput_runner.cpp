#include "tools/qnn-throughput-net-run/throughput_runner.h"

#include <atomic>
#include <chrono>
#include <csignal>
#include <map>
#include <memory>
#include <random>
#include <thread>

#include "tools/common/backend_extensions.h"
#include "tools/common/binary_graphs.h"
#include "tools/common/context_session.h"
#include "tools/common/data_convert.h"
#include "tools/common/input_list.h"
#include "tools/common/input_loader.h"
#include "tools/common/log_level.h"
#include "tools/common/progress.h"
#include "tools/common/raw_file.h"
#include "tools/common/run_config.h"
#include "tools/common/tool_error.h"

namespace qnn::tools::throughput {
namespace {

std::atomic<bool> gStop{false};
std::atomic<uint64_t> gInferencesDone{0};  // over every thread, for the progress line
void onSignal(int) { gStop = true; }

using Clock = std::chrono::steady_clock;

// Per-graph input buffers: random data or the first line of the model's input list.
std::vector<std::vector<uint8_t>> makeInputs(const GraphSpec& g, const ModelEntry& m, bool random, uint32_t seed) {
  std::vector<std::vector<uint8_t>> out;
  if (random) {
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> dist(0.0f, 1.0f);
    for (const auto& t : g.inputs) {
      std::vector<float> f(t.elementCount());
      for (auto& v : f) v = dist(rng);
      out.push_back(t.dataType == QNN_DATATYPE_FLOAT_32 || t.quantized || dataTypeSize(t.dataType) > 0
                        ? floatToNative(f.data(), f.size(), t)
                        : std::vector<uint8_t>(t.byteSize()));
    }
    return out;
  }
  InputList list = readInputList(m.inputPath);
  InputLoader loader(g, list, InputOptions{});
  return loader.load(0);
}

class ThreadWorker {
 public:
  // extension: the thread's backend extension (shared, read-only), or nullptr.
  ThreadWorker(const ThroughputConfig& c, const ThreadEntry& t, const QnnBackend& backend,
               const BackendExtension* extension, uint32_t seed)
      : config_(c), thread_(t), backend_(backend), model_(c.model(t.model)), seed_(seed),
        qnnConfigs_(runConfigOf(c.context(t.context)), extension) {}

  void setup() {
    session_ = std::make_unique<ContextSession>(backend_, nullptr);
    const QnnContext_Config_t** configs = qnnConfigs_.contextConfigs();
    if (model_.loadFromCachedBinary) {
      auto binary = readBinaryFile(model_.path);
      auto specs = binaryGraphSpecs(model_.path, binary, "", backend_.path());
      session_->loadBinary(binary, specs, configs, 0);
    } else {
      session_->createContext(configs);
      session_->composeModels({model_.path}, "QnnModel", qnnConfigs_.graphConfigInfos(), false, nullptr,
                              model_.dlcPath.empty() ? std::vector<std::string>{}
                                                     : std::vector<std::string>{model_.dlcPath});
      session_->finalizeGraphs();
    }
    inputs_.clear();
    outputs_.clear();
    for (const auto& g : session_->graphs()) {
      inputs_.push_back(makeInputs(g.spec, model_, thread_.useRandomData, seed_));
      std::vector<std::vector<uint8_t>> outs;
      for (const auto& t : g.spec.outputs) outs.emplace_back(t.byteSize());
      outputs_.push_back(std::move(outs));
    }
  }

  // One pass over every graph of the model; returns executions done.
  uint64_t executeAll() {
    uint64_t n = 0;
    auto& graphs = session_->graphs();
    for (size_t gi = 0; gi < graphs.size(); ++gi) {
      auto& g = graphs[gi];
      if (thread_.loadInputDataInLoop && !thread_.useRandomData) inputs_[gi] = makeInputs(g.spec, model_, false, seed_);
      std::vector<Qnn_Tensor_t> in, out;
      for (size_t i = 0; i < g.spec.inputs.size(); ++i)
        in.push_back(makeClientTensor(g.spec.inputs[i], inputs_[gi][i].data(), static_cast<uint32_t>(inputs_[gi][i].size())));
      for (size_t k = 0; k < g.spec.outputs.size(); ++k)
        out.push_back(makeClientTensor(g.spec.outputs[k], outputs_[gi][k].data(), static_cast<uint32_t>(outputs_[gi][k].size())));
      backend_.check(backend_.api().graphExecute(g.handle, in.data(), static_cast<uint32_t>(in.size()), out.data(),
                                                 static_cast<uint32_t>(out.size()), nullptr, nullptr),
                     "QnnGraph_execute of graph '" + g.spec.name + "' (thread " + thread_.name + ")");
      ++n;
      if (thread_.intervalUs > 0) std::this_thread::sleep_for(std::chrono::microseconds(thread_.intervalUs));
    }
    return n;
  }

  void run(ThreadResult& result) {
    try {
      setup();
      result.graphs = session_->graphs().size();
      const auto begin = Clock::now();
      for (int64_t it = 0; (config_.iteration < 0 || it < config_.iteration) && !gStop; ++it) {
        if (it > 0 && thread_.initModelInLoop) setup();
        const auto loopStart = Clock::now();
        for (int64_t k = 0; !gStop; ++k) {
          if (thread_.loopInSeconds) {
            if (std::chrono::duration<double>(Clock::now() - loopStart).count() >= static_cast<double>(thread_.loop)) break;
          } else if (k >= thread_.loop) {
            break;
          }
          const uint64_t n = executeAll();
          result.inferences += n;
          gInferencesDone += n;
        }
      }
      result.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
      session_.reset();
    } catch (const std::exception& e) {
      result.error = e.what();
    }
  }

 private:
  static RunConfig runConfigOf(const ContextEntry& ctx) {
    RunConfig rc;
    rc.contextPriority = ctx.priority;
    return rc;
  }

  const ThroughputConfig& config_;
  const ThreadEntry& thread_;
  const QnnBackend& backend_;
  const ModelEntry& model_;
  uint32_t seed_;
  QnnConfigLists qnnConfigs_;
  std::unique_ptr<ContextSession> session_;
  std::vector<std::vector<std::vector<uint8_t>>> inputs_, outputs_;
};

}  // namespace

ThroughputReport runThroughput(const ThroughputConfig& config, bool quiet) {
  QnnLog_Level_t level = static_cast<QnnLog_Level_t>(0);
  if (!config.logLevel.empty()) level = parseLogLevel(config.logLevel);
  // One extension per (library, backendConfig) pair, shared by the threads that
  // use it; declared first so it outlives the backends that borrow its configs.
  std::map<std::pair<std::string, std::string>, std::unique_ptr<BackendExtension>> extensions;
  std::vector<const BackendExtension*> threadExtension(config.threads.size(), nullptr);
  // The backend's device is shared by its threads: one backendConfig may set it.
  std::map<std::string, std::pair<std::string, const BackendExtension*>> deviceSource;
  for (size_t i = 0; i < config.threads.size(); ++i) {
    const ThreadEntry& t = config.threads[i];
    const BackendEntry& b = config.backend(t.backend);
    if (b.extensionPath.empty()) continue;
    auto& ext = extensions[{b.extensionPath, t.backendConfig}];
    if (!ext) {
      ext = std::make_unique<BackendExtension>();
      ext->load(b.extensionPath, t.backendConfig, b.path, "qnn-throughput-net-run");
    }
    threadExtension[i] = ext.get();
    if (!ext->deviceConfigs()) continue;
    auto [it, fresh] = deviceSource.emplace(t.backend, std::make_pair(t.backendConfig, ext.get()));
    if (!fresh && it->second.first != t.backendConfig)
      throw ToolError("threads[" + t.name + "]: backendConfig '" + t.backendConfig + "' and '" + it->second.first +
                      "' both set devices for backend '" + t.backend + "', whose device the threads share");
  }
  // One loaded backend per backends[] entry, shared by the threads that name it.
  std::map<std::string, std::unique_ptr<QnnBackend>> backends;
  for (const auto& t : config.threads) {
    if (backends.count(t.backend)) continue;
    const BackendEntry& b = config.backend(t.backend);
    auto loaded = std::make_unique<QnnBackend>();
    auto device = deviceSource.find(t.backend);
    loaded->load(b.path, level, device == deviceSource.end() ? nullptr : device->second.second->deviceConfigs());
    backends[t.backend] = std::move(loaded);
  }
  ThroughputReport report;
  report.threads.resize(config.threads.size());
  std::vector<std::unique_ptr<ThreadWorker>> workers;
  for (size_t i = 0; i < config.threads.size(); ++i) {
    const ThreadEntry& t = config.threads[i];
    report.threads[i].threadName = t.name;
    report.threads[i].backend = t.backend;
    report.threads[i].model = t.model;
    workers.push_back(std::make_unique<ThreadWorker>(config, t, *backends[t.backend], threadExtension[i],
                                                     static_cast<uint32_t>(i + 1)));
  }
  gStop = false;
  auto previousInt = std::signal(SIGINT, onSignal);
  const auto begin = Clock::now();
  std::vector<std::thread> threads;
  std::atomic<size_t> finished{0};
  gInferencesDone = 0;
  for (size_t i = 0; i < workers.size(); ++i)
    threads.emplace_back([&, i] {
      workers[i]->run(report.threads[i]);
      ++finished;
    });
  {
    Progress progress("qnn-throughput-net-run: inferences", 0, progressWanted(quiet));
    while (finished < workers.size()) {
      progress.update(size_t(gInferencesDone.load()));
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
  }
  for (auto& th : threads) th.join();
  report.totalSeconds = std::chrono::duration<double>(Clock::now() - begin).count();
  std::signal(SIGINT, previousInt);
  workers.clear();
  for (const auto& r : report.threads) {
    if (!r.error.empty()) throw ToolError("thread '" + r.threadName + "': " + r.error);
    report.totalInferences += r.inferences;
  }
  return report;
}

}  // namespace qnn::tools::throughput
