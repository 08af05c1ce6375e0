#include "core/tensor_buffer.h"

#include <cstdlib>
#include <cstring>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace qnn::sdk {
namespace {
constexpr size_t kHugePage = size_t(2) << 20;
}

TensorBuffer::TensorBuffer(size_t bytes) : size_(bytes) {
  const bool huge = bytes >= kHugePage;
  const size_t align = huge ? kHugePage : 64;
  const size_t rounded = (bytes + align - 1) / align * align;
  void* p = std::aligned_alloc(align, rounded == 0 ? align : rounded);
  if (!p) throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (huge) (void)madvise(p, rounded, MADV_HUGEPAGE);  // a hint: without THP the pages stay 4 KiB
#endif
  std::memset(p, 0, rounded == 0 ? align : rounded);
  data_.reset(static_cast<uint8_t*>(p));
}

void TensorBuffer::Free::operator()(uint8_t* p) const { std::free(p); }

}  // namespace qnn::sdk
