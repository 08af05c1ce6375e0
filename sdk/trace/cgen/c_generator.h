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
#include "trace_args.h"
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
  using Handler = bool (CGenerator::*)(const CallRecord& c);
  static const PerCall<Handler>& handlers();
  // c_calls.cpp: graphs and tensors; c_context.cpp: contexts and memory;
  // c_objects.cpp: backends, logs, errors, profiles, devices, signals.
  bool onGraphCreate(const CallRecord& c);  // graphCreate
  bool onGraphRetrieve(const CallRecord& c);  // graphRetrieve
  bool onGraphSetConfig(const CallRecord& c);  // graphSetConfig
  bool onGraphAddNode(const CallRecord& c);  // graphAddNode
  bool onGraphFinalize(const CallRecord& c);  // graphFinalize
  template <Call C>
  bool onGraphExecute(const CallRecord& c);  // graphExecute, graphExecuteAsync
  template <Call C>
  bool onTensorCreateGraphTensor(const CallRecord& c);  // tensorCreateGraphTensor, tensorCreateContextTensor
  static void addGraphHandlers(PerCall<Handler>& h);
  bool onContextCreate(const CallRecord& c);  // contextCreate
  bool onContextSetConfig(const CallRecord& c);  // contextSetConfig
  bool onContextGetBinarySize(const CallRecord& c);  // contextGetBinarySize
  bool onContextGetBinary(const CallRecord& c);  // contextGetBinary
  bool onContextCreateFromBinaryWithCallback(const CallRecord& c);  // contextCreateFromBinaryWithCallback
  template <Call C>
  bool onContextCreateFromBinary(const CallRecord& c);  // contextCreateFromBinary, contextCreateFromBinaryWithSignal
  bool onContextCreateFromBinaryListAsync(const CallRecord& c);  // contextCreateFromBinaryListAsync
  bool onContextValidateBinary(const CallRecord& c);  // contextValidateBinary
  bool onContextFree(const CallRecord& c);  // contextFree
  bool onMemRegister(const CallRecord& c);  // memRegister
  bool onMemDeRegister(const CallRecord& c);  // memDeRegister
  static void addContextHandlers(PerCall<Handler>& h);
  bool onPropertyHasCapability(const CallRecord& c);  // propertyHasCapability
  bool onBackendCreate(const CallRecord& c);  // backendCreate
  bool onBackendSetConfig(const CallRecord& c);  // backendSetConfig
  bool onBackendGetApiVersion(const CallRecord& c);  // backendGetApiVersion
  bool onBackendGetBuildId(const CallRecord& c);  // backendGetBuildId
  bool onBackendRegisterOpPackage(const CallRecord& c);  // backendRegisterOpPackage
  bool onBackendGetSupportedOperations(const CallRecord& c);  // backendGetSupportedOperations
  bool onBackendValidateOpConfig(const CallRecord& c);  // backendValidateOpConfig
  bool onBackendFree(const CallRecord& c);  // backendFree
  bool onLogCreate(const CallRecord& c);  // logCreate
  bool onLogSetLogLevel(const CallRecord& c);  // logSetLogLevel
  bool onLogFree(const CallRecord& c);  // logFree
  bool onErrorGetMessage(const CallRecord& c);  // errorGetMessage
  bool onErrorGetVerboseMessage(const CallRecord& c);  // errorGetVerboseMessage
  bool onErrorFreeVerboseMessage(const CallRecord& c);  // errorFreeVerboseMessage
  static void addBackendHandlers(PerCall<Handler>& h);
  bool onProfileCreate(const CallRecord& c);  // profileCreate
  bool onProfileGetEvents(const CallRecord& c);  // profileGetEvents
  bool onProfileFree(const CallRecord& c);  // profileFree
  template <Call C>
  bool onProfileSetConfig(const CallRecord& c);  // profileSetConfig, globalConfigSet
  bool onDeviceGetPlatformInfo(const CallRecord& c);  // deviceGetPlatformInfo
  bool onDeviceFreePlatformInfo(const CallRecord& c);  // deviceFreePlatformInfo
  bool onDeviceGetInfrastructure(const CallRecord& c);  // deviceGetInfrastructure
  bool onDeviceCreate(const CallRecord& c);  // deviceCreate
  bool onDeviceSetConfig(const CallRecord& c);  // deviceSetConfig
  bool onDeviceGetInfo(const CallRecord& c);  // deviceGetInfo
  bool onDeviceFree(const CallRecord& c);  // deviceFree
  bool onSignalCreate(const CallRecord& c);  // signalCreate
  bool onSignalSetConfig(const CallRecord& c);  // signalSetConfig
  bool onSignalTrigger(const CallRecord& c);  // signalTrigger
  bool onSignalFree(const CallRecord& c);  // signalFree
  static void addObjectHandlers(PerCall<Handler>& h);
  // c_sections.cpp: tensor updates, binary sections, execution environments.
  template <Call C>
  bool onTensorUpdateGraphTensors(const CallRecord& c);  // tensorUpdateGraphTensors, tensorUpdateContextTensors, contextGetBinarySectionUpdate
  bool onContextFreeBinarySectionUpdate(const CallRecord& c);  // contextFreeBinarySectionUpdate
  bool onContextGetBinarySectionSize(const CallRecord& c);  // contextGetBinarySectionSize
  bool onContextGetBinarySection(const CallRecord& c);  // contextGetBinarySection
  bool onContextApplyBinarySection(const CallRecord& c);  // contextApplyBinarySection
  template <Call C>
  bool onGraphPrepareExecutionEnvironment(const CallRecord& c);  // graphPrepareExecutionEnvironment, graphReleaseExecutionEnvironment
  bool onContextFinalize(const CallRecord& c);  // contextFinalize
  bool onContextGetIncrementalBinary(const CallRecord& c);  // contextGetIncrementalBinary
  bool onContextReleaseIncrementalBinary(const CallRecord& c);  // contextReleaseIncrementalBinary
  static void addSectionHandlers(PerCall<Handler>& h);
  // c_perf.cpp: the HTP perf infrastructure calls, each made only on an infrastructure the program got.
  bool onHtpPerfCreatePowerConfigId(const CallRecord& c);
  bool onHtpPerfDestroyPowerConfigId(const CallRecord& c);
  bool onHtpPerfSetPowerConfig(const CallRecord& c);
  bool onHtpPerfSetMemoryConfig(const CallRecord& c);
  static void addPerfHandlers(PerCall<Handler>& h);
  bool perfBlock(const std::function<void()>& statements);
  // Declares a recorded perf config list ("NULL" when none was recorded); its name.
  std::string perfList(const Value& config, const char* type, const std::function<void(const std::string&, const Value&)>& fill);
  bool emitEnvironments(const Value& graph, const Value& environments, bool prepare);
  // c_list_async.cpp: contextCreateFromBinaryListAsync, each entry's context
  // and graphs taken from what the backend notified.
  bool emitListAsync(const Args<Call::contextCreateFromBinaryListAsync>& a);
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
  // A recorded number as a C literal ("5u", "-3"); `fallback` for anything else.
  std::string literal(const Value& v, const char* fallback = "0");
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
