// The QnnSystemDlc_* entry points of libQnnSystem.so: open an OpenQNN DLC from a file
// or a buffer, compose its graphs into a context through the caller's QNN interface,
// list its tensor mappings, free it. Handles are keys in the core's HandleRegistry
// (never dereferenced pointers); no exception crosses the C boundary (guarded()).
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>

#include "System/QnnSystemDlc.h"
#include "dlc/system_dlc_hook.h"
#include "system/system_dlc.h"
#include "system/system_guard.h"

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
                        std::shared_ptr<const sdk::Logger> logger, const std::string& destinationDir,
                        QnnSystemDlc_Handle_t* dlcHandle) {
  if (!opened.isOk()) {
    // A file that is not a DLC, or a damaged one, is a malformed binary; a missing one an invalid argument.
    if (opened.code() != sdk::StatusCode::kInvalidArgument) opened = {sdk::StatusCode::kCorruptData, opened.message()};
    return toDlcError(entry, opened, logger.get());
  }
  *dlcHandle =
      sdk::handles().add(std::make_shared<SystemDlcObject>(std::move(file), std::move(logger), destinationDir));
  return QNN_SUCCESS;
}

// A destination directory hint, when given (non-null, non-empty), must be an existing directory.
sdk::Status checkDestinationDir(const char* dir) {
  if (!dir || !*dir) return sdk::Status::ok();
  struct stat st {};
  if (::stat(dir, &st) != 0 || !S_ISDIR(st.st_mode))
    return sdk::invalidArgument(std::string("destination directory '") + dir + "' does not exist");
  if (::access(dir, W_OK) != 0) return sdk::invalidArgument(std::string("destination directory '") + dir + "' is not writable");
  return sdk::Status::ok();
}

// Every create entry: the logger resolved, the arguments and the destination directory checked,
// the file opened (open: null for an empty DLC), a handle made.
template <typename Open>
Qnn_ErrorHandle_t create(const char* entry, Qnn_LogHandle_t logger, bool argumentsOk, const char* argumentsRule,
                         Open&& open, QnnSystemDlc_Handle_t* dlcHandle, const char* destinationDir = nullptr) {
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    bool badLogger = false;
    auto log = loggerOf(logger, &badLogger);
    if (badLogger) return toDlcError(entry, {sdk::StatusCode::kInvalidHandle, "invalid log handle"});
    if (!argumentsOk) return toDlcError(entry, sdk::invalidArgument(argumentsRule), log.get());
    sdk::Status dirOk = checkDestinationDir(destinationDir);
    if (!dirOk.isOk()) return toDlcError(entry, dirOk, log.get());
    std::unique_ptr<dlc::DlcFile> file;
    sdk::Status st = open(&file);
    return adopt(entry, st, std::move(file), log, destinationDir ? destinationDir : "", dlcHandle);
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}


// A sub-handle of a DLC (record, graph info, tensor info, quant params) of kind k, or null.
template <typename T>
std::shared_ptr<T> subLookup(const void* handle, sdk::HandleKind k) {
  return sdk::handles().get<T>(handle, k);
}

