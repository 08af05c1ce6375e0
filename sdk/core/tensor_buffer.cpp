#include "core/tensor_buffer.h"

#include <cstring>

#include "core/large_buffer.h"

namespace qnn::sdk {

TensorBuffer::TensorBuffer(size_t bytes) : size_(bytes) {
  void* p = allocateLargeBuffer(bytes);
  std::memset(p, 0, bytes);
  data_.reset(static_cast<uint8_t*>(p));
}

void TensorBuffer::Free::operator()(uint8_t* p) const { releaseLargeBuffer(p); }

}  // namespace qnn::sdk
