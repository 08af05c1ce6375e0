// The arguments a recorded call holds, per call id: what the Saver's recorders
// write into CallRecord::args and what replay and the C generator read. Each
// listed call has a struct, trace::Args<Call::x>, with one member per argument
// (a `const Value&`), checked at decoding against the listed kind: an argument
// that is missing or of another kind reads as Null, so a consumer gets the
// recorded value of the listed kind or nothing. A misspelled argument name no
// longer compiles. A(name, kind): kind is a Value::Kind (Handle, UInt, String,
// Blob, List, Struct) or Any (left as recorded).
//
// Adding a call a consumer handles: its list here and its name in
// QNN_TRACE_FOR_EACH_CALL_WITH_ARGS. tests/saver checks that the Saver records
// no argument outside a call's list and each of the listed kind.
#pragma once

#include <array>
#include <cstddef>

#include "trace/trace_format.h"

#define QNN_TRACE_ARGS_saverInitialize(A) A(config, List)
#define QNN_TRACE_ARGS_propertyHasCapability(A) A(key, UInt)
#define QNN_TRACE_ARGS_backendCreate(A) A(logger, Handle) A(config, List) A(backend, Handle)
#define QNN_TRACE_ARGS_backendSetConfig(A) A(backend, Handle) A(config, List)
#define QNN_TRACE_ARGS_backendGetApiVersion(A) A(version, Struct)
#define QNN_TRACE_ARGS_backendGetBuildId(A) A(id, String)
#define QNN_TRACE_ARGS_backendRegisterOpPackage(A) \
  A(backend, Handle) A(packagePath, String) A(interfaceProvider, String) A(target, String)
#define QNN_TRACE_ARGS_backendGetSupportedOperations(A) A(backend, Handle) A(numOperations, UInt)
#define QNN_TRACE_ARGS_backendValidateOpConfig(A) A(backend, Handle) A(opConfig, Struct)
#define QNN_TRACE_ARGS_backendFree(A) A(backend, Handle)
#define QNN_TRACE_ARGS_logCreate(A) A(hasCallback, UInt) A(maxLogLevel, UInt) A(logger, Handle)
#define QNN_TRACE_ARGS_logSetLogLevel(A) A(logger, Handle) A(maxLogLevel, UInt)
#define QNN_TRACE_ARGS_logFree(A) A(logger, Handle)
#define QNN_TRACE_ARGS_errorGetMessage(A) A(errorHandle, UInt) A(message, String)
#define QNN_TRACE_ARGS_errorGetVerboseMessage(A) A(errorHandle, UInt) A(message, String)
#define QNN_TRACE_ARGS_errorFreeVerboseMessage(A)
#define QNN_TRACE_ARGS_contextCreate(A) A(backend, Handle) A(device, Handle) A(config, List) A(context, Handle)
#define QNN_TRACE_ARGS_contextSetConfig(A) A(context, Handle) A(config, List)
#define QNN_TRACE_ARGS_contextGetBinarySize(A) A(context, Handle) A(binaryBufferSize, UInt)
#define QNN_TRACE_ARGS_contextGetBinary(A) \
  A(context, Handle) A(binaryBufferSize, UInt) A(writtenBufferSize, UInt) A(binary, Blob)
#define QNN_TRACE_ARGS_contextCreateFromBinary(A) \
  A(backend, Handle) A(device, Handle) A(config, List) A(binary, Blob) A(profile, Handle) A(context, Handle)
#define QNN_TRACE_ARGS_contextCreateFromBinaryWithSignal(A)                                                      \
  A(backend, Handle) A(device, Handle) A(config, List) A(binary, Blob) A(profile, Handle) A(signal, Handle) \
  A(context, Handle)
#define QNN_TRACE_ARGS_contextCreateFromBinaryWithCallback(A)                                          \
  A(backend, Handle) A(device, Handle) A(config, List) A(callbackType, UInt) A(binary, Blob)       \
  A(profile, Handle) A(signal, Handle) A(context, Handle)
