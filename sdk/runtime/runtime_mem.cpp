// QnnMem entry points: registering client buffers (raw, ion-style fds, custom).
#include "runtime/runtime.h"

#include <sys/mman.h>
#include <unistd.h>

#include <cstring>

#include "runtime/later_datatypes.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

MemObject::~MemObject() {
  if (mapped && data) munmap(data, size);
}

Qnn_ErrorHandle_t Runtime::memRegister(Qnn_ContextHandle_t context, const Qnn_MemDescriptor_t* descriptors,
                                       uint32_t numDescriptors, Qnn_MemHandle_t* memHandles) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_MEM_ERROR_INVALID_HANDLE;
    if (!descriptors || !memHandles || numDescriptors == 0) return QNN_MEM_ERROR_INVALID_ARGUMENT;
    std::vector<std::shared_ptr<MemObject>> made;
    for (uint32_t i = 0; i < numDescriptors; ++i) {
      const Qnn_MemDescriptor_t& d = descriptors[i];
      if (d.memType != QNN_MEM_TYPE_ION) {
        logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                   "QnnMem_register: only file-descriptor (ION/dma-buf style) memory is supported");
        return QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE;
      }
      if (!dtypeIsKnown(static_cast<uint32_t>(d.dataType))) {
        logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                   "QnnMem_register: descriptor " + std::to_string(i) + " has datatype " +
                       qnnDatatypeName(d.dataType) + ", which registered memory does not support");
        return QNN_MEM_ERROR_INVALID_SHAPE;
      }
      if (d.memShape.numDim == 0 || !d.memShape.dimSize) return QNN_MEM_ERROR_INVALID_SHAPE;
      auto m = std::make_shared<MemObject>();
      m->context = ctx;
      m->dtype = static_cast<DType>(d.dataType);
      size_t bytes = dtypeSize(m->dtype);
      for (uint32_t k = 0; k < d.memShape.numDim; ++k) {
        if (d.memShape.dimSize[k] == 0) return QNN_MEM_ERROR_INVALID_SHAPE;
        m->dims.push_back(d.memShape.dimSize[k]);
        bytes *= d.memShape.dimSize[k];
      }
      off_t fdSize = d.ionInfo.fd >= 0 ? lseek(d.ionInfo.fd, 0, SEEK_END) : -1;
      if (fdSize < 0 || static_cast<size_t>(fdSize) < bytes) {
        logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                   "QnnMem_register: fd " + std::to_string(d.ionInfo.fd) + " is invalid or smaller than the shape");
        return QNN_MEM_ERROR_MAPPING;
      }
      void* p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, d.ionInfo.fd, 0);
      if (p == MAP_FAILED) return QNN_MEM_ERROR_MAPPING;
      m->data = p;
      m->size = bytes;
      m->fd = d.ionInfo.fd;
      m->mapped = true;
      made.push_back(std::move(m));
    }
    std::lock_guard<std::mutex> lock(ctx->mutex);
    for (uint32_t i = 0; i < numDescriptors; ++i) {
      memHandles[i] = handles().add(made[i]);
      ctx->memHandles.insert(memHandles[i]);
    }
    return QNN_SUCCESS;
  });
}

Qnn_ErrorHandle_t Runtime::memDeRegister(const Qnn_MemHandle_t* memHandles, uint32_t numHandles) {
  return guarded([&]() -> Qnn_ErrorHandle_t {
    if (!memHandles || numHandles == 0) return QNN_MEM_ERROR_INVALID_ARGUMENT;
    for (uint32_t i = 0; i < numHandles; ++i)
      if (!handles().get<MemObject>(memHandles[i], HandleKind::kMem)) return QNN_MEM_ERROR_INVALID_HANDLE;
    for (uint32_t i = 0; i < numHandles; ++i) {
      auto obj = std::static_pointer_cast<MemObject>(handles().remove(memHandles[i], HandleKind::kMem));
      if (!obj) continue;
      if (auto ctx = obj->context.lock()) {
        std::lock_guard<std::mutex> lock(ctx->mutex);
        ctx->memHandles.erase(memHandles[i]);
      }
    }
    return QNN_SUCCESS;
  });
}

}  // namespace qnn::sdk
