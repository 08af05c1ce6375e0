// See binary_data_callback.h.
#include "runtime/binary_data_callback.h"

#include <string>

#include "runtime/runtime_support.h"

namespace qnn::sdk {

Status checkDataCallback(const Qnn_ContextBinaryCallback_t* cb) {
  if (!cb) return invalidArgument("the binary data callback is null");
  if (cb->type == QNN_CONTEXT_CALLBACK_RAW_BUFFER) {
    if (cb->rawBufferCallback.version != QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1 ||
        !cb->rawBufferCallback.v1.dataProvide || !cb->rawBufferCallback.v1.dataRelease)
      return invalidArgument("the raw buffer callback needs version 1 and both dataProvide and dataRelease");
  } else if (cb->type == QNN_CONTEXT_CALLBACK_DMA_BUFFER) {
    if (cb->dmaBufferCallback.version != QNN_CONTEXT_CALLBACK_DMA_BUFFER_VERSION_1 ||
        !cb->dmaBufferCallback.v1.dataProvide || !cb->dmaBufferCallback.v1.dataRelease)
      return invalidArgument("the DMA buffer callback needs version 1 and both dataProvide and dataRelease");
  } else {
    return invalidArgument("unknown binary data callback type " + std::to_string(cb->type));
  }
  return Status::ok();
}

namespace {

Status clientFailure(const std::string& what) {
  return corruptData("the binary data callback: " + what);
}

// The answer must hold the request: `size` bytes from `start` within `alignedSize`.
bool holds(const void* memory, Qnn_ContextBinarySize_t start, Qnn_ContextBinarySize_t alignedSize, uint64_t size) {
  return memory && start <= alignedSize && size <= alignedSize - start;
}

// Hands the client's memory back; a failure there can only be logged.
void logReleaseFailure(Qnn_ErrorHandle_t rc) {
  if (rc != QNN_SUCCESS)
    logMessage(rt::anyLogger().get(), QNN_LOG_LEVEL_WARN,
               "the binary data callback's dataRelease answered " + std::to_string(rc));
}

// What a response points at, and what goes back through dataRelease.
const void* pointerOf(const Qnn_ContextBinaryRawDataResponse_t& r) { return r.memPtr; }
const void* pointerOf(const Qnn_ContextBinaryDmaDataResponse_t& r) { return r.dmaBuffer.data; }
Qnn_ContextBinaryRawDataMem_t memoryOf(const Qnn_ContextBinaryRawDataResponse_t& r) {
  return {r.memPtr, r.alignedSize};
}
Qnn_ContextBinaryDmaDataMem_t memoryOf(const Qnn_ContextBinaryDmaDataResponse_t& r) {
  return {r.dmaBuffer, r.alignedSize};
}

// One request for the region; the answer viewed in place, released with the view.
template <typename Response, typename CallbackV1>
Status fromClient(const CallbackV1& cb, uint8_t backendMappingNeeded, uint64_t offset, uint64_t size,
                  std::shared_ptr<const uint8_t>* bytes) {
  Qnn_ContextBinaryDataRequest_t request{offset, size, backendMappingNeeded};
  Response response{};
  Qnn_ErrorHandle_t rc = cb.dataProvide(request, &response, cb.notifyParam);
  if (rc != QNN_SUCCESS) return clientFailure("dataProvide answered " + std::to_string(rc));
  const auto memory = memoryOf(response);
  const void* pointer = pointerOf(response);
  if (!holds(pointer, response.dataStartOffset, response.alignedSize, size)) {
    if (pointer) logReleaseFailure(cb.dataRelease(memory, cb.notifyParam));
    return clientFailure("dataProvide answered memory that cannot hold " + std::to_string(size) + " bytes (start " +
                         std::to_string(response.dataStartOffset) + ", aligned size " +
                         std::to_string(response.alignedSize) + ")");
  }
  const auto* start = static_cast<const uint8_t*>(pointer) + response.dataStartOffset;
  auto release = cb.dataRelease;
  void* param = cb.notifyParam;
  *bytes = std::shared_ptr<const uint8_t>(
      start, [release, memory, param](const uint8_t*) { logReleaseFailure(release(memory, param)); });
  return Status::ok();
}

}  // namespace

WeightsRegionProvider weightsFromClient(const Qnn_ContextBinaryCallback_t& callback) {
  return [cb = callback](uint64_t offset, uint64_t size, std::shared_ptr<const uint8_t>* bytes) -> Status {
    // Raw memory is used as it is, nothing for the backend to map. A DMA
    // buffer is the client's to share with the accelerator: the backend maps
    // it (clients such as ONNX Runtime's QNN EP refuse requests without
    // isBackendMappingNeeded); the simulators use its CPU mapping, `data`.
    if (cb.type == QNN_CONTEXT_CALLBACK_RAW_BUFFER)
      return fromClient<Qnn_ContextBinaryRawDataResponse_t>(cb.rawBufferCallback.v1, 0, offset, size, bytes);
    return fromClient<Qnn_ContextBinaryDmaDataResponse_t>(cb.dmaBufferCallback.v1, 1, offset, size, bytes);
  };
}

}  // namespace qnn::sdk
