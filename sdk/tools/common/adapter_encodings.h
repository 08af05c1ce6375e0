// The quantization encodings of a LoRA adapter's tensors: the `encodings` file
// of a use case in qnn-context-binary-generator's --adapter_weight_config, an
// AIMET encodings JSON as the converter's --quantization_overrides reads it
// (docs/quantization.md):
//   {"param_encodings": {"<tensor>": [{"bitwidth": 8, "scale": f, "offset": i,
//                                      "min": f, "max": f, "is_symmetric": "False",
//                                      "dtype": "int"}]},
//    "activation_encodings": {...}}
// An entry needs scale+offset or min+max (scale/offset win). Only
// param_encodings name adapter weights; activation_encodings are not read.
// A per-channel list (several entries) is refused: the tools' tensor
// descriptions carry per-tensor encodings only. Malformed files are a
// ToolError naming the file and what is wrong.
#pragma once

#include <map>
#include <string>

#include "tools/common/tensor_spec.h"

namespace qnn::tools {

struct AdapterEncoding {
  uint32_t bitwidth = 0;
  bool symmetric = false;
  bool hasScale = false;  // scale/offset given (else min/max)
  double scale = 0, offset = 0, min = 0, max = 0;
};

std::map<std::string, AdapterEncoding> readAdapterEncodings(const std::string& path);

// `spec` (a fixed-point tensor of the graph) with encoding `e`, in the tensor's
// own storage (signed or unsigned: the datatype of an updateable tensor stays).
// A float tensor, or another bitwidth than the tensor's, is a ToolError naming `who`.
TensorSpec withAdapterEncoding(const TensorSpec& spec, const AdapterEncoding& e, const std::string& who);

}  // namespace qnn::tools