#define QNN_TRACE_ARGS_contextCreateFromBinaryListAsync(A) \
  A(backend, Handle) A(device, Handle) A(config, List) A(signal, Handle) A(note, String) A(contextParams, List)
#define QNN_TRACE_ARGS_contextValidateBinary(A) A(backend, Handle) A(device, Handle) A(config, List) A(binary, Blob)
#define QNN_TRACE_ARGS_contextFree(A) A(context, Handle) A(profile, Handle)
#define QNN_TRACE_ARGS_memRegister(A) A(context, Handle) A(memDescriptors, List) A(memHandles, List)
#define QNN_TRACE_ARGS_memDeRegister(A) A(memHandles, List)
#define QNN_TRACE_ARGS_graphCreate(A) A(context, Handle) A(graphName, String) A(config, List) A(graph, Handle)
#define QNN_TRACE_ARGS_graphSetConfig(A) A(graph, Handle) A(config, List)
#define QNN_TRACE_ARGS_graphAddNode(A) A(graph, Handle) A(opConfig, Struct)
#define QNN_TRACE_ARGS_graphFinalize(A) A(graph, Handle) A(profile, Handle) A(signal, Handle)
#define QNN_TRACE_ARGS_graphRetrieve(A) A(context, Handle) A(graphName, String) A(graph, Handle)
#define QNN_TRACE_ARGS_graphExecute(A) \
  A(graph, Handle) A(inputs, List) A(profile, Handle) A(signal, Handle) A(outputs, List)
#define QNN_TRACE_ARGS_graphExecuteAsync(A) \
  A(graph, Handle) A(inputs, List) A(profile, Handle) A(signal, Handle) A(hasNotifyFn, UInt) A(outputs, List)
#define QNN_TRACE_ARGS_tensorCreateContextTensor(A) A(context, Handle) A(tensor, Struct) A(id, UInt)
#define QNN_TRACE_ARGS_tensorCreateGraphTensor(A) A(graph, Handle) A(tensor, Struct) A(id, UInt)
#define QNN_TRACE_ARGS_graphPrepareExecutionEnvironment(A) A(graph, Handle) A(environments, List)
#define QNN_TRACE_ARGS_graphReleaseExecutionEnvironment(A) A(graph, Handle) A(environments, List)
#define QNN_TRACE_ARGS_profileCreate(A) A(backend, Handle) A(level, UInt) A(profile, Handle)
#define QNN_TRACE_ARGS_profileSetConfig(A) A(profile, Handle) A(config, List)
#define QNN_TRACE_ARGS_profileGetEvents(A) A(profile, Handle) A(events, List)
#define QNN_TRACE_ARGS_profileFree(A) A(profile, Handle)
#define QNN_TRACE_ARGS_deviceGetPlatformInfo(A) A(logger, Handle)
#define QNN_TRACE_ARGS_deviceFreePlatformInfo(A) A(logger, Handle)
#define QNN_TRACE_ARGS_deviceGetInfrastructure(A) A(infraType, UInt) A(recorded, UInt)
#define QNN_TRACE_ARGS_deviceCreate(A) A(logger, Handle) A(config, List) A(device, Handle)
#define QNN_TRACE_ARGS_deviceSetConfig(A) A(device, Handle) A(config, List)
#define QNN_TRACE_ARGS_deviceGetInfo(A) A(device, Handle)
#define QNN_TRACE_ARGS_deviceFree(A) A(device, Handle)
#define QNN_TRACE_ARGS_signalCreate(A) A(backend, Handle) A(config, List) A(signal, Handle)
#define QNN_TRACE_ARGS_signalSetConfig(A) A(signal, Handle) A(config, List)
#define QNN_TRACE_ARGS_signalTrigger(A) A(signal, Handle)
#define QNN_TRACE_ARGS_signalFree(A) A(signal, Handle)
#define QNN_TRACE_ARGS_globalConfigSet(A) A(config, List)
#define QNN_TRACE_ARGS_tensorUpdateGraphTensors(A) A(graph, Handle) A(tensors, List)
#define QNN_TRACE_ARGS_tensorUpdateContextTensors(A) A(context, Handle) A(tensors, List)
#define QNN_TRACE_ARGS_contextGetBinarySectionSize(A) A(context, Handle) A(graph, Handle) A(section, UInt) A(size, UInt)
#define QNN_TRACE_ARGS_contextGetBinarySection(A)                                                           \
  A(context, Handle) A(graph, Handle) A(section, UInt) A(profile, Handle) A(signal, Handle) A(bufferSize, UInt) \
  A(writtenBufferSize, UInt) A(binarySection, Blob)
