#include "system_context.h"

#include <limits>

#include "binary/context_binary.h"

namespace qnn::system {
namespace {

// The format version sits at bytes 8..11 of the header (u16 major, u16 minor,
// little-endian). Only called after readContextBinary accepted the buffer, so
// the header is known to be there.
FormatVersion readFormatVersion(const void* data) {
  const auto* b = static_cast<const uint8_t*>(data);
  return {static_cast<uint32_t>(b[8] | (b[9] << 8)), static_cast<uint32_t>(b[10] | (b[11] << 8))};
}

}  // namespace

sdk::Status SystemContextObject::parse(const void* data, uint64_t size, const BinaryInfoStorage** info) {
  if (size > std::numeric_limits<size_t>::max()) return sdk::corruptData("context binary: too large");
  sdk::ContextBinaryContents contents;
  QNN_SDK_RETURN_IF_ERROR(sdk::readContextBinary(data, static_cast<size_t>(size), &contents));
  auto storage = std::make_unique<BinaryInfoStorage>(contents, readFormatVersion(data), size);
  std::lock_guard<std::mutex> lock(mutex_);
  infos_.push_back(std::move(storage));
  *info = infos_.back().get();
  return sdk::Status::ok();
}

}  // namespace qnn::system
