// Maps an internal Status to the QNN error code of the API group that reports it.
#pragma once

#include "QnnInterface.h"
#include "core/status.h"

namespace qnn::sdk {

enum class ApiGroup { kBackend, kContext, kGraph, kTensor, kProfile, kMem, kDevice, kSignal, kLog };

Qnn_ErrorHandle_t toQnnError(ApiGroup group, const Status& status);

}  // namespace qnn::sdk
