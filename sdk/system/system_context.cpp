#include "system/system_context.h"

#include <limits>

#include "context_binary/binary_section.h"
#include "context_binary/context_binary.h"

namespace qnn::system {
namespace {

// The format version sits at bytes 8..11 of the header (u16 major, u16 minor,
// little-endian), in a context binary and a binary section alike. Only called after
// the buffer was accepted, so the header is known to be there.
FormatVersion readFormatVersion(const void* data) {
  const auto* b = static_cast<const uint8_t*>(data);
  return {static_cast<uint32_t>(b[8] | (b[9] << 8)), static_cast<uint32_t>(b[10] | (b[11] << 8))};
}

// A binary section (a LoRA adapter, context_binary/binary_section.h) described as a binary: its
// backend, and per graph it names its name and its updateable tensors (HTP: the graph info's
// updateableTensors), no inputs, outputs or context tensors (a section carries none). Clients that
// apply an adapter read its graph count this way (the vendor's Genie applies one section file to
// that many graphs of its binary).
sdk::Status sectionContents(const void* data, uint64_t size, sdk::ContextBinaryContents* contents) {
  sdk::BinarySection section;
  QNN_SDK_RETURN_IF_ERROR(sdk::readBinarySection(data, static_cast<size_t>(size), &section));
  contents->backendId = section.backendId;
  for (const auto& g : section.graphs) {
    if (g.name.empty()) continue;  // the context's own tensors: no graph
    sdk::GraphIR& ir = contents->graphs.emplace_back();
    ir.name = g.name;
    for (const auto& t : g.tensors) ir.tensors.emplace(t.info.id, t.info);
  }
  return sdk::Status::ok();
}

}  // namespace

sdk::Status SystemContextObject::parse(const void* data, uint64_t size, const BinaryInfoStorage** info) {
  if (size > std::numeric_limits<size_t>::max()) return sdk::corruptData("context binary: too large");
  sdk::ContextBinaryContents contents;
  // The description needs no weights: the region is viewed in the client's
  // buffer for the call instead of copied (contents do not outlive it).
  auto inPlace = [data, size](uint64_t offset, uint64_t bytes, std::shared_ptr<const uint8_t>* out) -> sdk::Status {
    if (offset > size || bytes > size - offset)
      return sdk::corruptData("context binary: the weights region is not in the buffer");
    *out = std::shared_ptr<const uint8_t>(static_cast<const uint8_t*>(data) + offset, [](const uint8_t*) {});
    return sdk::Status::ok();
  };
  if (sdk::looksLikeBinarySection(data, static_cast<size_t>(size))) {
    QNN_SDK_RETURN_IF_ERROR(sectionContents(data, size, &contents));
  } else {
    QNN_SDK_RETURN_IF_ERROR(sdk::readContextBinary(data, static_cast<size_t>(size), &contents, inPlace));
  }
  auto storage = std::make_unique<BinaryInfoStorage>(contents, readFormatVersion(data), size);
  std::lock_guard<std::mutex> lock(mutex_);
  infos_.push_back(std::move(storage));
  *info = infos_.back().get();
  return sdk::Status::ok();
}

}  // namespace qnn::system
