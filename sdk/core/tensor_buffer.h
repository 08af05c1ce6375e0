// Storage of the CPU engine's activation arena, from allocateLargeBuffer
// (core/large_buffer.h): 64 KiB or more in transparent huge pages, so a 4.8 MB
// activation of MobileNetV2 needs three TLB entries instead of ~1200, which the
// layers writing and re-reading it pay for on every inference. Zero-filled.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace qnn::sdk {

// Owns its memory; movable, not copyable.
class TensorBuffer {
 public:
  // Throws std::bad_alloc when memory runs out.
  explicit TensorBuffer(size_t bytes);
  TensorBuffer(TensorBuffer&&) noexcept = default;
  TensorBuffer& operator=(TensorBuffer&&) noexcept = default;

  uint8_t* data() const { return data_.get(); }
  size_t size() const { return size_; }

 private:
  struct Free {
    void operator()(uint8_t* p) const;
  };
  std::unique_ptr<uint8_t, Free> data_;
  size_t size_ = 0;
};

}  // namespace qnn::sdk
