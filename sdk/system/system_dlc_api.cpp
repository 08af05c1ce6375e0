// The QnnSystemDlc_* entry points of libQnnSystem.so: open an OpenQNN DLC from a file
// or a buffer, compose its graphs into a context through the caller's QNN interface,
// list its tensor mappings, free it. Handles are keys in the core's HandleRegistry
// (never dereferenced pointers); no exception crosses the C boundary (guarded()).
#include "System/QnnSystemDlc.h"
#include "system_dlc.h"
#include "system_guard.h"

namespace qnn::system {
namespace {

Qnn_ErrorHandle_t toDlcError(const char* entry, const sdk::Status& s) {
  static constexpr ComponentErrors kDlcErrors{QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT, QNN_SYSTEM_DLC_ERROR_INVALID_HANDLE,
                                             QNN_SYSTEM_DLC_ERROR_MALFORMED_BINARY,
                                             QNN_SYSTEM_DLC_ERROR_UNSUPPORTED_FEATURE,
                                             QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED};
  return toComponentError(entry, s, kDlcErrors);
}

std::shared_ptr<SystemDlcObject> lookup(QnnSystemDlc_Handle_t handle) {
  return sdk::handles().get<SystemDlcObject>(handle, sdk::HandleKind::kSystemDlc);
}

sdk::Status invalidHandle() { return {sdk::StatusCode::kInvalidHandle, "invalid system DLC handle"}; }

// A DLC that opens: a new handle in *dlcHandle (untouched on error).
Qnn_ErrorHandle_t adopt(const char* entry, sdk::Status opened, std::unique_ptr<dlc::DlcFile> file,
                        QnnSystemDlc_Handle_t* dlcHandle) {
  if (!opened.isOk()) {
    // A file that is not a DLC, or a damaged one, is a malformed binary; a missing one an invalid argument.
    if (opened.code() != sdk::StatusCode::kInvalidArgument) opened = {sdk::StatusCode::kCorruptData, opened.message()};
    return toDlcError(entry, opened);
  }
  *dlcHandle = sdk::handles().add(std::make_shared<SystemDlcObject>(std::move(file)));
  return QNN_SUCCESS;
}

}  // namespace
}  // namespace qnn::system

using qnn::system::guarded;
using qnn::system::toDlcError;

extern "C" {

// logger is accepted for the signature; errors go to the library log (QNN_LOG_TO_STDERR).
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_createFromFile(Qnn_LogHandle_t /*logger*/, const char* dlcPath,
                                                      QnnSystemDlc_Handle_t* dlcHandle) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!dlcPath || !dlcHandle) return toDlcError(entry, qnn::sdk::invalidArgument("dlcPath and dlcHandle are required"));
    std::unique_ptr<qnn::dlc::DlcFile> file;
    qnn::sdk::Status st = qnn::dlc::DlcFile::open(dlcPath, &file);
    return qnn::system::adopt(entry, st, std::move(file), dlcHandle);
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// The buffer is copied: the caller may free it once this returns.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_createFromBinary(Qnn_LogHandle_t /*logger*/, const uint8_t* buffer,
                                                        const Qnn_ContextBinarySize_t bufferSize,
                                                        QnnSystemDlc_Handle_t* dlcHandle) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!buffer || bufferSize == 0 || !dlcHandle)
      return toDlcError(entry, qnn::sdk::invalidArgument("buffer, bufferSize and dlcHandle are required"));
    std::unique_ptr<qnn::dlc::DlcFile> file;
    qnn::sdk::Status st = qnn::dlc::DlcFile::openBuffer(buffer, bufferSize, "<buffer>", &file);
    return qnn::system::adopt(entry, st, std::move(file), dlcHandle);
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
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
    if (!graphs || !numGraphs || (numGraphConfigs > 0 && !graphConfigs))
      return toDlcError(entry, qnn::sdk::invalidArgument("graphs and numGraphs are required (and graphConfigs "
                                                         "when numGraphConfigs > 0)"));
    // The interface's function table must have the current layout (core API 2.14 and later).
    const Qnn_Version_t v = interface.apiVersion.coreApiVersion;
    if (v.major != QNN_API_VERSION_MAJOR || v.minor < 14)
      return toDlcError(entry, qnn::sdk::invalidArgument(
                                   "the interface is of core API " + std::to_string(v.major) + "." +
                                   std::to_string(v.minor) + "; composing needs a 2.14 or later function table"));
    const QNN_INTERFACE_VER_TYPE& qnn = interface.QNN_INTERFACE_VER_NAME;
    if (!qnn.graphCreate || !qnn.tensorCreateGraphTensor || !qnn.graphAddNode)
      return toDlcError(entry, qnn::sdk::invalidArgument("the interface lacks graphCreate, tensorCreateGraphTensor "
                                                         "or graphAddNode"));
    return toDlcError(entry, dlc->compose(graphConfigs, numGraphConfigs, backend, context, qnn, graphVersion, graphs,
                                          numGraphs));
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
      return toDlcError(entry, qnn::sdk::invalidArgument("opMappings and numOpMappings are required"));
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
