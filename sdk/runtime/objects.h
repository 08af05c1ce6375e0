// The objects behind the API's handles. Lifetimes: a backend owns nothing by
// pointer from the client; contexts hold their graphs; a graph holds its IR and,
// once finalized, its prepared form. shared_ptr keeps an object alive while a
// call uses it even if another thread frees its handle meanwhile.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "QnnInterface.h"
#include "core/handle_registry.h"
#include "core/logger.h"
#include "runtime/engine.h"
#include "runtime/op_package_registry.h"
#include "runtime/profile.h"
#include "runtime/tensor_update.h"

namespace qnn::sdk {

class BackendObject : public HandleObject {
 public:
  HandleKind kind() const override { return HandleKind::kBackend; }
  std::shared_ptr<Logger> logger;
  std::unique_ptr<ExecutionEngine> engine;
  std::vector<std::string> opNames;               // storage behind getSupportedOperations
  std::vector<QnnBackend_OperationName_t> opNameEntries;
  std::vector<std::shared_ptr<const OpPackage>> listedOpPackages;  // keep the package/op names listed alive
  std::set<void*> contexts;  // context handles, freed with the backend
  // Workers of QnnContext_createFromBinaryListAsync (guarded by `mutex`); joined
  // by backendFree and at the latest here.
  std::vector<std::thread> loaders;
  ~BackendObject() override {
    for (auto& t : loaders)
      if (t.joinable()) t.get_id() == std::this_thread::get_id() ? t.detach() : t.join();
  }
  // Op packages registered on this handle; shared with the engine, emptied by backendFree.
  std::shared_ptr<OpPackageSet> opPackages = std::make_shared<OpPackageSet>();
  std::mutex mutex;
};

class DeviceObject : public HandleObject {
 public:
  HandleKind kind() const override { return HandleKind::kDevice; }
  std::shared_ptr<Logger> logger;
  BackendSettings settings;                  // from custom device configs
  // Behind QnnDevice_getInfo: every info handed out lives as long as the device;
  // a new one is made only when the settings changed since the last call.
  std::vector<std::unique_ptr<PlatformInfoStorage>> infos;
  BackendSettings infoSettings;
  std::mutex mutex;                          // guards settings/info
};

class MemObject;

class ContextObject;

// A prepared execution environment (QnnGraph_prepareExecutionEnvironment).
struct ExecEnvironment {
  uint32_t option = 0;  // QnnGraph_ExecuteEnvironmentOption_t
  std::vector<uint32_t> tensorIds;
  std::vector<void*> memHandles;                  // BIND_MEM_HANDLES: the handles bound, per tensor
  std::vector<std::unique_ptr<uint8_t[]>> owned;  // POPULATE_CLIENT_BUFS: the backend's buffers, per tensor
};

class GraphObject : public HandleObject {
 public:
  HandleKind kind() const override { return HandleKind::kGraph; }
  enum class State { kBuilding, kFinalized };
  std::weak_ptr<ContextObject> context;
  std::shared_ptr<BackendObject> backend;
  GraphIR ir;
  State state = State::kBuilding;
  std::unique_ptr<PreparedGraph> prepared;
  bool fromBinary = false;  // retrieved from a context binary: finalized already, QnnGraph_finalize is a no-op
  // Loaded from a binary but not initialized yet (QNN_CONTEXT_CONFIG_OPTION_DEFER_GRAPH_INIT):
  // makes `prepared`; run by rt::initializeGraph under `mutex`, then cleared.
  std::function<Status(GraphObject&)> deferredInit;
  std::atomic<bool> executed{false};  // set by the first execute; some configs are fixed from then on
  // The graph's input and output counts, taken under `mutex` by the first
  // execute (a finalized graph gets no new tensors): each execute checks the
  // client's tensor counts against them without walking the IR.
  bool ioCounted = false;
  size_t numInputs = 0, numOutputs = 0;
  // Continuous profiling (QNN_GRAPH_CONFIG_OPTION_PROFILE_HANDLE and the
  // profiling state/count options), guarded by `mutex`: the bound profile takes
  // the finalize and execute events of calls that pass no profile of their own.
  std::shared_ptr<ProfileObject> boundProfile;
  bool profilingEnabled = true;
  uint32_t maxProfiledExecutions = UINT32_MAX;
  uint32_t profiledExecutions = 0;
  ~GraphObject() override {
    if (boundProfile) boundProfile->boundGraph = nullptr;
  }
  std::set<std::string> nodeNames;
  // QnnTensor_update{Graph,Context}Tensors on the finalized graph, applied by
  // the next QnnGraph_finalize (QnnTensor.h); guarded by `mutex`.
  TensorUpdates pendingUpdates;
  // QNN_GRAPH_CONFIG_OPTION_ENABLE_BINARY_SECTION_WEIGHTS_UPDATES: binary
  // sections of this graph stay updatable by QnnContext_getBinarySectionUpdate.
  bool sectionWeightsUpdatable = false;
  // Prepared execution environments, released by releaseExecutionEnvironment
  // or with the graph; guarded by `mutex`.
  std::vector<ExecEnvironment> environments;
  std::mutex mutex;       // guards ir/state while building
  std::mutex execMutex;   // one execution at a time per graph
};

class ContextObject : public HandleObject {
 public:
  HandleKind kind() const override { return HandleKind::kContext; }
  std::shared_ptr<BackendObject> backend;
  std::map<std::string, void*> graphsByName;           // name -> graph handle
  std::map<uint32_t, TensorInfo> contextTensors;
  std::set<std::string> tensorNames;                    // context tensor names
  std::set<void*> memHandles;
  uint32_t nextTensorId = 1;                            // ids are unique within a context
  BackendSettings settings;  // device + context custom settings, copied into each graph's IR
  bool fromBinary = false;   // re-created from a context binary (no binary sections are made from it)
  // QnnContext_getIncrementalBinary: the binary being handed out in pieces, the
  // next piece's offset, and the pieces not yet released (start -> offset).
  std::vector<uint8_t> incremental;
  size_t incrementalNext = 0;
  std::map<const void*, uint64_t> incrementalOut;
  std::mutex mutex;
  // QnnGraph_executeAsync calls on this context's graphs that are queued or
  // running; executeAsync waits on asyncSpace while the queue depth of them are.
  std::mutex asyncMutex;
  std::condition_variable asyncSpace;
  uint32_t asyncPending = 0;
};

class MemObject : public HandleObject {
 public:
  HandleKind kind() const override { return HandleKind::kMem; }
  ~MemObject() override;
  std::weak_ptr<ContextObject> context;
  void* data = nullptr;  // the tensor's first byte (inside the mapping)
  size_t size = 0;              // bytes usable from data on: the shape's, or a shared buffer's rest
  int fd = -1;
  uint64_t offset = 0;          // of data in fd
  void* mapBase = nullptr;      // the mapping, page aligned (munmap'ed with the object)
  size_t mapSize = 0;
  DType dtype = DType::kUndefined;
  std::vector<uint32_t> dims;
};

// One call holds a signal at a time ("in use" for the call's duration, QnnSignal.h), and
// QnnSignal_trigger counts only while a call holds it. Holding, releasing and triggering are each
// one step under the mutex: a trigger that reports success is never lost to a call's start (which
// clears the previous call's trigger) nor left behind after its end for the next call to see.
class SignalObject : public HandleObject {
 public:
  HandleKind kind() const override { return HandleKind::kSignal; }
  bool acquire();  // false: another call holds it
  bool release();  // true: triggered while held
  bool trigger();  // false: idle (no call holds it)
  bool inUse() const;
  bool triggered() const { return triggered_.load(); }
  // What stops a call that began at `begunMicros` (nowMicros()), polled between its steps: a trigger,
  // else an expired timeout.
  enum class Stop { kNone, kAborted, kTimedOut };
  Stop stopFor(uint64_t begunMicros) const;
  uint64_t timeoutUs = 0;  // 0 = none

 private:
  mutable std::mutex mutex_;
  bool inUse_ = false;
  std::atomic<bool> triggered_{false};
};

// Holds a signal (or nothing, for a null one) from a call's start to its end.
class SignalHold {
 public:
  explicit SignalHold(SignalObject* signal)
      : signal_(signal && signal->acquire() ? signal : nullptr), busy_(signal && !signal_) {}
  SignalHold(const SignalHold&) = delete;
  SignalHold& operator=(const SignalHold&) = delete;
  ~SignalHold() { release(); }
  bool busy() const { return busy_; }  // another call holds the signal: this call must not start
  // Ends the hold early; true when the signal was triggered during it.
  bool release() {
    SignalObject* s = signal_;
    signal_ = nullptr;
    return s && s->release();
  }

 private:
  SignalObject* signal_;
  bool busy_;
};

class LogObject : public Logger {
 public:
  using Logger::Logger;
};

}  // namespace qnn::sdk
