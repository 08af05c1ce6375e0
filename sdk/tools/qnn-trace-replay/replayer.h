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
#include "replay_memory.h"
#include "trace_args.h"
#include "trace_configs.h"
#include "trace_tensors.h"
#include "trace_reader.h"

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
  Replayer(const QNN_INTERFACE_VER_TYPE& api, const trace::Trace& trace, ReplayOptions options);
  // Throws ToolError when a call fails differently from the recording.
  ReplayReport run();

 private:
  // One handler per call id (trace::PerCall), false when the call is not
  // replayed; a call without one is skipped. Each group's file assigns its own.
  using Handler = bool (Replayer::*)(const trace::CallRecord&, Qnn_ErrorHandle_t*);
  static const trace::PerCall<Handler>& handlers();
  bool replay(const trace::CallRecord& call);
  // replay_calls.cpp: graphs and tensors; replay_context.cpp: contexts and memory;
  // replay_objects.cpp: backends, logs, profiles, signals, devices.
  bool onGraphCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphCreate
  bool onGraphSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphSetConfig
  bool onGraphRetrieve(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphRetrieve
  template <trace::Call C>
  bool onTensorCreateGraphTensor(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // tensorCreateGraphTensor, tensorCreateContextTensor
  template <trace::Call C>
  bool onGraphAddNode(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphAddNode, backendValidateOpConfig
  bool onGraphFinalize(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphFinalize
  template <trace::Call C>
  bool onGraphExecute(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphExecute, graphExecuteAsync
  static void addGraphHandlers(trace::PerCall<Handler>& h);
  bool onContextCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextCreate
  bool onContextSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextSetConfig
  bool onContextGetBinarySize(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextGetBinarySize
  bool onContextGetBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextGetBinary
  template <trace::Call C>
  bool onContextCreateFromBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextCreateFromBinary, contextCreateFromBinaryWithCallback
  bool onContextCreateFromBinaryListAsync(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextCreateFromBinaryListAsync
  bool onContextFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextFree
  bool onMemRegister(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // memRegister
  bool onMemDeRegister(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // memDeRegister
  static void addContextHandlers(trace::PerCall<Handler>& h);
  bool onBackendCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // backendCreate
  bool onBackendFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // backendFree
  bool onLogCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // logCreate
  bool onLogSetLogLevel(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // logSetLogLevel
  bool onLogFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // logFree
  bool onProfileCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // profileCreate
  bool onProfileGetEvents(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // profileGetEvents
  bool onProfileFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // profileFree
  bool onProfileSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // profileSetConfig
  bool onGlobalConfigSet(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // globalConfigSet
  bool onSignalCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // signalCreate
  bool onSignalSetConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // signalSetConfig
  bool onSignalTrigger(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // signalTrigger
  bool onSignalFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // signalFree
  bool onDeviceCreate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // deviceCreate
  bool onDeviceFree(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // deviceFree
  bool onDeviceGetPlatformInfo(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // deviceGetPlatformInfo
  bool onDeviceFreePlatformInfo(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // deviceFreePlatformInfo
  static void addObjectHandlers(trace::PerCall<Handler>& h);
  // replay_sections.cpp: tensor updates, binary sections, execution environments.
  template <trace::Call C>
  bool onTensorUpdateGraphTensors(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // tensorUpdateGraphTensors, tensorUpdateContextTensors, contextGetBinarySectionUpdate
  bool onContextGetBinarySectionSize(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextGetBinarySectionSize
  bool onContextGetBinarySection(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextGetBinarySection
  bool onContextApplyBinarySection(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextApplyBinarySection
  bool onContextFreeBinarySectionUpdate(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextFreeBinarySectionUpdate
  template <trace::Call C>
  bool onGraphPrepareExecutionEnvironment(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // graphPrepareExecutionEnvironment, graphReleaseExecutionEnvironment
  bool onContextFinalize(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextFinalize
  bool onContextGetIncrementalBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextGetIncrementalBinary
  bool onContextReleaseIncrementalBinary(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // contextReleaseIncrementalBinary
  static void addSectionHandlers(trace::PerCall<Handler>& h);
  // replay_perf.cpp: QnnDevice_getInfrastructure and the HTP perf infrastructure calls.
  bool onDeviceGetInfrastructure(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // deviceGetInfrastructure
  bool onHtpPerfCreatePowerConfigId(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // htpPerfCreatePowerConfigId
  bool onHtpPerfDestroyPowerConfigId(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // htpPerfDestroyPowerConfigId
  bool onHtpPerfSetPowerConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // htpPerfSetPowerConfig
  bool onHtpPerfSetMemoryConfig(const trace::CallRecord& c, Qnn_ErrorHandle_t* rc);  // htpPerfSetMemoryConfig
  static void addPerfHandlers(trace::PerCall<Handler>& h);
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

  const QNN_INTERFACE_VER_TYPE& api_;
  const trace::Trace& trace_;
  ReplayOptions options_;
  ReplayReport report_;
  std::map<uint64_t, void*> handles_;
  std::map<uint64_t, std::vector<uint8_t>> liveBinaries_;  // recorded blob id -> binary made in this replay
  std::map<uint64_t, QnnContext_Buffer_t> liveUpdates_;
  std::map<uint64_t, const void*> livePieces_;
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

}  // namespace qnn::replay
