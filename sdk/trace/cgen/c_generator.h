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

#include "trace/cgen/params_file.h"
#include "trace/trace_args.h"
#include "trace/trace_reader.h"

// The calls the C generator writes (one handler each, CGenerator::on<Call::x>); any
// other is left as a comment.
#define QNN_CGEN_HANDLED_CALLS(X) \
  X(graphCreate) X(graphRetrieve) X(graphSetConfig) X(graphAddNode) X(graphFinalize) X(graphExecute)            \
  X(graphExecuteAsync) X(tensorCreateGraphTensor) X(tensorCreateContextTensor) X(contextCreate)                 \
  X(contextSetConfig) X(contextGetBinarySize) X(contextGetBinary) X(contextCreateFromBinaryWithCallback)        \
  X(contextCreateFromBinary) X(contextCreateFromBinaryWithSignal) X(contextCreateFromBinaryListAsync)           \
  X(contextValidateBinary) X(contextFree) X(memRegister) X(memDeRegister) X(propertyHasCapability)              \
  X(backendCreate) X(backendSetConfig) X(backendGetApiVersion) X(backendGetBuildId) X(backendRegisterOpPackage) \
  X(backendGetSupportedOperations) X(backendValidateOpConfig) X(backendFree) X(logCreate) X(logSetLogLevel)     \
  X(logFree) X(errorGetMessage) X(errorGetVerboseMessage) X(errorFreeVerboseMessage) X(profileCreate)           \
  X(profileGetEvents) X(profileFree) X(profileSetConfig) X(globalConfigSet) X(deviceGetPlatformInfo)            \
  X(deviceFreePlatformInfo) X(deviceGetInfrastructure) X(deviceCreate) X(deviceSetConfig) X(deviceGetInfo)      \
  X(deviceFree) X(signalCreate) X(signalSetConfig) X(signalTrigger) X(signalFree) X(tensorUpdateGraphTensors)   \
  X(tensorUpdateContextTensors) X(contextGetBinarySectionUpdate) X(contextFreeBinarySectionUpdate)              \
  X(contextGetBinarySectionSize) X(contextGetBinarySection) X(contextApplyBinarySection)                        \
  X(graphPrepareExecutionEnvironment) X(graphReleaseExecutionEnvironment) X(contextFinalize)                    \
  X(contextGetIncrementalBinary) X(contextReleaseIncrementalBinary) X(htpPerfCreatePowerConfigId)               \
  X(htpPerfDestroyPowerConfigId) X(htpPerfSetPowerConfig) X(htpPerfSetMemoryConfig) X(graphValidate)          \
  X(graphFreeValidationResult) X(backendRegisterOpPackageFromBinary)

namespace qnn::trace::cgen {

// A config array CGenerator::configArray declares: the entries' C type, the
// stem of its name, the entries' initializer (nullptr: zeroed), and whether an
// empty recorded list is passed as NULL.
struct ConfigArraySpec {
  const char* type;
  const char* stem;
  const char* init;
  bool emptyIsNull;
};

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
  // a call without a handler).
  using Handler = bool (CGenerator::*)(const CallRecord& c);
  static const PerCall<Handler>& handlers();
  // The handler of call C: specialized for each of QNN_CGEN_HANDLED_CALLS in its
  // group's file (c_calls: graphs and tensors; c_context: contexts and memory;
  // c_objects: backends, logs, errors, profiles, devices, signals; c_sections:
  // tensor updates, binary sections, execution environments; c_perf: the HTP perf
  // infrastructure calls).
  template <Call C>
  bool on(const CallRecord& c);
  // Handlers shared by calls with the same work (QNN_CGEN_SHARED_HANDLER).
  // passArgs (c_objects.cpp): the member called with each recorded argument
  // written by its parameter's role (trace/table_params.h): handle variables
  // passed in or created, config lists declared first, names as C strings.
  template <Call C>
  bool passArgs(const CallRecord& c);
  template <Call C>
  bool executeGraph(const CallRecord& c);
  template <Call C>
  bool createTensor(const CallRecord& c);
  template <Call C>
  bool createContextFromBinary(const CallRecord& c);
  template <Call C>
  bool setProfileOrGlobalConfig(const CallRecord& c);
  template <Call C>
  bool updateTensors(const CallRecord& c);
  template <Call C>
  bool prepareOrReleaseEnvironments(const CallRecord& c);
  // c_perf.cpp: the statements of a perf call, made only on an infrastructure the program got.
  bool perfBlock(const std::function<void()>& statements);
  // c_perf.cpp: declares one variable per entry of a recorded config list,
  // filled by `fill`, then their NULL-terminated array; its name, "NULL" when no
  // list was recorded (or, with spec.emptyIsNull, an empty one).
  std::string configArray(const Value& list, const ConfigArraySpec& spec,
                          const std::function<void(const std::string&, const Value&)>& fill);
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
  std::set<uint64_t> validationResults_;  // recorded addresses of graphValidate results
  std::map<std::string, std::vector<std::string>> environments_;  // graph/option/ids -> prepared environment variables
  unsigned executes_ = 0, names_ = 0, indent_ = 1;
  std::string currentCall_;
};

#define QNN_CGEN_DECLARE_HANDLER_(member) \
  template <>                              \
  bool CGenerator::on<Call::member>(const CallRecord& c);
QNN_CGEN_HANDLED_CALLS(QNN_CGEN_DECLARE_HANDLER_)
#undef QNN_CGEN_DECLARE_HANDLER_

// A call whose statements `helper<Call::member>` shares with others.
#define QNN_CGEN_SHARED_HANDLER(member, helper)             \
  template <>                                              \
  bool CGenerator::on<Call::member>(const CallRecord& c) { \
    return helper<Call::member>(c);                        \
  }

}  // namespace qnn::trace::cgen
