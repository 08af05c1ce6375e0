// Names of QNN enum values as the headers spell them ("QNN_DATATYPE_FLOAT_32"),
// for the JSON the utility writes and its error messages. Unknown values come
// back as "UNKNOWN(<value>)" so nothing a library returns is ever dropped.
#pragma once

#include <string>

#include "System/QnnSystemContext.h"

namespace qnn::tools {

std::string dataTypeName(Qnn_DataType_t t);
std::string tensorTypeName(Qnn_TensorType_t t);
std::string definitionName(Qnn_Definition_t d);
std::string encodingName(Qnn_QuantizationEncoding_t e);
std::string binaryInfoVersionName(QnnSystemContext_BinaryInfoVersion_t v);
// "QNN_SYSTEM_CONTEXT_ERROR_MALFORMED_BINARY (30010)", ...
std::string systemErrorName(Qnn_ErrorHandle_t err);

}  // namespace qnn::tools
