#include "tools/common/safetensors.h"

#include <nlohmann/json.hpp>

#include <fstream>
#include <iterator>

#include "tools/common/tool_error.h"

namespace qnn::tools {

size_t safetensorsDtypeSize(const std::string& dtype) {
  if (dtype == "F64" || dtype == "I64" || dtype == "U64") return 8;
  if (dtype == "F32" || dtype == "I32" || dtype == "U32") return 4;
  if (dtype == "F16" || dtype == "BF16" || dtype == "I16" || dtype == "U16") return 2;
  if (dtype == "I8" || dtype == "U8" || dtype == "BOOL") return 1;
  return 0;
}

std::map<std::string, SafeTensor> readSafetensors(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw ToolError("cannot open safetensors file '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  auto bad = [&](const std::string& why) { return ToolError("safetensors file '" + path + "': " + why); };
  if (bytes.size() < 8) throw bad("shorter than its 8-byte header size");
  uint64_t headerSize = 0;
  for (int i = 7; i >= 0; --i) headerSize = headerSize << 8 | bytes[i];
  if (headerSize > bytes.size() - 8) throw bad("header size " + std::to_string(headerSize) + " exceeds the file");
  const uint8_t* dataStart = bytes.data() + 8 + headerSize;
  const uint64_t dataSize = bytes.size() - 8 - headerSize;
  nlohmann::json header = nlohmann::json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<long>(headerSize),
                                                nullptr, false);
  if (header.is_discarded() || !header.is_object()) throw bad("the header is not a JSON object");
  std::map<std::string, SafeTensor> out;
  for (auto& [name, entry] : header.items()) {
    if (name == "__metadata__") continue;
    const std::string who = "tensor '" + name + "'";
    if (!entry.is_object() || !entry.contains("dtype") || !entry.contains("shape") || !entry.contains("data_offsets") ||
        !entry["dtype"].is_string() || !entry["shape"].is_array() || !entry["data_offsets"].is_array() ||
        entry["data_offsets"].size() != 2)
      throw bad(who + " needs dtype, shape and data_offsets [begin, end]");
    SafeTensor t;
    t.dtype = entry["dtype"].get<std::string>();
    const size_t elementSize = safetensorsDtypeSize(t.dtype);
    if (!elementSize) throw bad(who + " has dtype " + t.dtype + ", which is not supported");
    uint64_t elements = 1;
    for (auto& d : entry["shape"]) {
      if (!d.is_number_unsigned()) throw bad(who + " has a shape entry that is not a non-negative integer");
      t.shape.push_back(d.get<uint64_t>());
      if (t.shape.back() && elements > (uint64_t{1} << 40) / t.shape.back()) throw bad(who + " is too large");
      elements *= t.shape.back();
    }
    if (!entry["data_offsets"][0].is_number_unsigned() || !entry["data_offsets"][1].is_number_unsigned())
      throw bad(who + " has data_offsets that are not non-negative integers");
    const uint64_t begin = entry["data_offsets"][0].get<uint64_t>(), end = entry["data_offsets"][1].get<uint64_t>();
    if (begin > end || end > dataSize) throw bad(who + " has data_offsets outside the file's data");
    if (end - begin != elements * elementSize)
      throw bad(who + " holds " + std::to_string(end - begin) + " bytes, its dtype and shape need " +
                std::to_string(elements * elementSize));
    t.data.assign(dataStart + begin, dataStart + end);
    out.emplace(name, std::move(t));
  }
  return out;
}

}  // namespace qnn::tools
