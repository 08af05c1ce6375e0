// Replays decoded calls on a backend in trace order: typed dispatch per call
// id, recorded handle ids mapped to the live handles the backend returns,
// configs rebuilt, registered memory backed by memfds. Calls it cannot replay
// are skipped and counted.
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "HTP/QnnHtpDevice.h"
#include "QnnInterface.h"
#include "tools/qnn-trace-replay/replay_memory.h"
#include "trace/trace_args.h"
#include "tools/qnn-trace-replay/trace_configs.h"
#include "tools/qnn-trace-replay/trace_tensors.h"
#include "trace/trace_reader.h"

// The calls qnn-trace-replay replays (one handler each, Replayer::on<Call::x>); any other is skipped.
#define QNN_REPLAY_HANDLED_CALLS(X) \
  X(graphCreate) X(graphSetConfig) X(graphRetrieve) X(tensorCreateGraphTensor) X(tensorCreateContextTensor)    \
  X(graphAddNode) X(backendValidateOpConfig) X(graphFinalize) X(graphExecute) X(graphExecuteAsync)             \
  X(contextCreate) X(contextSetConfig) X(contextGetBinarySize) X(contextGetBinary) X(contextCreateFromBinary)  \
  X(contextCreateFromBinaryWithCallback) X(contextCreateFromBinaryListAsync) X(contextFree) X(memRegister)     \
  X(memDeRegister) X(backendCreate) X(backendFree) X(logCreate) X(logSetLogLevel) X(logFree) X(profileCreate)  \
  X(profileGetEvents) X(profileFree) X(profileSetConfig) X(globalConfigSet) X(signalCreate) X(signalSetConfig) \
  X(signalTrigger) X(signalFree) X(deviceCreate) X(deviceFree) X(deviceGetPlatformInfo)                        \
  X(deviceFreePlatformInfo) X(tensorUpdateGraphTensors) X(tensorUpdateContextTensors)                          \
  X(contextGetBinarySectionUpdate) X(contextGetBinarySectionSize) X(contextGetBinarySection)                   \
  X(contextApplyBinarySection) X(contextFreeBinarySectionUpdate) X(graphPrepareExecutionEnvironment)           \
  X(graphReleaseExecutionEnvironment) X(contextFinalize) X(contextGetIncrementalBinary)                        \
  X(contextReleaseIncrementalBinary) X(deviceGetInfrastructure) X(htpPerfCreatePowerConfigId)                  \
  X(htpPerfDestroyPowerConfigId) X(htpPerfSetPowerConfig) X(htpPerfSetMemoryConfig) X(graphValidate)          \
  X(graphFreeValidationResult) X(backendRegisterOpPackageFromBinary)

namespace qnn::replay {

struct ReplayOptions {
  bool compare = false;
  double tolerance = 1e-5;  // float outputs: |got - want| <= tol * (1 + |want|)
  uint32_t backendId = 0;   // the live backend's: another backend's custom configs are left out (0: none are)
};

struct ReplayReport {
  size_t replayed = 0, skipped = 0, compared = 0;
  std::vector<std::string> skippedCalls;
  std::string firstDivergence;  // empty when none
  std::set<std::string> leftOutCustomTypes;  // recorded custom configs of another backend, not passed on
};

// A raw-buffer callback serving ranges of `binary` (which outlives the loads
// it serves): it stands in for a recorded client's binary data callback.
Qnn_ContextBinaryCallback_t binaryRangeCallback(const std::vector<uint8_t>* binary);

class Replayer {
 public:
  // `api`: every member of core/api_members.h (the 2.39 appends null for a 2.32 backend).
  Replayer(const sdk::InterfaceTable2_39& api, const trace::Trace& trace, ReplayOptions options);
  // Throws ToolError when a call fails differently from the recording.
  ReplayReport run();

