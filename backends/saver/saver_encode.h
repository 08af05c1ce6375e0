// QNN argument structs -> trace Values. Tensor data is stored as blobs (once per
// content) when the API hands data over: static tensors at creation, op params,
// execute inputs, and execute outputs after a real (pass-through) run.
#pragma once

#include "QnnInterface.h"
#include "saver/saver_configs.h"
#include "trace/trace_value.h"

namespace qnn::saver {

trace::Value handleValue(const void* handle);
trace::Value tensorValue(const Qnn_Tensor_t* tensor, bool withData);
trace::Value tensorListValue(const Qnn_Tensor_t* tensors, uint32_t count, bool withData);
trace::Value opConfigValue(const Qnn_OpConfig_t& op);

}  // namespace qnn::saver