// The getters of one sub-handle kind: the handle looked up (INVALID_HANDLE when it is not a live
// handle of that kind: never made, freed, or its DLC freed), the out pointer checked, then fill.
template <typename T, typename Out, typename Fill>
Qnn_ErrorHandle_t subGetter(const char* entry, const void* handle, sdk::HandleKind k, const char* what, Out* out,
                            Fill&& fill) {
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto obj = subLookup<T>(handle, k);
    if (!obj) return toDlcError(entry, {sdk::StatusCode::kInvalidHandle, std::string("invalid ") + what + " handle"});
    if (!out) return toDlcError(entry, sdk::invalidArgument("the output pointer is null"));
    return toDlcError(entry, fill(*obj, out));
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

template <typename Out, typename Fill>
Qnn_ErrorHandle_t graphInfoGetter(const char* entry, QnnSystemDlc_GraphInfoHandle_t h, Out* out, Fill&& fill) {
  return subGetter<DlcGraphInfoObject>(entry, h, sdk::HandleKind::kSystemDlcGraphInfo, "composable graph info", out,
                                       std::forward<Fill>(fill));
}
template <typename Out, typename Fill>
Qnn_ErrorHandle_t tensorGetter(const char* entry, QnnSystemDlc_TensorInfoHandle_t h, Out* out, Fill&& fill) {
  return subGetter<DlcTensorInfoObject>(entry, h, sdk::HandleKind::kSystemDlcTensorInfo, "tensor info", out,
                                        std::forward<Fill>(fill));
}

const char* encodingName(Qnn_QuantizationEncoding_t e) {
  switch (e) {
    case QNN_QUANTIZATION_ENCODING_SCALE_OFFSET: return "SCALE_OFFSET";
    case QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET: return "AXIS_SCALE_OFFSET";
    case QNN_QUANTIZATION_ENCODING_BW_SCALE_OFFSET: return "BW_SCALE_OFFSET";
    case QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET: return "BW_AXIS_SCALE_OFFSET";
    case QNN_QUANTIZATION_ENCODING_BLOCKWISE_EXPANSION: return "BLOCKWISE_EXPANSION";
    case QNN_QUANTIZATION_ENCODING_VECTOR: return "VECTOR";
    case QNN_QUANTIZATION_ENCODING_BLOCK: return "BLOCK";
    default: return "UNDEFINED";
  }
}

// The number of scale/offset pairs of a per-axis encoding, for the AtIndex getters' range check.
uint64_t numScalesOf(const Qnn_QuantizeParams_t& q) {
  switch (q.quantizationEncoding) {
    case QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET: return q.axisScaleOffsetEncoding.numScaleOffsets;
    case QNN_QUANTIZATION_ENCODING_BW_AXIS_SCALE_OFFSET: return q.bwAxisScaleOffsetEncoding.numElements;
    default: return 1;
  }
}

// A quantization getter valid only under the `wanted` encoding (the header's rule: another active
// encoding, an undefined one, or an index past the scales is INVALID_ARGUMENT).
template <typename Out, typename Value>
Qnn_ErrorHandle_t quantGetter(const char* entry, QnnSystemDlc_QuantParamsHandle_t h, Qnn_QuantizationEncoding_t wanted,
                              Out* out, Value&& value, int64_t index = -1) {
  return subGetter<DlcTensorInfoObject>(
      entry, h, sdk::HandleKind::kSystemDlcQuantParams, "quantization params", out,
      [&](const DlcTensorInfoObject& t, Out* o) -> sdk::Status {
        const Qnn_QuantizeParams_t& q = t.tensor->v1.quantizeParams;
        const Qnn_QuantizationEncoding_t active =
            q.encodingDefinition == QNN_DEFINITION_DEFINED ? q.quantizationEncoding : QNN_QUANTIZATION_ENCODING_UNDEFINED;
        if (active != wanted)
          return sdk::invalidArgument(std::string("tensor '") + t.tensor->v1.name + "' is quantized with " +
                                      encodingName(active) + ", not " + encodingName(wanted));
        if (index >= 0 && uint64_t(index) >= numScalesOf(q))
          return sdk::invalidArgument("index " + std::to_string(index) + " is past the " +
                                      std::to_string(numScalesOf(q)) + " scales of tensor '" + t.tensor->v1.name + "'");
        *o = value(q);
        return sdk::Status::ok();
      });
}

template <typename Out, typename Fill>
Qnn_ErrorHandle_t contextBinaryGetter(const char* entry, QnnSystemDlc_ContextBinaryInfoHandle_t h, Out* out, Fill&& fill) {
  return subGetter<DlcContextBinaryInfoObject>(entry, h, sdk::HandleKind::kSystemDlcContextBinaryInfo,
                                               "context binary info", out, std::forward<Fill>(fill));
}
template <typename Out, typename Fill>
Qnn_ErrorHandle_t contextGraphGetter(const char* entry, QnnSystemDlc_ContextGraphInfoHandle_t h, Out* out, Fill&& fill) {
  return subGetter<DlcContextGraphInfoObject>(entry, h, sdk::HandleKind::kSystemDlcContextGraphInfo, "context graph info",
                                              out, std::forward<Fill>(fill));
}

// A field the binary's info version does not have (the header: UNSUPPORTED_FEATURE).
sdk::Status absentField(const char* field, const char* versions) {
  return sdk::notSupported(std::string(field) + " is a field of " + versions +
                           " infos only; this binary's info is of another version");
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
    return toDlcError(entry, dlc->opMappings(opMappings, numOpMappings), dlc->logger());
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// Frees the handle and everything returned through it.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_free(QnnSystemDlc_Handle_t dlcHandle) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto removed = qnn::sdk::handles().remove(dlcHandle, qnn::sdk::HandleKind::kSystemDlc);
    if (!removed) return toDlcError(entry, qnn::system::invalidHandle());
    static_cast<qnn::system::SystemDlcObject*>(removed.get())->releaseSubHandles();
    return QNN_SUCCESS;
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

}  // extern "C"

// ---- System API 1.14 -------------------------------------------------------------------------

using qnn::system::DlcGraphInfoObject;
using qnn::system::DlcRecordObject;
using qnn::system::DlcTensorInfoObject;
using qnn::system::SystemDlcObject;
namespace sdk = qnn::sdk;
namespace dlc = qnn::dlc;

extern "C" {

// destinationDirectoryHint is required here (the header: must not be NULL); empty means none.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_createFromFileWithDestinationDir(Qnn_LogHandle_t logger, const char* dlcPath,
                                                                       const char* destinationDirectoryHint,
                                                                       QnnSystemDlc_Handle_t* dlcHandle) {
  return qnn::system::create(__func__, logger, dlcPath && destinationDirectoryHint && dlcHandle,
                             "dlcPath, destinationDirectoryHint and dlcHandle are required",
                             [&](std::unique_ptr<dlc::DlcFile>* file) { return dlc::DlcFile::open(dlcPath, file); },
                             dlcHandle, destinationDirectoryHint);
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_createFromBinaryWithDestinationDir(Qnn_LogHandle_t logger,
                                                                         const uint8_t* buffer,
                                                                         const Qnn_ContextBinarySize_t bufferSize,
                                                                         const char* destinationDirectoryHint,
                                                                         QnnSystemDlc_Handle_t* dlcHandle) {
  return qnn::system::create(__func__, logger, buffer && bufferSize > 0 && destinationDirectoryHint && dlcHandle,
                             "buffer, bufferSize, destinationDirectoryHint and dlcHandle are required",
                             [&](std::unique_ptr<dlc::DlcFile>* file) {
                               return dlc::DlcFile::openBuffer(buffer, bufferSize, "<buffer>", file);
                             },
                             dlcHandle, destinationDirectoryHint);
}

// An empty DLC (no graph yet): QnnContext_addToDlc fills it, QnnSystemDlc_save writes it. Nothing
// is written to the directory until a save (the DLC is kept in memory).
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_createWithDestinationDir(Qnn_LogHandle_t logger,
                                                                const char* destinationDirectoryHint,
                                                                QnnSystemDlc_Handle_t* dlcHandle) {
  return qnn::system::create(__func__, logger, dlcHandle != nullptr, "dlcHandle is required",
                             [](std::unique_ptr<dlc::DlcFile>*) { return sdk::Status::ok(); }, dlcHandle,
                             destinationDirectoryHint);
}

// A relative path is taken under the destination directory when the DLC has one.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_save(QnnSystemDlc_Handle_t dlcHandle, const char* path) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto d = qnn::system::lookup(dlcHandle);
    if (!d) return toDlcError(entry, qnn::system::invalidHandle());
    if (!path || !*path) return toDlcError(entry, sdk::invalidArgument("path is null or empty"), d->logger());
    return toDlcError(entry, d->save(path), d->logger());
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getBinarySize(QnnSystemDlc_Handle_t dlcHandle,
                                                     Qnn_SystemDlcBinarySize_t* binaryBufferSize) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto d = qnn::system::lookup(dlcHandle);
    if (!d) return toDlcError(entry, qnn::system::invalidHandle());
    if (!binaryBufferSize) return toDlcError(entry, sdk::invalidArgument("binaryBufferSize is null"), d->logger());
    auto file = d->current();
    if (!file) return toDlcError(entry, sdk::invalidArgument("the DLC has no graph yet"), d->logger());
    *binaryBufferSize = file->byteSize();
    return QNN_SUCCESS;
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// The DLC's bytes, exactly what QnnSystemDlc_save writes.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getBinary(QnnSystemDlc_Handle_t dlcHandle, uint8_t* binaryBuffer,
                                                 Qnn_SystemDlcBinarySize_t binaryBufferSize,
                                                 Qnn_SystemDlcBinarySize_t* writtenBufferSize) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto d = qnn::system::lookup(dlcHandle);
    if (!d) return toDlcError(entry, qnn::system::invalidHandle());
    if (!binaryBuffer || !writtenBufferSize)
      return toDlcError(entry, sdk::invalidArgument("binaryBuffer and writtenBufferSize are required"), d->logger());
    auto file = d->current();
    if (!file) return toDlcError(entry, sdk::invalidArgument("the DLC has no graph yet"), d->logger());
    if (binaryBufferSize < file->byteSize())
      return toDlcError(entry, sdk::invalidArgument("buffer of " + std::to_string(binaryBufferSize) +
                                                    " bytes is too small, the DLC has " +
                                                    std::to_string(file->byteSize())),
                        d->logger());
    std::memcpy(binaryBuffer, file->bytes(), size_t(file->byteSize()));
    *writtenBufferSize = file->byteSize();
    return QNN_SUCCESS;
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// Records (docs/dlc-format.md "Records"): none of that name gives a null handle and success.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getRecordByName(QnnSystemDlc_Handle_t dlcHandle, const char* recordName,
                                                       QnnSystemDlc_RecordHandle_t* recordHandle) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto d = qnn::system::lookup(dlcHandle);
    if (!d) return toDlcError(entry, qnn::system::invalidHandle());
    if (!recordName || !recordHandle)
      return toDlcError(entry, sdk::invalidArgument("recordName and recordHandle are required"), d->logger());
    return toDlcError(entry, d->recordByName(recordName, recordHandle), d->logger());
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// getMostOptimalContextBinary: at most one context binary (cache record) of the type.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getRecordsByType(QnnSystemDlc_Handle_t dlcHandle,
                                                        QnnSystemDlc_RecordType_t recordType,
                                                        uint8_t getMostOptimalContextBinary,
                                                        QnnSystemDlc_RecordHandle_t** recordHandles,
                                                        uint32_t* numRecordHandles) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto d = qnn::system::lookup(dlcHandle);
    if (!d) return toDlcError(entry, qnn::system::invalidHandle());
    if (!recordHandles || !numRecordHandles)
      return toDlcError(entry, sdk::invalidArgument("recordHandles and numRecordHandles are required"), d->logger());
    return toDlcError(entry, d->recordsByType(recordType, getMostOptimalContextBinary != 0, recordHandles, numRecordHandles), d->logger());
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getRecordDataSize(QnnSystemDlc_RecordHandle_t recordHandle, uint64_t* dataSize) {
  return qnn::system::subGetter<DlcRecordObject>(__func__, recordHandle, sdk::HandleKind::kSystemDlcRecord, "record",
                                                 dataSize, [](const DlcRecordObject& r, uint64_t* o) {
                                                   *o = r.size;
                                                   return sdk::Status::ok();
                                                 });
}

