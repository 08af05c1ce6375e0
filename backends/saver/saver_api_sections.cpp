// Updateable tensors and binary sections: QnnTensor_update{Graph,Context}Tensors
// (the tensors with their data), QnnContext_getBinarySection{Size,}
// (the section written), applyBinarySection (the section applied), and
// getBinarySectionUpdate / freeBinarySectionUpdate (the backend's buffer is
// recorded by its address, which the free names). Without pass-through, updates
// and applies are accepted as recorded; what needs a backend to answer
// (sizes, sections, section updates) is QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE.
// Also here: contextFinalize and the incremental binary, the other context
// entries of the 2.32 table.
#include <cstdint>

#include "saver/saver_api.h"
#include "saver/saver_encode.h"
#include "saver/saver_forward.h"

namespace qnn::saver {

using trace::Value;

namespace {

// Records a client's array of tensor updates; false if the array is malformed.
bool updatesValue(Value& a, const Qnn_Tensor_t** tensors, uint64_t n) {
  if (!tensors || n == 0) return false;
  Value list = Value::list();
  for (uint64_t i = 0; i < n; ++i) {
    if (!tensors[i]) return false;
    list.push(tensorValue(tensors[i], true));
  }
  a.add("tensors", std::move(list));
  return true;
}

const void* rawSection(const QnnContext_Buffer_t* b, uint64_t* size) {
  if (!b || b->version != QNN_CONTEXT_BUFFER_VERSION_1 || b->v1.memType != QNN_CONTEXTMEMTYPE_RAW ||
      !b->v1.binaryBuf.data || !b->v1.binaryBuf.dataSize)
    return nullptr;
  *size = b->v1.binaryBuf.dataSize;
  return b->v1.binaryBuf.data;
}

}  // namespace

Qnn_ErrorHandle_t tensorUpdateGraphTensors(Qnn_GraphHandle_t graph, const Qnn_Tensor_t** tensors, uint64_t n) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "graph", graph, Kind::Graph, false, &real)) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    if (!updatesValue(a, tensors, n)) return QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM;
    return pass() ? forward(pass()->tensorUpdateGraphTensors, real, tensors, n) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t tensorUpdateContextTensors(Qnn_ContextHandle_t context, const Qnn_Tensor_t** tensors, uint64_t n) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* real = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &real)) return QNN_TENSOR_ERROR_INVALID_HANDLE;
    if (!updatesValue(a, tensors, n)) return QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM;
    return pass() ? forward(pass()->tensorUpdateContextTensors, real, tensors, n) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t contextGetBinarySectionSize(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                              QnnContext_SectionType_t section, Qnn_ContextBinarySize_t* size) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rc = nullptr, *rg = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &rc)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "graph", graph, Kind::Graph, true, &rg)) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("section", Value::uint(uint32_t(section)));
    if (!size) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    if (!pass()) return QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE;
    Qnn_ErrorHandle_t r = forward(pass()->contextGetBinarySectionSize, rc, rg, section, size);
    if (r == QNN_SUCCESS) a.add("size", Value::uint(*size));
    return r;
  });
}

Qnn_ErrorHandle_t contextGetBinarySection(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                          QnnContext_SectionType_t section, const QnnContext_Buffer_t* buffer,
                                          Qnn_ContextBinarySize_t* written, Qnn_ProfileHandle_t profile,
                                          Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rc = nullptr, *rg = nullptr, *rp = nullptr, *rs = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &rc)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "graph", graph, Kind::Graph, true, &rg)) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("section", Value::uint(uint32_t(section)));
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    uint64_t capacity = 0;
    if (!rawSection(buffer, &capacity) || !written) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("bufferSize", Value::uint(capacity));
    if (!pass()) return QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE;
    Qnn_ErrorHandle_t r = forward(pass()->contextGetBinarySection, rc, rg, section, buffer, written, rp, rs);
    if (r == QNN_SUCCESS) {
      a.add("writtenBufferSize", Value::uint(*written));
      a.add("binarySection", SaverState::get().blob(buffer->v1.binaryBuf.data, *written));
    }
    return r;
  });
}

