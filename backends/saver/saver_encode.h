// QNN argument structs -> trace Values. Tensor data is stored as blobs (once per
// content) when the API hands data over: static tensors at creation, op params,
// execute inputs, and execute outputs after a real (pass-through) run.
#pragma once

#include "QnnInterface.h"
#include "trace_value.h"

namespace qnn::saver {

trace::Value handleValue(const void* handle);
trace::Value tensorValue(const Qnn_Tensor_t* tensor, bool withData);
trace::Value tensorListValue(const Qnn_Tensor_t* tensors, uint32_t count, bool withData);
trace::Value opConfigValue(const Qnn_OpConfig_t& op);

// Config arrays (NULL-terminated): each entry's option; a custom config's
// payload is backend-defined and opaque to the Saver.
template <typename Config>
trace::Value configListValue(const Config* const* config) {
  if (!config) return trace::Value::null();
  trace::Value list = trace::Value::list();
  for (size_t k = 0; config[k]; ++k) {
    trace::Value v = trace::Value::record();
    v.add("option", trace::Value::uint(uint64_t(uint32_t(config[k]->option))));
    list.push(std::move(v));
  }
  return list;
}

}  // namespace qnn::saver
