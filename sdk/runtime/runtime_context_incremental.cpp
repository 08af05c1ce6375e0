// QnnContext_getIncrementalBinary / releaseIncrementalBinary: the context
// binary handed out in backend-owned pieces (QnnContext.h: "the backend returns
// a pointer to constant data which it owns, the data's size and the starting
// offset"). The binary is made at the first call of a round and kept until
// every piece is released; after the last piece a call answers with no data
// (size 0) and the next call starts a new round.
#include "runtime/runtime.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

namespace {
constexpr size_t kPieceBytes = size_t{4} << 20;  // 4 MiB
}

Qnn_ErrorHandle_t Runtime::contextGetIncrementalBinary(Qnn_ContextHandle_t context, const void** buffer,
                                                       Qnn_ContextBinarySize_t* startOffset,
                                                       Qnn_ContextBinarySize_t* written) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(ctx->backend);
    const char* api = "QnnContext_getIncrementalBinary";
    if (!buffer || !startOffset || !written)
      return fail(log, ApiGroup::kContext, api, invalidArgument("binaryBuffer, startOffset and writtenBufferSize must not be null"));
    if (ctx->fromBinary) {
      logMessage(log, QNN_LOG_LEVEL_ERROR, std::string(api) + ": the context was re-created from a binary");
      return QNN_COMMON_ERROR_OPERATION_NOT_PERMITTED;
    }
    bool fresh = false;
    {
      std::lock_guard<std::mutex> lock(ctx->mutex);
      fresh = ctx->incremental.empty();
    }
    std::vector<uint8_t> bytes;
    if (fresh) {  // made outside the context's lock: serializing locks each graph first
      Status st = serializeContext(*ctx, desc_, &bytes);
      if (!st.isOk()) return fail(log, ApiGroup::kContext, api, st);
    }
    std::lock_guard<std::mutex> lock(ctx->mutex);
    if (fresh && ctx->incremental.empty()) {
      ctx->incremental = std::move(bytes);
      ctx->incrementalNext = 0;
    }
    const size_t total = ctx->incremental.size();
    if (ctx->incrementalNext >= total) {  // the round is complete
      *buffer = nullptr;
      *startOffset = total;
      *written = 0;
      if (ctx->incrementalOut.empty()) ctx->incremental.clear();
      return QNN_SUCCESS;
    }
    const size_t offset = ctx->incrementalNext, n = std::min(kPieceBytes, total - offset);
    const void* piece = ctx->incremental.data() + offset;
    ctx->incrementalOut[piece] = offset;
    ctx->incrementalNext += n;
    *buffer = piece;
    *startOffset = offset;
    *written = n;
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::contextReleaseIncrementalBinary(Qnn_ContextHandle_t context, const void* buffer,
                                                           Qnn_ContextBinarySize_t startOffset) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_CONTEXT_ERROR_INVALID_HANDLE;
    const Logger* log = loggerOf(ctx->backend);
    if (!buffer)
      return fail(log, ApiGroup::kContext, "QnnContext_releaseIncrementalBinary", invalidArgument("binaryBuffer is null"));
    std::lock_guard<std::mutex> lock(ctx->mutex);
    auto it = ctx->incrementalOut.find(buffer);
    if (it == ctx->incrementalOut.end() || it->second != startOffset) {
      logMessage(log, QNN_LOG_LEVEL_ERROR,
                 "QnnContext_releaseIncrementalBinary: no piece starting at offset " + std::to_string(startOffset) +
                     " was handed out at that address");
      return QNN_CONTEXT_ERROR_INCREMENT_INVALID_BUFFER;
    }
    ctx->incrementalOut.erase(it);
    // Every piece of a complete round released: the binary is dropped.
    if (ctx->incrementalOut.empty() && ctx->incrementalNext >= ctx->incremental.size()) ctx->incremental.clear();
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::sdk