#define QNN_TRACE_ARGS_contextApplyBinarySection(A) \
  A(context, Handle) A(graph, Handle) A(section, UInt) A(profile, Handle) A(signal, Handle) A(binarySection, Blob)
#define QNN_TRACE_ARGS_contextGetBinarySectionUpdate(A)                                                         \
  A(logger, Handle) A(profile, Handle) A(signal, Handle) A(tensors, List) A(binarySection, Blob) \
  A(keepUpdatable, UInt) A(update, UInt)
#define QNN_TRACE_ARGS_contextFreeBinarySectionUpdate(A) A(logger, Handle) A(update, UInt)
#define QNN_TRACE_ARGS_contextFinalize(A) A(context, Handle) A(profile, Handle)
#define QNN_TRACE_ARGS_contextGetIncrementalBinary(A) A(context, Handle) A(startOffset, UInt) A(writtenBufferSize, UInt)
#define QNN_TRACE_ARGS_contextReleaseIncrementalBinary(A) A(context, Handle) A(startOffset, UInt) A(options, List)
#define QNN_TRACE_ARGS_contextAddToDlc(A) A(context, Handle) A(dlcHandle, UInt)
#define QNN_TRACE_ARGS_graphValidate(A) A(graph, Handle) A(config, List) A(validationResult, Struct)
#define QNN_TRACE_ARGS_graphFreeValidationResult(A) A(validationResult, UInt)
#define QNN_TRACE_ARGS_backendRegisterOpPackageFromBinary(A) \
  A(backend, Handle) A(package, Blob) A(interfaceProvider, String) A(target, String)
#define QNN_TRACE_ARGS_htpPerfCreatePowerConfigId(A) A(deviceId, UInt) A(coreId, UInt) A(powerConfigId, UInt)
#define QNN_TRACE_ARGS_htpPerfDestroyPowerConfigId(A) A(powerConfigId, UInt)
#define QNN_TRACE_ARGS_htpPerfSetPowerConfig(A) A(powerConfigId, UInt) A(config, List)
#define QNN_TRACE_ARGS_htpPerfSetMemoryConfig(A) A(deviceId, UInt) A(coreId, UInt) A(config, List)

