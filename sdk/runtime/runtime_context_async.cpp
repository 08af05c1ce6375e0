// QnnContext_createFromBinaryListAsync, createFromBinaryWithCallback (the
// weights region through the client's callback: binary_data_callback.h) and
// QnnContext_finalize. The list is
// checked whole on the caller's thread; each binary then loads on a worker
// thread of the backend handle (the call returns when all have ended), and
// the client hears of each graph
// (QNN_CONTEXT_NOTIFY_TYPE_GRAPH_INIT) and then of its context
// (QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT, with the load's status) through the
// notify function (QnnContext.h). The signal is in use until the last load
// ends; a trigger or its timeout stops the loads still running.
#include <condition_variable>
#include <mutex>
#include <thread>

#include "runtime/binary_data_callback.h"
#include "runtime/context_configs.h"
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {

struct LoadJob {
  std::vector<const QnnContext_Config_t*> configs;  // the context's, then the list's (later wins); null-terminated
  const void* buffer = nullptr;
  Qnn_ContextBinarySize_t size = 0;
  Qnn_ProfileHandle_t profile = nullptr;
  QnnContext_createFromBinaryNotifyFn_t notify = nullptr;
  void* notifyParam = nullptr;
  // ParamsV2's binary data callback, copied: the client's struct may be gone
  // before the load runs.
  bool hasDataCallback = false;
  Qnn_ContextBinaryCallback_t dataCallback{};
};


// Counts the loads of one call down to zero.
class Latch {
 public:
  explicit Latch(size_t n) : left_(n) {}
  void countDown() {
    std::lock_guard<std::mutex> lock(m_);
    if (left_ && --left_ == 0) cv_.notify_all();
  }
  void wait() {
    std::unique_lock<std::mutex> lock(m_);
    cv_.wait(lock, [&] { return left_ == 0; });
  }

 private:
  std::mutex m_;
  std::condition_variable cv_;
  size_t left_;
};

Status readParams(const QnnContext_Params_t& p, size_t index, const QnnContext_Config_t** listConfig, LoadJob* job) {
  const std::string what = "contextParams[" + std::to_string(index) + "]";
  const QnnContext_Config_t** config = nullptr;
  if (p.version == QNN_CONTEXT_PARAMS_VERSION_1) {
    config = p.v1.config;
    job->buffer = p.v1.binaryBuffer;
    job->size = p.v1.binaryBufferSize;
    job->profile = p.v1.profile;
    job->notify = p.v1.notifyFunc;
    job->notifyParam = p.v1.notifyParam;
  } else if (p.version == QNN_CONTEXT_PARAMS_VERSION_2) {
    if (!p.v2) return invalidArgument(what + ": v2 is null");
    if (p.v2->callback) {
      QNN_SDK_RETURN_IF_ERROR(checkDataCallback(p.v2->callback));
      job->hasDataCallback = true;
      job->dataCallback = *p.v2->callback;
    }
    config = p.v2->config;
    job->buffer = p.v2->binaryBuffer;
    job->size = p.v2->binaryBufferSize;
    job->profile = p.v2->profile;
    job->notify = p.v2->notifyFunc;
    job->notifyParam = p.v2->notifyParam;
  } else {
    return invalidArgument(what + ": unknown version " + std::to_string(p.version));
  }
  if (!job->buffer || job->size == 0) return invalidArgument(what + ": no binary");
  if (!job->notify) return invalidArgument(what + ": notifyFunc is null");
  for (size_t i = 0; config && config[i]; ++i) job->configs.push_back(config[i]);
  for (size_t i = 0; listConfig && listConfig[i]; ++i) job->configs.push_back(listConfig[i]);
  job->configs.push_back(nullptr);
  return Status::ok();
}

}  // namespace

