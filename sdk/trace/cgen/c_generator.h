// Turns a decoded trace into the C source of a replay program (a consumer of
// the shared trace decoder, like apitrace's and gfxreconstruct's C backends):
// one block per recorded call, in trace order, recorded handle ids as C
// variables, recorded tensor ids mapped to the ids the replaying backend
// assigns, all data in params.bin referenced by offset.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "params_file.h"
#include "trace_reader.h"

namespace qnn::trace::cgen {

class CGenerator {
 public:
  // `paramsFileName` is the file the program opens in its working directory.
  CGenerator(const Trace& trace, std::string paramsFileName);
  // The whole C file. Call once.
  std::string generate();
  const ParamsFile& params() const { return params_; }

 private:
  // c_calls.cpp: one recorded call -> its C block (or a comment saying why not).
  void emitCall(const CallRecord& call);
  // One handler per call id (trace::PerCall): writes the call's statements, or
  // returns false when the call is not replayed (it is left as a comment, as is
  // a call without a handler). Each group's file assigns its own.
  using Handler = bool (CGenerator::*)(trace::Call m, const Value& a);
  static const PerCall<Handler>& handlers();
  // c_calls.cpp: graphs, contexts, backends and the other objects.
  bool onGraphCreate(trace::Call m, const Value& a);  // graphCreate
  bool onGraphRetrieve(trace::Call m, const Value& a);  // graphRetrieve
  bool onGraphSetConfig(trace::Call m, const Value& a);  // graphSetConfig
  bool onGraphAddNode(trace::Call m, const Value& a);  // graphAddNode
  bool onGraphFinalize(trace::Call m, const Value& a);  // graphFinalize
  bool onGraphExecute(trace::Call m, const Value& a);  // graphExecute, graphExecuteAsync
  bool onTensorCreateGraphTensor(trace::Call m, const Value& a);  // tensorCreateGraphTensor, tensorCreateContextTensor
  static void addGraphHandlers(PerCall<Handler>& h);
  bool onContextCreate(trace::Call m, const Value& a);  // contextCreate
  bool onContextSetConfig(trace::Call m, const Value& a);  // contextSetConfig
  bool onContextGetBinarySize(trace::Call m, const Value& a);  // contextGetBinarySize
  bool onContextGetBinary(trace::Call m, const Value& a);  // contextGetBinary
  bool onContextCreateFromBinaryWithCallback(trace::Call m, const Value& a);  // contextCreateFromBinaryWithCallback
  bool onContextCreateFromBinary(trace::Call m, const Value& a);  // contextCreateFromBinary, contextCreateFromBinaryWithSignal
  bool onContextCreateFromBinaryListAsync(trace::Call m, const Value& a);  // contextCreateFromBinaryListAsync
  bool onContextValidateBinary(trace::Call m, const Value& a);  // contextValidateBinary
  bool onContextFree(trace::Call m, const Value& a);  // contextFree
  bool onMemRegister(trace::Call m, const Value& a);  // memRegister
  bool onMemDeRegister(trace::Call m, const Value& a);  // memDeRegister
  static void addContextHandlers(PerCall<Handler>& h);
  bool onPropertyHasCapability(trace::Call m, const Value& a);  // propertyHasCapability
  bool onBackendCreate(trace::Call m, const Value& a);  // backendCreate
  bool onBackendSetConfig(trace::Call m, const Value& a);  // backendSetConfig
  bool onBackendGetApiVersion(trace::Call m, const Value& a);  // backendGetApiVersion
  bool onBackendGetBuildId(trace::Call m, const Value& a);  // backendGetBuildId
  bool onBackendRegisterOpPackage(trace::Call m, const Value& a);  // backendRegisterOpPackage
  bool onBackendGetSupportedOperations(trace::Call m, const Value& a);  // backendGetSupportedOperations
  bool onBackendValidateOpConfig(trace::Call m, const Value& a);  // backendValidateOpConfig
  bool onBackendFree(trace::Call m, const Value& a);  // backendFree
  bool onLogCreate(trace::Call m, const Value& a);  // logCreate
  bool onLogSetLogLevel(trace::Call m, const Value& a);  // logSetLogLevel
  bool onLogFree(trace::Call m, const Value& a);  // logFree
  bool onErrorGetMessage(trace::Call m, const Value& a);  // errorGetMessage
  bool onErrorGetVerboseMessage(trace::Call m, const Value& a);  // errorGetVerboseMessage
  bool onErrorFreeVerboseMessage(trace::Call m, const Value& a);  // errorFreeVerboseMessage
  static void addBackendHandlers(PerCall<Handler>& h);
  bool onProfileCreate(trace::Call m, const Value& a);  // profileCreate
  bool onProfileGetEvents(trace::Call m, const Value& a);  // profileGetEvents
  bool onProfileFree(trace::Call m, const Value& a);  // profileFree
  bool onProfileSetConfig(trace::Call m, const Value& a);  // profileSetConfig, globalConfigSet
  bool onDeviceGetPlatformInfo(trace::Call m, const Value& a);  // deviceGetPlatformInfo
  bool onDeviceFreePlatformInfo(trace::Call m, const Value& a);  // deviceFreePlatformInfo
  bool onDeviceGetInfrastructure(trace::Call m, const Value& a);  // deviceGetInfrastructure
  bool onDeviceCreate(trace::Call m, const Value& a);  // deviceCreate
  bool onDeviceSetConfig(trace::Call m, const Value& a);  // deviceSetConfig
  bool onDeviceGetInfo(trace::Call m, const Value& a);  // deviceGetInfo
  bool onDeviceFree(trace::Call m, const Value& a);  // deviceFree
  bool onSignalCreate(trace::Call m, const Value& a);  // signalCreate
  bool onSignalSetConfig(trace::Call m, const Value& a);  // signalSetConfig
  bool onSignalTrigger(trace::Call m, const Value& a);  // signalTrigger
  bool onSignalFree(trace::Call m, const Value& a);  // signalFree
  static void addObjectHandlers(PerCall<Handler>& h);
  // c_sections.cpp: tensor updates, binary sections, execution environments.
  bool onTensorUpdateGraphTensors(trace::Call m, const Value& a);  // tensorUpdateGraphTensors, tensorUpdateContextTensors, contextGetBinarySectionUpdate
  bool onContextFreeBinarySectionUpdate(trace::Call m, const Value& a);  // contextFreeBinarySectionUpdate
  bool onContextGetBinarySectionSize(trace::Call m, const Value& a);  // contextGetBinarySectionSize
  bool onContextGetBinarySection(trace::Call m, const Value& a);  // contextGetBinarySection
  bool onContextApplyBinarySection(trace::Call m, const Value& a);  // contextApplyBinarySection
  bool onGraphPrepareExecutionEnvironment(trace::Call m, const Value& a);  // graphPrepareExecutionEnvironment, graphReleaseExecutionEnvironment
  bool onContextFinalize(trace::Call m, const Value& a);  // contextFinalize
  bool onContextGetIncrementalBinary(trace::Call m, const Value& a);  // contextGetIncrementalBinary
  bool onContextReleaseIncrementalBinary(trace::Call m, const Value& a);  // contextReleaseIncrementalBinary
  static void addSectionHandlers(PerCall<Handler>& h);
  // c_perf.cpp: the HTP perf infrastructure calls, each made only on an infrastructure the program got.
  bool onHtpPerfCreatePowerConfigId(trace::Call m, const Value& a);
  bool onHtpPerfDestroyPowerConfigId(trace::Call m, const Value& a);
  bool onHtpPerfSetPowerConfig(trace::Call m, const Value& a);
  bool onHtpPerfSetMemoryConfig(trace::Call m, const Value& a);
  static void addPerfHandlers(PerCall<Handler>& h);
  bool perfBlock(const std::function<void()>& statements);
  // Declares a recorded perf config list ("NULL" when none was recorded); its name.
  std::string perfList(const Value& a, const char* type, const std::function<void(const std::string&, const Value&)>& fill);
  bool emitEnvironments(const Value& a, bool prepare);
  // c_list_async.cpp: contextCreateFromBinaryListAsync, each entry's context
  // and graphs taken from what the backend notified.
  bool emitListAsync(const Value& a);
  // "data, size" of a context binary: the recorded bytes, or the program's own
  // binary where it got one for those bytes (contextGetBinary).
  std::string binaryArgs(const Value& ref);
  void emitContextBuffer(const std::string& name, const std::string& data, const std::string& size);
  std::pair<std::string, std::string> sectionBytes(const Value& ref);  // (data, size) expressions

