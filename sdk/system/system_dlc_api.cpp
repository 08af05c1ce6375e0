// The QnnSystemDlc_* entry points of libQnnSystem.so: open an OpenQNN DLC from a file
// or a buffer, compose its graphs into a context through the caller's QNN interface,
// list its tensor mappings, free it. Handles are keys in the core's HandleRegistry
// (never dereferenced pointers); no exception crosses the C boundary (guarded()).
#include "System/QnnSystemDlc.h"
#include "system_dlc.h"
#include "system_guard.h"

namespace qnn::system {
namespace {

Qnn_ErrorHandle_t toDlcError(const char* entry, const sdk::Status& s, const sdk::Logger* logger = nullptr) {
  static constexpr ComponentErrors kDlcErrors{QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT, QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE,
                                             QNN_SYSTEM_DLC_ERROR_MALFORMED_BINARY,
                                             QNN_SYSTEM_DLC_ERROR_UNSUPPORTED_FEATURE,
                                             QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED};
  return toComponentError(entry, s, kDlcErrors, logger);
}

std::shared_ptr<SystemDlcObject> lookup(QnnSystemDlc_Handle_t handle) {
  return sdk::handles().get<SystemDlcObject>(handle, sdk::HandleKind::kSystemDlc);
}

sdk::Status invalidHandle() { return {sdk::StatusCode::kInvalidHandle, "invalid system DLC handle"}; }

// The Logger of a QnnSystemLog handle; null for a null handle. *bad when the handle is not a log's.
std::shared_ptr<const sdk::Logger> loggerOf(Qnn_LogHandle_t logger, bool* bad) {
  auto l = logger ? sdk::handles().get<sdk::Logger>(logger, sdk::HandleKind::kLog) : nullptr;
  *bad = logger && !l;
  return l;
}

// A DLC that opens: a new handle in *dlcHandle (untouched on error).
Qnn_ErrorHandle_t adopt(const char* entry, sdk::Status opened, std::unique_ptr<dlc::DlcFile> file,
                        std::shared_ptr<const sdk::Logger> logger, QnnSystemDlc_Handle_t* dlcHandle) {
  if (!opened.isOk()) {
    // A file that is not a DLC, or a damaged one, is a malformed binary; a missing one an invalid argument.
    if (opened.code() != sdk::StatusCode::kInvalidArgument) opened = {sdk::StatusCode::kCorruptData, opened.message()};
    return toDlcError(entry, opened, logger.get());
  }
  *dlcHandle = sdk::handles().add(std::make_shared<SystemDlcObject>(std::move(file), std::move(logger)));
  return QNN_SUCCESS;
}

// Both create entries: the logger resolved, the arguments checked, the file opened, a handle made.
template <typename Open>
Qnn_ErrorHandle_t create(const char* entry, Qnn_LogHandle_t logger, bool argumentsOk, const char* argumentsRule,
                         Open&& open, QnnSystemDlc_Handle_t* dlcHandle) {
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    bool badLogger = false;
    auto log = loggerOf(logger, &badLogger);
    if (badLogger) return toDlcError(entry, {sdk::StatusCode::kInvalidHandle, "invalid log handle"});
    if (!argumentsOk) return toDlcError(entry, sdk::invalidArgument(argumentsRule), log.get());
    std::unique_ptr<dlc::DlcFile> file;
    sdk::Status st = open(&file);
    return adopt(entry, st, std::move(file), log, dlcHandle);
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

}  // namespace
}  // namespace qnn::system

using qnn::system::guarded;
using qnn::system::toDlcError;

extern "C" {

// logger: a QnnSystemLog handle (or null): this call's errors and later ones on the DLC handle go
// to it (and to stderr with QNN_LOG_TO_STDERR). A handle that is not a log's is INVALID_HANDLE.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_createFromFile(Qnn_LogHandle_t logger, const char* dlcPath,
                                                      QnnSystemDlc_Handle_t* dlcHandle) {
  return qnn::system::create(__func__, logger, dlcPath && dlcHandle, "dlcPath and dlcHandle are required",
                             [&](std::unique_ptr<qnn::dlc::DlcFile>* file) {
                               return qnn::dlc::DlcFile::open(dlcPath, file);
                             },
                             dlcHandle);
}

// The buffer is copied: the caller may free it once this returns.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_createFromBinary(Qnn_LogHandle_t logger, const uint8_t* buffer,
                                                        const Qnn_ContextBinarySize_t bufferSize,
                                                        QnnSystemDlc_Handle_t* dlcHandle) {
  return qnn::system::create(__func__, logger, buffer && bufferSize > 0 && dlcHandle,
                             "buffer, bufferSize and dlcHandle are required",
                             [&](std::unique_ptr<qnn::dlc::DlcFile>* file) {
                               return qnn::dlc::DlcFile::openBuffer(buffer, bufferSize, "<buffer>", file);
                             },
                             dlcHandle);
}

