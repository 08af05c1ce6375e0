#include "safetensors/safetensors.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

namespace qnn::sdk {
namespace {

// Elements of a shape, or false when they exceed 2^40 (no adapter comes near it).
bool elementCount(const std::vector<uint64_t>& shape, uint64_t* elements) {
  *elements = 1;
  for (uint64_t d : shape) {
    if (d && *elements > (uint64_t{1} << 40) / d) return false;
    *elements *= d;
  }
  return true;
}

}  // namespace

size_t safetensorsDtypeSize(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64" || dtype == "U64") return 8;
  if (dtype == "F32" || dtype == "I32" || dtype == "U32") return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16") return 2;
  if (dtype == "I8" || dtype == "U8" || dtype == "BOOL") return 1;
  return 0;
}

// ---- reader ----

Status parseSafetensors(const uint8_t* bytes, size_t size, const std::string& label,
                        std::map<std::string, SafeTensor>* out) {
  auto bad = [&](const std::string& why) { return invalidArgument("safetensors file '" + label + "': " + why); };
  if (size < 8) return bad("shorter than its 8-byte header size");
  uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i) headerSize = headerSize << 8 | bytes[i];
  if (headerSize > size - 8) return bad("header size " + std::to_string(headerSize) + " exceeds the file");
  const uint8_t* dataStart = bytes + 8 + headerSize;
  const uint64_t dataSize = size - 8 - headerSize;
  nlohmann::json header = nlohmann::json::parse(bytes + 8, dataStart, nullptr, false);
  if (header.is_discarded() || !header.is_object()) return bad("the header is not a JSON object");
  out->clear();
  for (auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    const std::string who = "tensor '" + name + "'";
    if (!entry.is_object() || !entry.contains("dtype") || !entry.contains("shape") || !entry.contains("data_offsets") ||
        !entry["dtype"].is_string() || !entry["shape"].is_array() || !entry["data_offsets"].is_array() ||
        entry["data_offsets"].size() != 2)
      return bad(who + " needs dtype, shape and data_offsets [begin, end]");
    SafeTensor t;
    t.dtype = entry["dtype"].get<std::string>();
    const size_t elementSize = safetensorsDtypeSize(t.dtype);
    if (!elementSize) return bad(who + " has dtype " + t.dtype + ", which is not supported");
    for (auto& d : entry["shape"]) {
      if (!d.is_number_unsigned()) return bad(who + " has a shape entry that is not a non-negative integer");
      t.shape.push_back(d.get<uint64_t>());
    }
    uint64_t elements = 0;
    if (!elementCount(t.shape, &elements)) return bad(who + " is too large");
    if (!entry["data_offsets"][0].is_number_unsigned() || !entry["data_offsets"][1].is_number_unsigned())
      return bad(who + " has data_offsets that are not non-negative integers");
    const uint64_t begin = entry["data_offsets"][0].get<uint64_t>(), end = entry["data_offsets"][1].get<uint64_t>();
    if (begin > end || end > dataSize) return bad(who + " has data_offsets outside the file's data");
    if (end - begin != elements * elementSize)
      return bad(who + " holds " + std::to_string(end - begin) + " bytes, its dtype and shape need " +
                 std::to_string(elements * elementSize));
    t.data.assign(dataStart + begin, dataStart + end);
    out->emplace(name, std::move(t));
  }
  return Status::ok();
}

Status readSafetensors(const std::string& path, std::map<std::string, SafeTensor>* out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return invalidArgument("cannot open safetensors file '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return parseSafetensors(bytes.data(), bytes.size(), path, out);
}

// ---- writer ----

Status safetensorsBytes(const std::map<std::string, SafeTensor>& tensors,
                        const std::map<std::string, std::string>& metadata, std::vector<uint8_t>* out) {
  nlohmann::json header = nlohmann::json::object();
  if (!metadata.empty()) header["__metadata__"] = metadata;
  uint64_t offset = 0;
  for (const auto& [name, t] : tensors) {
    if (name == "__metadata__") return invalidArgument("safetensors: a tensor may not be named __metadata__");
    const size_t elementSize = safetensorsDtypeSize(t.dtype);
    if (!elementSize) return invalidArgument("safetensors: tensor '" + name + "' has unknown dtype '" + t.dtype + "'");
    uint64_t elements = 0;
    if (!elementCount(t.shape, &elements) || elements * elementSize != t.data.size())
      return invalidArgument("safetensors: tensor '" + name + "' holds " + std::to_string(t.data.size()) +
                             " bytes, which its dtype and shape do not give");
    header[name] = {{"dtype", t.dtype}, {"shape", t.shape}, {"data_offsets", {offset, offset + t.data.size()}}};
    offset += t.data.size();
  }
  std::string text = header.dump();
  text.append((8 - text.size() % 8) % 8, ' ');
  out->clear();
  out->reserve(8 + text.size() + offset);
  for (int i = 0; i < 8; ++i) out->push_back(static_cast<uint8_t>(uint64_t{text.size()} >> (8 * i)));
  out->insert(out->end(), text.begin(), text.end());
  for (const auto& [name, t] : tensors) out->insert(out->end(), t.data.begin(), t.data.end());
  return Status::ok();
}

Status writeSafetensors(const std::string& path, const std::map<std::string, SafeTensor>& tensors,
                        const std::map<std::string, std::string>& metadata) {
  std::vector<uint8_t> bytes;
  if (Status s = safetensorsBytes(tensors, metadata, &bytes); !s.isOk()) return s;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  out.flush();
  if (!out) return {StatusCode::kInternal, "cannot write safetensors file '" + path + "'"};
  return Status::ok();
}

}  // namespace qnn::sdk