Qnn_ErrorHandle_t Runtime::contextCreateFromBinaryListAsync(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                            const QnnContext_Params_t** contextParams,
                                                            const QnnContext_Config_t** listConfig,
                                                            Qnn_SignalHandle_t signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    const char* api = "QnnContext_createFromBinaryListAsync";
    auto b = handles().get<BackendObject>(backend, HandleKind::kBackend);
    if (!b) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(b);
    if (device && !handles().get<DeviceObject>(device, HandleKind::kDevice)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    std::shared_ptr<SignalObject> sig;
    if (!lookupOptional(signal, HandleKind::kSignal, &sig)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!contextParams || !contextParams[0])
      return fail(log, ApiGroup::kContext, api, invalidArgument("contextParams is empty"));
    std::vector<LoadJob> jobs;
    for (size_t i = 0; contextParams[i]; ++i) {
      LoadJob job;
      Status st = readParams(*contextParams[i], i, listConfig, &job);
      if (st.code() == StatusCode::kNotSupported) {
        logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": " + st.message());
        return QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE;
      }
      if (!st.isOk()) return fail(log, ApiGroup::kContext, api, st);
      if (job.profile && !handles().get<ProfileObject>(job.profile, HandleKind::kProfile))
        return QNN_CONTEXT_ERROR_INVALID_HANDLE;
      BackendSettings scratch;
      st = checkContextConfig(job.configs.data(), desc_.hooks.get(), &scratch);
      if (!st.isOk()) {
        logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": contextParams[" + std::to_string(i) + "]: " + st.message());
        return configErrorCode(st);
      }
      jobs.push_back(std::move(job));
    }
    // In use "for the duration of the call including the asynchronous deserialization".
    if (sig && !sig->acquire()) return QNN_SIGNAL_ERROR_SIGNAL_IN_USE;
    auto remaining = std::make_shared<std::atomic<size_t>>(jobs.size());
    auto ended = std::make_shared<Latch>(jobs.size());
    const uint64_t begun = nowMicros();
    std::unique_lock<std::mutex> lock(b->mutex);
    size_t started = 0;
    for (LoadJob& job : jobs) {
      // A worker that cannot start: the loads started end, the others are not made.
      auto cannotStart = [&] {
        const size_t notStarted = jobs.size() - started;
        for (size_t k = 0; k < notStarted; ++k) ended->countDown();
        if (remaining->fetch_sub(notStarted) == notStarted && sig) sig->release();
        lock.unlock();
        ended->wait();
        logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": cannot start a loader thread");
        return QNN_COMMON_ERROR_RESOURCE_UNAVAILABLE;
      };
      try {
        b->loaders.emplace_back([this, backend, device, job = std::move(job), sig, remaining, ended, begun]() {
          struct CountDown {
            Latch& latch;
            ~CountDown() { latch.countDown(); }
          } countDown{*ended};
          Qnn_ContextHandle_t context = nullptr;
          std::vector<std::pair<std::string, void*>> graphs;
          Qnn_ErrorHandle_t rc = guarded("contextCreateFromBinaryListAsync", [&] {
            return loadContextBinary(backend, device, const_cast<const QnnContext_Config_t**>(job.configs.data()),
                                     job.buffer, job.size, &context, job.profile, sig.get(), begun, &graphs,
                                     job.hasDataCallback ? &job.dataCallback : nullptr);
          });
          // The load is over: the signal is free again before the client hears of it.
          if (remaining->fetch_sub(1) == 1 && sig) sig->release();
          if (rc == QNN_SUCCESS) {
            for (auto& [name, graph] : graphs)
              job.notify(context, graph, name.c_str(), QNN_CONTEXT_NOTIFY_TYPE_GRAPH_INIT, job.notifyParam, QNN_SUCCESS);
            job.notify(context, nullptr, nullptr, QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT, job.notifyParam, QNN_SUCCESS);
          } else {
            job.notify(nullptr, nullptr, nullptr, QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT, job.notifyParam, rc);
          }
        });
      } catch (...) {  // std::system_error (no thread), std::bad_alloc
        return cannotStart();
      }
      ++started;
    }
    lock.unlock();
    // The binaries load in parallel, and the call returns when every load has
    // ended and been notified: clients free the binaries, params and configs
    // right after the call (ONNX Runtime's QNN EP keeps them in locals), and
    // read the contexts their notifications recorded.
    ended->wait();
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextFinalize(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    std::shared_ptr<ProfileObject> prof;
    if (!lookupOptional(profile, HandleKind::kProfile, &prof)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(ctx->backend);
    std::vector<void*> graphs;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      for (auto& [name, handle] : ctx->graphsByName) graphs.push_back(handle);
    }
    uint64_t start = nowMicros();
    size_t initialized = 0;
    for (void* handle : graphs) {
      auto g = handles().get<GraphObject>(handle, HandleKind::kGraph);
      if (!g) continue;
      std::lock_guard<std::mutex> lock(g->mutex);
      initialized += g->deferredInit != nullptr;
      Status st = initializeGraph(*g);
      if (!st.isOk()) {
        logMessage(log, QNN_LOG_LEVEL_ERROR,
                   "QnnContext_finalize: initializing graph '" + g->ir.name + "' failed: " + st.message());
        return st.code() == StatusCode::kInvalidArgument ? QNN_CONTEXT_ERROR_BINARY_CONFIGURATION
                                                         : QNN_CONTEXT_ERROR_CREATE_FROM_BINARY;
      }
    }
    if (prof)
      prof->addEvent(0, QNN_PROFILE_EVENTTYPE_INIT, QNN_PROFILE_EVENTUNIT_MICROSEC, nowMicros() - start,
                     "context finalize (" + std::to_string(initialized) + " deferred graph(s))");
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextCreateFromBinaryWithCallback(Qnn_BackendHandle_t backend, Qnn_DeviceHandle_t device,
                                                               const QnnContext_Config_t** config,
                                                               const Qnn_ContextBinaryCallback_t* callback,
                                                               const void* buffer, Qnn_ContextBinarySize_t size,
                                                               Qnn_ContextHandle_t* context, Qnn_ProfileHandle_t profile,
                                                               Qnn_SignalHandle_t signal) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    if (!handles().get<BackendObject>(backend, HandleKind::kBackend)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (Status st = checkDataCallback(callback); !st.isOk()) {
      logMessage(anyLogger().get(), QNN_LOG_LEVEL_ERROR, "QnnContext_createFromBinaryWithCallback: " + st.message());
      return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    }
    return createFromBinaryHoldingSignal(backend, device, config, buffer, size, context, profile, signal, callback);
  });
}

}  // namespace qnn::sdk