// *graphs (one info per graph of the DLC) is owned by dlcHandle until QnnSystemDlc_free. The graphs
// are created in `context` and not finalized: the caller finalizes them, as after QnnModel_composeGraphs.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_composeGraphs(QnnSystemDlc_Handle_t dlcHandle,
                                                     const QnnSystemDlc_GraphConfigInfo_t** graphConfigs,
                                                     const uint32_t numGraphConfigs, Qnn_BackendHandle_t backend,
                                                     Qnn_ContextHandle_t context, QnnInterface_t interface,
                                                     QnnSystemContext_GraphInfoVersion_t graphVersion,
                                                     QnnSystemContext_GraphInfo_t** graphs, uint32_t* numGraphs) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto dlc = qnn::system::lookup(dlcHandle);
    if (!dlc) return toDlcError(entry, qnn::system::invalidHandle());
    const qnn::sdk::Logger* log = dlc->logger();
    if (!graphs || !numGraphs || (numGraphConfigs > 0 && !graphConfigs))
      return toDlcError(entry, qnn::sdk::invalidArgument("graphs and numGraphs are required (and graphConfigs "
                                                         "when numGraphConfigs > 0)"), log);
    // The interface's function table must have the current layout (core API 2.14 and later).
    const Qnn_Version_t v = interface.apiVersion.coreApiVersion;
    if (v.major != QNN_API_VERSION_MAJOR || v.minor < 14)
      return toDlcError(entry, qnn::sdk::invalidArgument(
                                   "the interface is of core API " + std::to_string(v.major) + "." +
                                   std::to_string(v.minor) + "; composing needs a 2.14 or later function table"),
                        log);
    const QNN_INTERFACE_VER_TYPE& qnn = interface.QNN_INTERFACE_VER_NAME;
    if (!qnn.graphCreate || !qnn.tensorCreateGraphTensor || !qnn.graphAddNode)
      return toDlcError(entry, qnn::sdk::invalidArgument("the interface lacks graphCreate, tensorCreateGraphTensor "
                                                         "or graphAddNode"), log);
    return toDlcError(entry, dlc->compose(graphConfigs, numGraphConfigs, backend, context, qnn, graphVersion, graphs,
                                          numGraphs), log);
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// *opMappings (one per graph: tensor mappings from source-model names) is owned by dlcHandle.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getOpMappings(QnnSystemDlc_Handle_t dlcHandle,
                                                     const Qnn_OpMapping_t** opMappings, uint32_t* numOpMappings) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto dlc = qnn::system::lookup(dlcHandle);
    if (!dlc) return toDlcError(entry, qnn::system::invalidHandle());
    if (!opMappings || !numOpMappings)
      return toDlcError(entry, qnn::sdk::invalidArgument("opMappings and numOpMappings are required"), dlc->logger());
    dlc->opMappings(opMappings, numOpMappings);
    return QNN_SUCCESS;
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// Frees the handle and everything returned through it.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_free(QnnSystemDlc_Handle_t dlcHandle) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!qnn::sdk::handles().remove(dlcHandle, qnn::sdk::HandleKind::kSystemDlc))
      return toDlcError(entry, qnn::system::invalidHandle());
    return QNN_SUCCESS;
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

}  // extern "C"
