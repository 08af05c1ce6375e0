// The JSON document qnn-context-binary-utility writes for one binary:
//
// {
//   "version": "QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_2",
//   "backend": {"id": 3, "buildId": "...", "coreApiVersion": "2.32.0", "backendApiVersion": "...",
//               "socVersion": ""},
//   "context": {"blobVersion": "1.0.0", "blobSize": 1234, "hwInfoBlobVersion": "0.0.0",
//               "hwInfoBlobSize": 0, "numContextTensors": 0, "contextTensors": [TENSOR...],
//               "numGraphs": 2},
//   "graphs": [{"name": "g", "inputs": [TENSOR...], "outputs": [TENSOR...]}]
// }
// TENSOR: {"name", "id", "type": "QNN_TENSOR_TYPE_APP_WRITE", "dataFormat": 0,
//          "dataType": "QNN_DATATYPE_FLOAT_32", "rank", "dims": [...],
//          "quantization": {"definition", "encoding", and per encoding "scale"/"offset",
//                           "axis"/"scales"/"offsets", "bitwidth"}}
#pragma once

#include <nlohmann/json.hpp>

#include "System/QnnSystemContext.h"

namespace qnn::tools {

// Throws ToolError for an info version or graph-info version it does not know.
nlohmann::ordered_json binaryInfoToJson(const QnnSystemContext_BinaryInfo_t& info);

}  // namespace qnn::tools
