// QnnMem entry points: registering client memory (ION and dma-buf file descriptors,
// and a backend's CUSTOM descriptors through BackendHooks::customMemory), mapped once.
#include "runtime/runtime.h"

#include <sys/mman.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "adapters/client_datatypes.h"
#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

MemObject::~MemObject() {
  if (mapBase) munmap(mapBase, mapSize);
}

namespace {

// Where a descriptor's bytes are: ION and dma-buf name a file descriptor whose
// start is the tensor's; a backend's CUSTOM descriptor may place the tensor at an
// offset of a larger shared buffer (several tensors in one allocation).
Status regionOf(const Qnn_MemDescriptor_t& d, BackendHooks* hooks, FdRegion* out) {
  switch (d.memType) {
    case QNN_MEM_TYPE_ION: out->fd = d.ionInfo.fd; return Status::ok();
    case QNN_MEM_TYPE_DMA_BUF: out->fd = d.dmaBufInfo.fd; return Status::ok();
    case QNN_MEM_TYPE_CUSTOM:
      if (!hooks) return {StatusCode::kNotSupported, "this backend defines no custom memory type"};
      return hooks->customMemory(d.customInfo, out);
    default:
      return {StatusCode::kNotSupported, "memory type " + std::to_string(static_cast<int>(d.memType)) +
                                             " is not ION, DMA_BUF or CUSTOM"};
  }
}

// Maps the tensor's bytes of `region` (any offset: the mapping starts at the page below it). A shared
// buffer (a CUSTOM descriptor with the allocation's total size) is mapped to its end: its handle backs any
// tensor that fits from the offset on, not only one of the registered shape. Genie registers one handle
// per (buffer, offset) with the first tensor it meets there and executes it for the same-named, larger
// tensors of its other graphs (e.g. input_ids of AR-1 and AR-32 at one address).
Status mapRegion(const FdRegion& region, size_t bytes, MemObject* m) {
  // The size through lseek (what dma-buf fds answer; fstat reports 0 for them), with the client's
  // file offset put back where it was.
  const off_t position = region.fd >= 0 ? lseek(region.fd, 0, SEEK_CUR) : -1;
  const off_t fdSize = position >= 0 ? lseek(region.fd, 0, SEEK_END) : -1;
  if (position >= 0) lseek(region.fd, position, SEEK_SET);
  if (fdSize < 0) return invalidArgument("fd " + std::to_string(region.fd) + " is not an open, mappable file");
  uint64_t end = region.offset + bytes;
  if (end < region.offset || end > static_cast<uint64_t>(fdSize))
    return invalidArgument("fd " + std::to_string(region.fd) + " holds " + std::to_string(fdSize) +
                           " bytes; the tensor needs " + std::to_string(bytes) + " at offset " +
                           std::to_string(region.offset));
  if (region.totalSize && end > region.totalSize)
    return invalidArgument("the tensor (" + std::to_string(bytes) + " bytes at offset " +
                           std::to_string(region.offset) + ") ends beyond the stated buffer size " +
                           std::to_string(region.totalSize));
  if (region.totalSize) end = std::min<uint64_t>(region.totalSize, static_cast<uint64_t>(fdSize));
  const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
  const uint64_t start = region.offset / page * page;
  const size_t length = static_cast<size_t>(end - start);
  void* p = mmap(nullptr, length, PROT_READ | PROT_WRITE, MAP_SHARED, region.fd, static_cast<off_t>(start));
  if (p == MAP_FAILED)
    return invalidArgument("fd " + std::to_string(region.fd) + " cannot be mapped read-write: " + strerror(errno));
  m->mapBase = p;
  m->mapSize = length;
  m->data = static_cast<uint8_t*>(p) + (region.offset - start);
  m->size = static_cast<size_t>(end - region.offset);
  m->fd = region.fd;
  m->offset = region.offset;
  return Status::ok();
}

}  // namespace

Qnn_ErrorHandle_t Runtime::memRegister(Qnn_ContextHandle_t context, const Qnn_MemDescriptor_t* descriptors,
                                       uint32_t numDescriptors, Qnn_MemHandle_t* memHandles) {
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
    auto ctx = handles().get<ContextObject>(context, HandleKind::kContext);
    if (!ctx) return QNN_MEM_ERROR_INVALID_HANDLE;
    if (!descriptors || !memHandles || numDescriptors == 0)
      return rt::refuse(loggerOf(ctx->backend), "QnnMem_register",
                        !descriptors  ? "memDescriptors is null"
                        : !memHandles ? "memHandles (out) is null"
                                      : "numDescriptors is 0",
                        QNN_MEM_ERROR_INVALID_ARGUMENT);
    auto refuse = [&](uint32_t i, Qnn_ErrorHandle_t code, const std::string& why) {
      logMessage(loggerOf(ctx->backend), QNN_LOG_LEVEL_ERROR,
                 "QnnMem_register: descriptor " + std::to_string(i) + ": " + why);
      return code;
    };
    std::vector<std::shared_ptr<MemObject>> made;
    for (uint32_t i = 0; i < numDescriptors; ++i) {
      const Qnn_MemDescriptor_t& d = descriptors[i];
      FdRegion region;
      Status st = regionOf(d, desc_.hooks.get(), &region);
      if (!st.isOk())
        return refuse(i, st.code() == StatusCode::kNotSupported ? QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE
                                                                 : QNN_MEM_ERROR_INVALID_ARGUMENT,
                      st.message());
      if (!dtypeIsKnown(static_cast<uint32_t>(d.dataType)))
        return refuse(i, QNN_MEM_ERROR_INVALID_SHAPE,
                      "datatype " + qnnDatatypeName(d.dataType) + ", which registered memory does not support");
      if (d.memShape.numDim == 0 || !d.memShape.dimSize)
        return refuse(i, QNN_MEM_ERROR_INVALID_SHAPE, "the shape has no dimensions");
      auto m = std::make_shared<MemObject>();
      m->context = ctx;
      m->dtype = static_cast<DType>(d.dataType);
      uint64_t bytes = dtypeSize(m->dtype);
      for (uint32_t k = 0; k < d.memShape.numDim; ++k) {
        const uint32_t n = d.memShape.dimSize[k];
        if (n == 0 || bytes > (uint64_t{1} << 48) / n)
          return refuse(i, QNN_MEM_ERROR_INVALID_SHAPE, "dimension " + std::to_string(k) + " is " +
                                                            std::to_string(n) + " (zero, or the size overflows)");
        m->dims.push_back(n);
        bytes *= n;
      }
      st = mapRegion(region, static_cast<size_t>(bytes), m.get());
      if (!st.isOk()) return refuse(i, QNN_MEM_ERROR_MAPPING, st.message());
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
  return guarded(__func__, [&]() -> Qnn_ErrorHandle_t {
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
