// Writes one inference's outputs as <output_dir>/Result_<N>/[<graph>/]<tensor>.raw
// (the graph folder only when the run has several graphs, as the vendor's sample
// app does). Tensor names are sanitized: every character other than [A-Za-z0-9_-]
// becomes '_' ("out/relu:0" -> "out_relu_0"); a name that collides with an earlier
// one in the same folder gets "_1", "_2", ... in output order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tools/common/tensor_spec.h"

namespace qnn::tools {

std::string sanitizeTensorName(const std::string& name);

struct OutputTensor {
  const TensorSpec* spec;
  const uint8_t* data;  // native bytes, spec->byteSize() * batches
  size_t batches;       // > 1 with --batch_multiplier
};

// native = write the tensor's own dtype; otherwise float32. Throws ToolError.
void writeInferenceOutputs(const std::string& outputDir, size_t inference, const std::string& graphFolder,
                           const std::vector<OutputTensor>& outputs, bool native);

}  // namespace qnn::tools
