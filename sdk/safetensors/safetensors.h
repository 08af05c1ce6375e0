// The safetensors format (the format LoRA adapter weights come in), reader and writer side by side:
// u64 little-endian header size N, N bytes of JSON
// {"name": {"dtype": "F32", "shape": [..], "data_offsets": [begin, end]}, "__metadata__": {..}},
// then the data, offsets relative to its start. Every malformed file is an invalid-argument
// Status naming the file and what is wrong.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/status.h"

namespace qnn::sdk {

struct SafeTensor {
  std::string dtype;  // "F32", "F16", "BF16", "I8", "U8", "I16", "U16", "I32", "U32", "I64", "U64", "F64", "BOOL"
  std::vector<uint64_t> shape;
  std::vector<uint8_t> data;
};

// Bytes per element of a safetensors dtype; 0 for one this module does not know.
size_t safetensorsDtypeSize(const std::string& dtype);

// Reader: name -> tensor, for every tensor of the file (metadata skipped). `label` names the
// bytes in errors ("safetensors file '<label>': ...").
Status parseSafetensors(const uint8_t* bytes, size_t size, const std::string& label,
                        std::map<std::string, SafeTensor>* out);
Status readSafetensors(const std::string& path, std::map<std::string, SafeTensor>* out);

// Writer: the file's bytes, tensors in name order, data back to back, the header padded with
// spaces to a multiple of 8 bytes so the data starts aligned. Invalid argument when a tensor's
// dtype is unknown or its data does not match its dtype and shape.
Status safetensorsBytes(const std::map<std::string, SafeTensor>& tensors,
                        const std::map<std::string, std::string>& metadata, std::vector<uint8_t>* out);
Status writeSafetensors(const std::string& path, const std::map<std::string, SafeTensor>& tensors,
                        const std::map<std::string, std::string>& metadata = {});

}  // namespace qnn::sdk