  // c_tensors.cpp: statements filling `var` (a Qnn_Tensor_t lvalue).
  enum class TensorUse { Create, Reference, Input, Output };
  void emitTensor(const std::string& var, const Value& tensor, TensorUse use);
  void emitTensorArray(const std::string& name, const Value& list, TensorUse use);
  // Declares `Qnn_OpConfig_t op` for a recorded opConfig.
  void emitOp(const Value& op);
  // c_configs.cpp: declares a NULL-terminated config array, returns its name
  // ("NULL" when none was recorded). `type` is e.g. "QnnGraph_Config_t".
  std::string emitConfig(const Value& list, const char* type);
  std::string nameArray(const Value& names);

  // c_generator.cpp
  std::string handle(const Value& v, const char* kind);  // variable name, or "NULL"
  std::string data(const Value& ref);                    // "P(offset)", or "NULL" if missing
  std::string fresh(const char* stem);                   // a unique local name
  // A Qnn_ScaleOffset_t array of recorded [scale, offset] pairs declared; its name, or "NULL" if empty.
  std::string scaleOffsetArray(const Value& pairs);
  void line(const std::string& text);
  std::string field(const Value& v, const char* name, const char* fallback = "0");

  const Trace& trace_;
  std::string paramsFileName_;
  ParamsFile params_;
  std::ostringstream body_;
  std::map<uint64_t, std::string> handleNames_;
  std::vector<std::string> globals_;  // file-scope declarations the calls need
  std::set<uint64_t> liveBinaries_;  // blob ids of binaries this program gets itself
  std::set<uint64_t> liveSections_;  // blob ids of binary sections this program gets itself
  std::set<uint64_t> updateBuffers_;  // recorded addresses of getBinarySectionUpdate buffers
  std::set<uint64_t> pieces_;         // start offsets of incremental binary pieces
  std::map<std::string, std::vector<std::string>> environments_;  // graph/option/ids -> prepared environment variables
  unsigned executes_ = 0, names_ = 0, indent_ = 1;
  std::string currentCall_;
};

}  // namespace qnn::trace::cgen
