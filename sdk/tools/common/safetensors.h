// A reader of the safetensors format (the format LoRA adapter weights come in):
// u64 little-endian header size N, N bytes of JSON
// {"name": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, "__metadata__": {..}},
// then the data, offsets relative to its start. Every malformed file is a
// ToolError naming the file and what is wrong.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace qnn::tools {

struct SafeTensor {
  std::string dtype;  // "F32", "F16", "BF16", "I8", "U8", "I16", "U16", "I32", "U32", "I64", "F64", "BOOL"
  std::vector<uint64_t> shape;
  std::vector<uint8_t> data;
};

// Name -> tensor, for every tensor of the file (metadata skipped).
std::map<std::string, SafeTensor> readSafetensors(const std::string& path);

// Bytes per element of a safetensors dtype; 0 for one this reader does not know.
size_t safetensorsDtypeSize(const std::string& dtype);

}  // namespace qnn::tools