// The calls with an argument list above.
#define QNN_TRACE_FOR_EACH_CALL_WITH_ARGS(X) \
  X(saverInitialize) \
  X(propertyHasCapability) \
  X(backendCreate) \
  X(backendSetConfig) \
  X(backendGetApiVersion) \
  X(backendGetBuildId) \
  X(backendRegisterOpPackage) \
  X(backendGetSupportedOperations) \
  X(backendValidateOpConfig) \
  X(backendFree) \
  X(logCreate) \
  X(logSetLogLevel) \
  X(logFree) \
  X(errorGetMessage) \
  X(errorGetVerboseMessage) \
  X(errorFreeVerboseMessage) \
  X(contextCreate) \
  X(contextSetConfig) \
  X(contextGetBinarySize) \
  X(contextGetBinary) \
  X(contextCreateFromBinary) \
  X(contextCreateFromBinaryWithSignal) \
  X(contextCreateFromBinaryWithCallback) \
  X(contextCreateFromBinaryListAsync) \
  X(contextValidateBinary) \
  X(contextFree) \
  X(memRegister) \
  X(memDeRegister) \
  X(graphCreate) \
  X(graphSetConfig) \
  X(graphAddNode) \
  X(graphFinalize) \
  X(graphRetrieve) \
  X(graphExecute) \
  X(graphExecuteAsync) \
  X(tensorCreateContextTensor) \
  X(tensorCreateGraphTensor) \
  X(graphPrepareExecutionEnvironment) \
  X(graphReleaseExecutionEnvironment) \
  X(profileCreate) \
  X(profileSetConfig) \
  X(profileGetEvents) \
  X(profileFree) \
  X(deviceGetPlatformInfo) \
  X(deviceFreePlatformInfo) \
  X(deviceGetInfrastructure) \
  X(deviceCreate) \
  X(deviceSetConfig) \
  X(deviceGetInfo) \
  X(deviceFree) \
  X(signalCreate) \
  X(signalSetConfig) \
  X(signalTrigger) \
  X(signalFree) \
  X(globalConfigSet) \
  X(tensorUpdateGraphTensors) \
  X(tensorUpdateContextTensors) \
  X(contextGetBinarySectionSize) \
  X(contextGetBinarySection) \
  X(contextApplyBinarySection) \
  X(contextGetBinarySectionUpdate) \
  X(contextFreeBinarySectionUpdate) \
  X(contextFinalize) \
  X(contextGetIncrementalBinary) \
  X(contextReleaseIncrementalBinary) \
  X(contextAddToDlc) \
  X(graphValidate) \
  X(graphFreeValidationResult) \
  X(backendRegisterOpPackageFromBinary) \
  X(htpPerfCreatePowerConfigId) \
  X(htpPerfDestroyPowerConfigId) \
  X(htpPerfSetPowerConfig) \
  X(htpPerfSetMemoryConfig)

namespace qnn::trace {

// The recorded argument `name` of `args` if it is of `kind` (Value::Kind, or -1
// for any), else a Null value.
const Value& argOf(const Value& args, const char* name, int kind);

// The listed arguments of a call, in list order; false for a call without a list.
struct ArgSpec {
  const char* name;
  int kind;  // a Value::Kind, or -1 for any
};
bool listedArgs(uint32_t callId, const ArgSpec** args, size_t* count);

// True when an argument was recorded (of its listed kind).
inline bool present(const Value& arg) { return arg.kind != Value::Kind::Null; }

// Args<Call::x>: the typed view of a call's arguments (defined for the listed calls).
template <Call C>
struct Args;

namespace args_detail {
constexpr int kAny = -1;
constexpr int kHandle = int(Value::Kind::Handle), kUInt = int(Value::Kind::UInt), kString = int(Value::Kind::String),
              kBlob = int(Value::Kind::Blob), kList = int(Value::Kind::List), kStruct = int(Value::Kind::Struct);
}  // namespace args_detail

// An argument with its name, for handlers that treat every argument alike.
struct NamedArg {
  const char* name;
  const Value& value;
};

#define QNN_TRACE_ARG_MEMBER_(name, kind) const Value& name = argOf(recorded_, #name, args_detail::k##kind);
#define QNN_TRACE_ARG_NAMED_(name, kind) NamedArg{#name, name},
#define QNN_TRACE_ARG_COUNT_(name, kind) +1
#define QNN_TRACE_ARGS(member)                                                    \
  template <>                                                                     \
  struct Args<Call::member> {                                                     \
    explicit Args(const CallRecord& c) : recorded_(c.args) {}                     \
                                                                                  \
   private:                                                                       \
    const Value& recorded_;                                                       \
                                                                                  \
   public:                                                                        \
    QNN_TRACE_ARGS_##member(QNN_TRACE_ARG_MEMBER_)                                 \
    /* The arguments in list order. */                                            \
    std::array<NamedArg, 0 QNN_TRACE_ARGS_##member(QNN_TRACE_ARG_COUNT_)> named() const { \
      return {{QNN_TRACE_ARGS_##member(QNN_TRACE_ARG_NAMED_)}};                   \
    }                                                                             \
  };

QNN_TRACE_FOR_EACH_CALL_WITH_ARGS(QNN_TRACE_ARGS)

#undef QNN_TRACE_ARGS
#undef QNN_TRACE_ARG_MEMBER_
#undef QNN_TRACE_ARG_NAMED_
#undef QNN_TRACE_ARG_COUNT_

}  // namespace qnn::trace