Qnn_ErrorHandle_t contextApplyBinarySection(Qnn_ContextHandle_t context, Qnn_GraphHandle_t graph,
                                            QnnContext_SectionType_t section, const QnnContext_Buffer_t* buffer,
                                            Qnn_ProfileHandle_t profile, Qnn_SignalHandle_t signal) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rc = nullptr, *rg = nullptr, *rp = nullptr, *rs = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &rc)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "graph", graph, Kind::Graph, true, &rg)) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("section", Value::uint(uint32_t(section)));
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    uint64_t size = 0;
    const void* data = rawSection(buffer, &size);
    if (!data) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("binarySection", SaverState::get().blob(data, size));
    return pass() ? forward(pass()->contextApplyBinarySection, rc, rg, section, buffer, rp, rs) : QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t contextGetBinarySectionUpdate(const QnnContext_Buffer_t* buffer, const QnnContext_Buffer_t* auxiliary,
                                                const Qnn_Tensor_t** tensors, uint64_t n, uint8_t keepUpdatable,
                                                Qnn_LogHandle_t logger, Qnn_ProfileHandle_t profile,
                                                Qnn_SignalHandle_t signal, QnnContext_Buffer_t* update) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rl = nullptr, *rp = nullptr, *rs = nullptr;
    if (!useHandle(a, "logger", logger, Kind::Log, true, &rl)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "signal", signal, Kind::Signal, true, &rs)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    uint64_t size = 0;
    const void* data = rawSection(buffer, &size);
    if (!data || auxiliary || !update || !updatesValue(a, tensors, n)) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    a.add("binarySection", SaverState::get().blob(data, size));
    a.add("keepUpdatable", Value::uint(keepUpdatable));
    if (!pass()) return QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE;
    Qnn_ErrorHandle_t r =
        forward(pass()->contextGetBinarySectionUpdate, buffer, auxiliary, tensors, n, keepUpdatable, rl, rp, rs, update);
    if (r == QNN_SUCCESS && update->version == QNN_CONTEXT_BUFFER_VERSION_1)
      a.add("update", Value::uint(reinterpret_cast<uintptr_t>(update->v1.binaryBuf.data)));
    return r;
  });
}

Qnn_ErrorHandle_t contextFreeBinarySectionUpdate(QnnContext_Buffer_t update, Qnn_LogHandle_t logger) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* rl = nullptr;
    if (!useHandle(a, "logger", logger, Kind::Log, true, &rl)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    a.add("update", Value::uint(update.version == QNN_CONTEXT_BUFFER_VERSION_1
                                    ? reinterpret_cast<uintptr_t>(update.v1.binaryBuf.data)
                                    : 0));
    return pass() ? forward(pass()->contextFreeBinarySectionUpdate, update, rl)
                  : Qnn_ErrorHandle_t(QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  });
}

Qnn_ErrorHandle_t contextFinalize(Qnn_ContextHandle_t context, Qnn_ProfileHandle_t profile) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void *rc = nullptr, *rp = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &rc)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!useHandle(a, "profile", profile, Kind::Profile, true, &rp)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    return pass() ? forward(pass()->contextFinalize, rc, rp) : QNN_SUCCESS;
  });
}

// The pieces are the backend's: the trace keeps their offsets and sizes (the
// bytes are those of the context binary, which contextGetBinary records).
Qnn_ErrorHandle_t contextGetIncrementalBinary(Qnn_ContextHandle_t context, const void** buffer,
                                              Qnn_ContextBinarySize_t* startOffset, Qnn_ContextBinarySize_t* written) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* rc = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &rc)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    if (!buffer || !startOffset || !written) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    if (!pass()) return QNN_CONTEXT_ERROR_UNSUPPORTED_FEATURE;
    Qnn_ErrorHandle_t r = forward(pass()->contextGetIncrementalBinary, rc, buffer, startOffset, written);
    if (r == QNN_SUCCESS) {
      a.add("startOffset", Value::uint(*startOffset));
      a.add("writtenBufferSize", Value::uint(*written));
    }
    return r;
  });
}

Qnn_ErrorHandle_t contextReleaseIncrementalBinary(Qnn_ContextHandle_t context, const void* buffer,
                                                  Qnn_ContextBinarySize_t startOffset) {
  return recorded([&](Value& a) -> Qnn_ErrorHandle_t {
    void* rc = nullptr;
    if (!useHandle(a, "context", context, Kind::Context, false, &rc)) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    a.add("startOffset", Value::uint(startOffset));
    if (!buffer) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    return pass() ? forward(pass()->contextReleaseIncrementalBinary, rc, buffer, startOffset)
                  : Qnn_ErrorHandle_t(QNN_CONTEXT_ERROR_INCREMENT_INVALID_BUFFER);
  });
}

}  // namespace qnn::saver