 private:
  // One handler per call id (trace::PerCall), false when the call is not
  // replayed; a call without one is skipped.
  using Handler = bool (Replayer::*)(const trace::CallRecord&, Qnn_ErrorHandle_t*);
  static const trace::PerCall<Handler>& handlers();
  // The handler of call C: specialized for each of QNN_REPLAY_HANDLED_CALLS in
  // its group's file (replay_calls: graphs and tensors; replay_context: contexts
  // and memory; replay_objects: backends, logs, profiles, signals, devices;
  // replay_sections; replay_perf).
  template <trace::Call C>
  bool on(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);
  bool replay(const trace::CallRecord& call);
  // Handlers shared by calls with the same work (QNN_REPLAY_SHARED_HANDLER).
  // passArgs (replay_objects.cpp): the member called with each recorded argument
  // made live by its parameter's role (trace/table_params.h): handles passed in
  // looked up, config lists rebuilt, created handles bound to the recorded ones.
  template <trace::Call C>
  bool passArgs(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);
  template <trace::Call C>
  bool createTensor(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // tensorCreateGraphTensor, tensorCreateContextTensor
  template <trace::Call C>
  bool addOrValidateOp(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphAddNode, backendValidateOpConfig
  template <trace::Call C>
  bool executeGraph(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphExecute, graphExecuteAsync
  template <trace::Call C>
  bool createContextFromBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextCreateFromBinary, contextCreateFromBinaryWithCallback
  template <trace::Call C>
  bool updateTensors(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // tensorUpdateGraphTensors, tensorUpdateContextTensors, contextGetBinarySectionUpdate
  template <trace::Call C>
  bool prepareOrReleaseEnvironments(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphPrepareExecutionEnvironment, graphReleaseExecutionEnvironment
  // Rebuilds a recorded config list for the live backend, noting left-out custom configs.
  template <typename Config>
  void configs(const trace::Value& recorded, OwnedConfigs<Config>& cfg) {
    cfg.backendId = options_.backendId;
    buildConfigs(recorded, trace_, [this](const trace::Value& v) { return live(v); }, cfg);
    noteLeftOut(cfg.leftOut);
  }
  uint32_t livePowerConfigId(uint64_t recorded) const;
  template <trace::Call C>
  Qnn_ErrorHandle_t environments(const trace::CallRecord& call);
  // replay_list_async.cpp: contextCreateFromBinaryListAsync, binding each
  // entry's context and graphs to what the live backend notified.
  Qnn_ErrorHandle_t listAsync(const trace::CallRecord& call);
  // A recorded context binary, or the one this replay made in its place.
  const std::vector<uint8_t>* binaryOf(const trace::Value& ref) const;
  const std::vector<uint8_t>& sectionBytes(const trace::CallRecord& call, const trace::Value& ref) const;
  template <trace::Call C>
  Qnn_ErrorHandle_t execute(const trace::CallRecord& call);
  void noteLeftOut(const std::vector<std::string>& types) { report_.leftOutCustomTypes.insert(types.begin(), types.end()); }
  // Points mem-handle tensors at the live buffers (copying recorded input bytes in).
  void attachMemory(OwnedTensor& tensor, bool input);
  void* live(const trace::Value& handle) const;
  void bind(const trace::Value& handle, void* live);
  void expectResult(const trace::CallRecord& call, Qnn_ErrorHandle_t rc);
  void compareOutputs(const trace::CallRecord& call, const trace::Value& outputs,
                      const std::vector<std::vector<uint8_t>>& got, const std::vector<Qnn_DataType_t>& types);

  const sdk::InterfaceTable2_39& api_;
  const trace::Trace& trace_;
  ReplayOptions options_;
  ReplayReport report_;
  std::map<uint64_t, void*> handles_;
  std::map<uint64_t, std::vector<uint8_t>> liveBinaries_;  // recorded blob id -> binary made in this replay
  std::map<uint64_t, QnnContext_Buffer_t> liveUpdates_;
  std::map<uint64_t, const void*> livePieces_;
  std::map<uint64_t, QnnGraph_ValidationResult_t*> validationResults_;  // recorded address -> live result
  struct LiveEnvironment {
    uint32_t option = 0;
    std::vector<uint32_t> ids;
    std::vector<Qnn_Tensor_t> inputs, outputs;  // as the backend filled them in
    std::shared_ptr<std::deque<OwnedTensor>> storage;
  };
  std::map<void*, std::vector<LiveEnvironment>> liveEnvironments_;  // by live graph  // start offset -> incremental binary piece of this replay  // recorded address -> buffer of getBinarySectionUpdate
  ReplayMemory memory_;
  const QnnDevice_PlatformInfo_t* platformInfo_ = nullptr;
  const QnnHtpDevice_PerfInfrastructure_t* perf_ = nullptr;  // the live HTP backend's, once asked for
  std::map<uint64_t, uint32_t> powerConfigIds_;             // recorded -> live power config id
};

#define QNN_REPLAY_DECLARE_HANDLER_(member) \
  template <>                                \
  bool Replayer::on<trace::Call::member>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);
QNN_REPLAY_HANDLED_CALLS(QNN_REPLAY_DECLARE_HANDLER_)
#undef QNN_REPLAY_DECLARE_HANDLER_

// A call whose work `helper<Call::member>` shares with others.
#define QNN_REPLAY_SHARED_HANDLER(member, helper)                                                   \
  template <>                                                                                       \
  bool Replayer::on<trace::Call::member>(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc) { \
    return helper<trace::Call::member>(c, rc);                                                      \
  }

}  // namespace qnn::replay