// The record's bytes in place (the raw weights point into the DLC's mapping), valid until the
// record or its DLC is freed.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_readRecordDataMemoryMapped(QnnSystemDlc_RecordHandle_t recordHandle,
                                                                  const uint8_t** data, uint64_t* dataSize) {
  const char* entry = __func__;
  if (data && !dataSize)
    return toDlcError(entry, sdk::invalidArgument("dataSize is null"));
  return qnn::system::subGetter<DlcRecordObject>(entry, recordHandle, sdk::HandleKind::kSystemDlcRecord, "record",
                                                 data, [&](const DlcRecordObject& r, const uint8_t** o) {
                                                   *o = r.data;
                                                   *dataSize = r.size;
                                                   return sdk::Status::ok();
                                                 });
}

// Frees the handle only; the record stays in the DLC.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_freeRecord(QnnSystemDlc_RecordHandle_t recordHandle) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    if (!sdk::handles().remove(recordHandle, sdk::HandleKind::kSystemDlcRecord))
      return toDlcError(entry, {sdk::StatusCode::kInvalidHandle, "invalid record handle (freed, or its DLC freed)"});
    return QNN_SUCCESS;
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// For a record read in place from a mapped file, the range's whole pages are dropped from memory
// (read again from the file if touched); a derived record is one small allocation, released with
// the record. The range must lie within the record; size 0 is INVALID_ARGUMENT.
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_freeRecordRange(QnnSystemDlc_RecordHandle_t recordHandle, uint64_t offset,
                                                       uint64_t size) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto r = qnn::system::subLookup<DlcRecordObject>(recordHandle, sdk::HandleKind::kSystemDlcRecord);
    if (!r) return toDlcError(entry, {sdk::StatusCode::kInvalidHandle, "invalid record handle"});
    if (size == 0 || offset > r->size || size > r->size - offset)
      return toDlcError(entry, sdk::invalidArgument("range [" + std::to_string(offset) + ", +" + std::to_string(size) +
                                                    ") is empty or outside the record's " + std::to_string(r->size) +
                                                    " bytes"));
    if (r->inFile) r->file->releasePages(r->data + offset, size);
    return QNN_SUCCESS;
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getComposableGraphInfoHandles(QnnSystemDlc_Handle_t dlcHandle,
                                                                     QnnSystemDlc_GraphInfoHandle_t** graphInfoHandles,
                                                                     uint32_t* numGraphInfoHandles) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto d = qnn::system::lookup(dlcHandle);
    if (!d) return toDlcError(entry, qnn::system::invalidHandle());
    if (!graphInfoHandles || !numGraphInfoHandles)
      return toDlcError(entry, sdk::invalidArgument("graphInfoHandles and numGraphInfoHandles are required"),
                        d->logger());
    return toDlcError(entry, d->graphInfoHandles(graphInfoHandles, numGraphInfoHandles), d->logger());
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

