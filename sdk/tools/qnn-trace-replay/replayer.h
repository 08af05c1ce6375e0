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
  bool replay(const trace::CallRecord& call);
  // replay_calls.cpp, by API group; false when the call is not replayed.
  bool replayGraph(const trace::CallRecord& call, Qnn_ErrorHandle_t* rc);
  bool replayContext(const trace::CallRecord& call, Qnn_ErrorHandle_t* rc);
  bool replayObjects(const trace::CallRecord& call, Qnn_ErrorHandle_t* rc);
  // replay_sections.cpp: tensor updates and binary sections.
  bool replaySections(const trace::CallRecord& call, Qnn_ErrorHandle_t* rc);
  // replay_perf.cpp: QnnDevice_getInfrastructure and the HTP perf infrastructure calls.
  bool replayPerf(const trace::CallRecord& call, Qnn_ErrorHandle_t* rc);
  uint32_t livePowerConfigId(uint64_t recorded) const;
  Qnn_ErrorHandle_t environments(const trace::CallRecord& call, bool prepare);
  // replay_list_async.cpp: contextCreateFromBinaryListAsync, binding each
  // entry's context and graphs to what the live backend notified.
  Qnn_ErrorHandle_t listAsync(const trace::CallRecord& call);
  // A recorded context binary, or the one this replay made in its place.
  const std::vector<uint8_t>* binaryOf(const trace::Value& ref) const;
  const std::vector<uint8_t>& sectionBytes(const trace::CallRecord& call, const trace::Value& ref) const;
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