// The context binaries QnnContext_addToDlc kept (none, with success, for a DLC without).
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextBinaryInfoHandles(
    QnnSystemDlc_Handle_t dlcHandle, QnnSystemDlc_ContextBinaryInfoHandle_t** contextBinaryInfoHandles,
    uint32_t* numContextBinaryInfoHandles) {
  const char* entry = __func__;
  return guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto d = qnn::system::lookup(dlcHandle);
    if (!d) return toDlcError(entry, qnn::system::invalidHandle());
    if (!contextBinaryInfoHandles || !numContextBinaryInfoHandles)
      return toDlcError(entry, sdk::invalidArgument("contextBinaryInfoHandles and numContextBinaryInfoHandles are "
                                                    "required"), d->logger());
    return toDlcError(entry, d->contextBinaryInfoHandles(contextBinaryInfoHandles, numContextBinaryInfoHandles),
                      d->logger());
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getComposableGraphInfo(QnnSystemDlc_GraphInfoHandle_t graphInfoHandle,
                                                              const QnnSystemDlc_ComposableGraphInfo_t** graphInfo) {
  return qnn::system::graphInfoGetter(__func__, graphInfoHandle, graphInfo,
                                      [](const DlcGraphInfoObject& g, const QnnSystemDlc_ComposableGraphInfo_t** o) {
                                        *o = &g.info;
                                        return sdk::Status::ok();
                                      });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getComposableGraphInfoGraphName(QnnSystemDlc_GraphInfoHandle_t graphInfoHandle,
                                                                       const char** graphName) {
  return qnn::system::graphInfoGetter(__func__, graphInfoHandle, graphName, [](const DlcGraphInfoObject& g, const char** o) {
    *o = g.graph->name.c_str();
    return sdk::Status::ok();
  });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getComposableGraphInfoNumInputTensors(
    QnnSystemDlc_GraphInfoHandle_t graphInfoHandle, uint32_t* numInputTensors) {
  return qnn::system::graphInfoGetter(__func__, graphInfoHandle, numInputTensors, [](const DlcGraphInfoObject& g, uint32_t* o) {
    *o = uint32_t(g.inputHandles.size());
    return sdk::Status::ok();
  });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getComposableGraphInfoNumOutputTensors(
    QnnSystemDlc_GraphInfoHandle_t graphInfoHandle, uint32_t* numOutputTensors) {
  return qnn::system::graphInfoGetter(__func__, graphInfoHandle, numOutputTensors, [](const DlcGraphInfoObject& g, uint32_t* o) {
    *o = uint32_t(g.outputHandles.size());
    return sdk::Status::ok();
  });
}

static sdk::Status tensorAt(const std::vector<void*>& handles, uint32_t index, const char* what, void** out) {
  if (index >= handles.size())
    return sdk::invalidArgument(std::string(what) + " index " + std::to_string(index) + " is past the graph's " +
                                std::to_string(handles.size()));
  *out = handles[index];
  return sdk::Status::ok();
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getGraphInfoInputTensorInfo(QnnSystemDlc_GraphInfoHandle_t graphInfoHandle,
                                                                   uint32_t index,
                                                                   QnnSystemDlc_TensorInfoHandle_t* tensorHandle) {
  return qnn::system::graphInfoGetter(__func__, graphInfoHandle, tensorHandle, [&](const DlcGraphInfoObject& g, void** o) {
    return tensorAt(g.inputHandles, index, "input", o);
  });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getGraphInfoOutputTensorInfo(QnnSystemDlc_GraphInfoHandle_t graphInfoHandle,
                                                                    uint32_t index,
                                                                    QnnSystemDlc_TensorInfoHandle_t* tensorHandle) {
  return qnn::system::graphInfoGetter(__func__, graphInfoHandle, tensorHandle, [&](const DlcGraphInfoObject& g, void** o) {
    return tensorAt(g.outputHandles, index, "output", o);
  });
}

// A tensor info getter that copies one value of the DLC tensor.
#define QNN_DLC_TENSOR_GETTER_(Name, OutType, expr)                                                              \
  QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getTensorInfo##Name(QnnSystemDlc_TensorInfoHandle_t tensorHandle,     \
                                                             OutType* out) {                                   \
    return qnn::system::tensorGetter(__func__, tensorHandle, out, [](const DlcTensorInfoObject& t, OutType* o) { \
      *o = (expr);                                                                                              \
      return sdk::Status::ok();                                                                                 \
    });                                                                                                         \
  }
QNN_DLC_TENSOR_GETTER_(Name, const char*, t.tensor->v1.name)
// A composable graph's tensor: its 1-based position in the graph's tensor table (a DLC tensor
// has no backend id until composed); a context binary's: the id the backend gave it.
QNN_DLC_TENSOR_GETTER_(Id, uint32_t, t.tensor->v1.id)
QNN_DLC_TENSOR_GETTER_(Type, Qnn_TensorType_t, t.tensor->v1.type)
QNN_DLC_TENSOR_GETTER_(DataFormat, Qnn_TensorDataFormat_t, t.tensor->v1.dataFormat)
QNN_DLC_TENSOR_GETTER_(DataType, Qnn_DataType_t, t.tensor->v1.dataType)
QNN_DLC_TENSOR_GETTER_(Rank, uint32_t, t.tensor->v1.rank)
QNN_DLC_TENSOR_GETTER_(QuantParams, QnnSystemDlc_QuantParamsHandle_t, t.quantHandle)
#undef QNN_DLC_TENSOR_GETTER_

// dimensions: the caller's array of rank entries (QnnSystemDlc_getTensorInfoRank).
QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getTensorInfoDimensions(QnnSystemDlc_TensorInfoHandle_t tensorHandle,
                                                               uint32_t* dimensions) {
  return qnn::system::tensorGetter(__func__, tensorHandle, dimensions, [](const DlcTensorInfoObject& t, uint32_t* o) {
    std::copy(t.tensor->v1.dimensions, t.tensor->v1.dimensions + t.tensor->v1.rank, o);
    return sdk::Status::ok();
  });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getQuantParamsEncodingDefinition(QnnSystemDlc_QuantParamsHandle_t quantParamsHandle,
                                                                        Qnn_Definition_t* encodingDefinition) {
  return qnn::system::subGetter<DlcTensorInfoObject>(
      __func__, quantParamsHandle, sdk::HandleKind::kSystemDlcQuantParams, "quantization params", encodingDefinition,
      [](const DlcTensorInfoObject& t, Qnn_Definition_t* o) {
        *o = t.tensor->v1.quantizeParams.encodingDefinition;
        return sdk::Status::ok();
      });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getQuantParamsEncoding(QnnSystemDlc_QuantParamsHandle_t quantParamsHandle,
                                                              Qnn_QuantizationEncoding_t* encoding) {
  return qnn::system::subGetter<DlcTensorInfoObject>(
      __func__, quantParamsHandle, sdk::HandleKind::kSystemDlcQuantParams, "quantization params", encoding,
      [](const DlcTensorInfoObject& t, Qnn_QuantizationEncoding_t* o) {
        const Qnn_QuantizeParams_t& q = t.tensor->v1.quantizeParams;
        *o = q.encodingDefinition == QNN_DEFINITION_DEFINED ? q.quantizationEncoding : QNN_QUANTIZATION_ENCODING_UNDEFINED;
        return sdk::Status::ok();
      });
}

// A quantization getter: valid under one encoding only, `expr` over q (Qnn_QuantizeParams_t) and,
// for the AtIndex getters, `index`.
#define QNN_DLC_QUANT_GETTER_(Name, OutType, encoding, expr)                                                    \
  QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getQuantParams##Name(QnnSystemDlc_QuantParamsHandle_t quantParamsHandle, \
                                                              OutType* out) {                                   \
    return qnn::system::quantGetter(__func__, quantParamsHandle, QNN_QUANTIZATION_ENCODING_##encoding, out,    \
                                    [](const Qnn_QuantizeParams_t& q) { return OutType(expr); });              \
  }
#define QNN_DLC_QUANT_AT_GETTER_(Name, OutType, encoding, expr)                                                 \
  QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getQuantParams##Name(QnnSystemDlc_QuantParamsHandle_t quantParamsHandle, \
                                                              uint32_t index, OutType* out) {                   \
    return qnn::system::quantGetter(                                                                            \
        __func__, quantParamsHandle, QNN_QUANTIZATION_ENCODING_##encoding, out,                                 \
        [&](const Qnn_QuantizeParams_t& q) { return OutType(expr); }, int64_t(index));                          \
  }
QNN_DLC_QUANT_GETTER_(ScaleOffsetScale, float, SCALE_OFFSET, q.scaleOffsetEncoding.scale)
QNN_DLC_QUANT_GETTER_(ScaleOffsetOffset, int32_t, SCALE_OFFSET, q.scaleOffsetEncoding.offset)
QNN_DLC_QUANT_GETTER_(BwScaleOffsetBitwidth, uint32_t, BW_SCALE_OFFSET, q.bwScaleOffsetEncoding.bitwidth)
QNN_DLC_QUANT_GETTER_(BwScaleOffsetScale, float, BW_SCALE_OFFSET, q.bwScaleOffsetEncoding.scale)
QNN_DLC_QUANT_GETTER_(BwScaleOffsetOffset, int32_t, BW_SCALE_OFFSET, q.bwScaleOffsetEncoding.offset)
QNN_DLC_QUANT_GETTER_(AxisScaleOffsetAxis, int32_t, AXIS_SCALE_OFFSET, q.axisScaleOffsetEncoding.axis)
QNN_DLC_QUANT_GETTER_(AxisScaleOffsetNumScaleOffsets, uint32_t, AXIS_SCALE_OFFSET,
                      q.axisScaleOffsetEncoding.numScaleOffsets)
QNN_DLC_QUANT_AT_GETTER_(AxisScaleOffsetScaleAtIndex, float, AXIS_SCALE_OFFSET,
                         q.axisScaleOffsetEncoding.scaleOffset[index].scale)
QNN_DLC_QUANT_AT_GETTER_(AxisScaleOffsetOffsetAtIndex, int32_t, AXIS_SCALE_OFFSET,
                         q.axisScaleOffsetEncoding.scaleOffset[index].offset)
QNN_DLC_QUANT_GETTER_(BwAxisScaleOffsetBitwidth, uint32_t, BW_AXIS_SCALE_OFFSET, q.bwAxisScaleOffsetEncoding.bitwidth)
QNN_DLC_QUANT_GETTER_(BwAxisScaleOffsetAxis, int32_t, BW_AXIS_SCALE_OFFSET, q.bwAxisScaleOffsetEncoding.axis)
QNN_DLC_QUANT_GETTER_(BwAxisScaleOffsetNumElements, uint32_t, BW_AXIS_SCALE_OFFSET,
                      q.bwAxisScaleOffsetEncoding.numElements)
QNN_DLC_QUANT_AT_GETTER_(BwAxisScaleOffsetScaleAtIndex, float, BW_AXIS_SCALE_OFFSET,
                         q.bwAxisScaleOffsetEncoding.scales[index])
QNN_DLC_QUANT_AT_GETTER_(BwAxisScaleOffsetOffsetAtIndex, int32_t, BW_AXIS_SCALE_OFFSET,
                         q.bwAxisScaleOffsetEncoding.offsets ? q.bwAxisScaleOffsetEncoding.offsets[index] : 0)
#undef QNN_DLC_QUANT_AT_GETTER_
#undef QNN_DLC_QUANT_GETTER_

// Context binaries kept in the DLC (QnnContext_addToDlc): their info as QnnSystemContext_getBinaryInfo
// gives it (version 2 with graph info 1 for CPU binaries, version 3 with graph info 3 for HTP ones); a
// field the binary's info version lacks is UNSUPPORTED_FEATURE, as the header says.
using qnn::system::DlcContextBinaryInfoObject;
using qnn::system::DlcContextGraphInfoObject;
#define QNN_DLC_CBI_GETTER_(Name, OutType, body)                                                                 \
  QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextBinaryInfo##Name(                                           \
      QnnSystemDlc_ContextBinaryInfoHandle_t contextBinaryInfoHandle, OutType* out) {                          \
    return qnn::system::contextBinaryGetter(__func__, contextBinaryInfoHandle, out,                            \
                                            [&](const DlcContextBinaryInfoObject& c, OutType* o) -> sdk::Status { \
                                              const qnn::system::BinaryInfoView v = qnn::system::viewOf(*c.info); \
                                              (void)v, (void)o;                                                 \
                                              body                                                              \
                                            });                                                                 \
  }
#define QNN_DLC_VALUE_(expr) \
  *o = (expr);               \
  return sdk::Status::ok();
// A field of some info versions only: absent from this binary's is UNSUPPORTED_FEATURE (the header).
#define QNN_DLC_VERSIONED_(present, expr, field, versions) \
  if (!(present)) return qnn::system::absentField(field, versions); \
  QNN_DLC_VALUE_(expr)
QNN_DLC_CBI_GETTER_(BackendId, uint32_t, QNN_DLC_VALUE_(v.backendId))
QNN_DLC_CBI_GETTER_(BuildId, const char*, QNN_DLC_VALUE_(v.buildId))
QNN_DLC_CBI_GETTER_(SocVersion, const char*, QNN_DLC_VALUE_(v.socVersion))
QNN_DLC_CBI_GETTER_(ContextBlobSize, uint64_t, QNN_DLC_VALUE_(v.contextBlobSize))
QNN_DLC_CBI_GETTER_(NumContextTensors, uint32_t, QNN_DLC_VALUE_(v.numContextTensors))
QNN_DLC_CBI_GETTER_(NumGraphs, uint32_t, QNN_DLC_VALUE_(v.numGraphs))
QNN_DLC_CBI_GETTER_(HwInfoBlobSize, uint32_t,
                    QNN_DLC_VERSIONED_(v.v1, v.v1->hwInfoBlobSize, "hwInfoBlobSize", "binary info version 1 and 2"))
QNN_DLC_CBI_GETTER_(HwInfoBlob, void*,
                    QNN_DLC_VERSIONED_(v.v1, v.v1->hwInfoBlob, "hwInfoBlob", "binary info version 1 and 2"))
QNN_DLC_CBI_GETTER_(SocModel, uint32_t, QNN_DLC_VERSIONED_(v.v3, v.v3->socModel, "socModel", "binary info version 3"))
QNN_DLC_CBI_GETTER_(ContextMetadataSize, uint32_t,
                    QNN_DLC_VERSIONED_(v.v3, v.v3->contextMetadataSize, "contextMetadataSize", "binary info version 3"))
QNN_DLC_CBI_GETTER_(ContextMetadata, void*,
                    QNN_DLC_VERSIONED_(v.v3, v.v3->contextMetadata, "contextMetadata", "binary info version 3"))
#undef QNN_DLC_CBI_GETTER_

// The three-part versions of a context binary's info (the hardware-info blob's: versions 1 and 2 only).
#define QNN_DLC_CBI_VERSION_GETTER_(Name, field, present, versions)                                             \
  QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextBinaryInfo##Name(                                           \
      QnnSystemDlc_ContextBinaryInfoHandle_t contextBinaryInfoHandle, uint32_t* major, uint32_t* minor,        \
      uint32_t* patch) {                                                                                        \
    if (major && (!minor || !patch))                                                                            \
      return toDlcError(__func__, sdk::invalidArgument("major, minor and patch are required"));                 \
    return qnn::system::contextBinaryGetter(__func__, contextBinaryInfoHandle, major,                          \
                                            [&](const DlcContextBinaryInfoObject& c, uint32_t* o) -> sdk::Status { \
                                              const qnn::system::BinaryInfoView v = qnn::system::viewOf(*c.info); \
                                              if (!(present)) return qnn::system::absentField(#Name, versions);  \
                                              const Qnn_Version_t& ver = field;                                 \
                                              *o = ver.major, *minor = ver.minor, *patch = ver.patch;           \
                                              return sdk::Status::ok();                                         \
                                            });                                                                 \
  }
QNN_DLC_CBI_VERSION_GETTER_(CoreApiVersion, v.coreApiVersion, true, "")
QNN_DLC_CBI_VERSION_GETTER_(BackendApiVersion, v.backendApiVersion, true, "")
QNN_DLC_CBI_VERSION_GETTER_(HwInfoBlobVersion, v.v1->hwInfoBlobVersion, v.v1, "binary info version 1 and 2")
QNN_DLC_CBI_VERSION_GETTER_(ContextBlobVersion, v.contextBlobVersion, true, "")
#undef QNN_DLC_CBI_VERSION_GETTER_

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextBinaryInfo(QnnSystemDlc_ContextBinaryInfoHandle_t contextBinaryInfoHandle,
                                                            const QnnSystemContext_BinaryInfo_t** binaryInfo) {
  return qnn::system::contextBinaryGetter(__func__, contextBinaryInfoHandle, binaryInfo,
                                          [](const DlcContextBinaryInfoObject& c, const QnnSystemContext_BinaryInfo_t** o) {
                                            *o = c.info;
                                            return sdk::Status::ok();
                                          });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextBinaryInfoContextTensorInfo(
    QnnSystemDlc_ContextBinaryInfoHandle_t contextBinaryInfoHandle, uint32_t index,
    QnnSystemDlc_TensorInfoHandle_t* tensorInfoHandle) {
  return qnn::system::contextBinaryGetter(__func__, contextBinaryInfoHandle, tensorInfoHandle,
                                          [&](const DlcContextBinaryInfoObject& c, void** o) {
                                            return tensorAt(c.contextTensorHandles, index, "context tensor", o);
                                          });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextGraphInfoHandle(
    QnnSystemDlc_ContextBinaryInfoHandle_t contextBinaryInfoHandle, uint32_t index,
    QnnSystemDlc_ContextGraphInfoHandle_t* contextGraphInfoHandle) {
  return qnn::system::contextBinaryGetter(__func__, contextBinaryInfoHandle, contextGraphInfoHandle,
                                          [&](const DlcContextBinaryInfoObject& c, void** o) {
                                            return tensorAt(c.graphHandles, index, "graph", o);
                                          });
}

#define QNN_DLC_CGI_GETTER_(Name, OutType, body)                                                                 \
  QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextGraphInfo##Name(                                            \
      QnnSystemDlc_ContextGraphInfoHandle_t contextGraphInfoHandle, OutType* out) {                            \
    return qnn::system::contextGraphGetter(__func__, contextGraphInfoHandle, out,                              \
                                           [&](const DlcContextGraphInfoObject& g, OutType* o) -> sdk::Status { \
                                             const QnnSystemContext_GraphInfoV1_t& v = g.graph->graphInfoV1;    \
                                             (void)v, (void)o;                                                  \
                                             body                                                               \
                                           });                                                                  \
  }
QNN_DLC_CGI_GETTER_(GraphName, const char*, QNN_DLC_VALUE_(v.graphName))
QNN_DLC_CGI_GETTER_(NumInputTensors, uint32_t, QNN_DLC_VALUE_(v.numGraphInputs))
QNN_DLC_CGI_GETTER_(NumOutputTensors, uint32_t, QNN_DLC_VALUE_(v.numGraphOutputs))
QNN_DLC_CGI_GETTER_(NumUpdateableTensors, uint32_t,
                    QNN_DLC_VERSIONED_(g.graph->version != QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1,
                                       g.graph->graphInfoV2.numUpdateableTensors, "numUpdateableTensors",
                                       "graph info version 2 and 3"))
QNN_DLC_CGI_GETTER_(GraphBlobInfoSize, uint32_t,
                    QNN_DLC_VERSIONED_(g.graph->version == QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3,
                                       g.graph->graphInfoV3.graphBlobInfoSize, "graphBlobInfoSize", "graph info version 3"))
QNN_DLC_CGI_GETTER_(GraphBlobInfo, void*,
                    QNN_DLC_VERSIONED_(g.graph->version == QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3,
                                       g.graph->graphInfoV3.graphBlobInfo, "graphBlobInfo", "graph info version 3"))
QNN_DLC_CGI_GETTER_(StartOpIndex, uint32_t,
                    QNN_DLC_VERSIONED_(g.graph->version == QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3,
                                       g.graph->graphInfoV3.startOpIndex, "startOpIndex", "graph info version 3"))
QNN_DLC_CGI_GETTER_(EndOpIndex, uint32_t,
                    QNN_DLC_VERSIONED_(g.graph->version == QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_3,
                                       g.graph->graphInfoV3.endOpIndex, "endOpIndex", "graph info version 3"))
#undef QNN_DLC_CGI_GETTER_
#undef QNN_DLC_VERSIONED_
#undef QNN_DLC_VALUE_

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextGraphInfoInputTensorInfo(
    QnnSystemDlc_ContextGraphInfoHandle_t contextGraphInfoHandle, uint32_t index,
    QnnSystemDlc_TensorInfoHandle_t* tensorInfoHandle) {
  return qnn::system::contextGraphGetter(__func__, contextGraphInfoHandle, tensorInfoHandle,
                                         [&](const DlcContextGraphInfoObject& g, void** o) {
                                           return tensorAt(g.inputHandles, index, "input", o);
                                         });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextGraphInfoOutputTensorInfo(
    QnnSystemDlc_ContextGraphInfoHandle_t contextGraphInfoHandle, uint32_t index,
    QnnSystemDlc_TensorInfoHandle_t* tensorInfoHandle) {
  return qnn::system::contextGraphGetter(__func__, contextGraphInfoHandle, tensorInfoHandle,
                                         [&](const DlcContextGraphInfoObject& g, void** o) {
                                           return tensorAt(g.outputHandles, index, "output", o);
                                         });
}

QNN_API Qnn_ErrorHandle_t QnnSystemDlc_getContextGraphInfoUpdateableTensorInfo(
    QnnSystemDlc_ContextGraphInfoHandle_t contextGraphInfoHandle, uint32_t index,
    QnnSystemDlc_TensorInfoHandle_t* tensorInfoHandle) {
  return qnn::system::contextGraphGetter(__func__, contextGraphInfoHandle, tensorInfoHandle,
                                         [&](const DlcContextGraphInfoObject& g, void** o) {
                                           if (g.graph->version == QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1)
                                             return qnn::system::absentField("updateableTensors",
                                                                             "graph info version 2 and 3");
                                           return tensorAt(g.updateableHandles, index, "updateable tensor", o);
                                         });
}

// The private hook of QnnContext_addToDlc (dlc/system_dlc_hook.h).
QNN_API Qnn_ErrorHandle_t OpenQnnSystem_addGraphsToDlc(QnnSystemDlc_Handle_t dlcHandle, const uint8_t* bytes,
                                                       uint64_t size, const char* origin, char* message,
                                                       size_t messageSize) {
  static_assert(std::is_same_v<decltype(&OpenQnnSystem_addGraphsToDlc), OpenQnnSystem_AddGraphsToDlcFn_t>);
  const char* entry = "QnnContext_addToDlc";
  std::string why;
  const Qnn_ErrorHandle_t err = guarded(entry, [&]() -> Qnn_ErrorHandle_t {
    auto d = qnn::system::lookup(dlcHandle);
    sdk::Status st = !d ? sdk::Status{sdk::StatusCode::kInvalidHandle,
                                      "the DLC handle is not a live QnnSystemDlc handle of this process's "
                                      "libQnnSystem.so (never made, or freed)"}
                   : !bytes || size == 0 ? sdk::invalidArgument("no DLC bytes")
                                         : d->addGraphs(bytes, size, origin ? origin : "<backend>");
    why = st.message();
    return toDlcError(entry, st, d ? d->logger() : nullptr);
  }, QNN_SYSTEM_DLC_ERROR_OPERATION_FAILED);
  if (err != QNN_SUCCESS && message && messageSize > 0) {
    std::strncpy(message, why.c_str(), messageSize - 1);
    message[messageSize - 1] = '\0';
  }
  return err;
}

}  // extern "C"
