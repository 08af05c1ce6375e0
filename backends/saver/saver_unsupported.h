// A recorded NOT_SUPPORTED entry of exactly a table member's type.
#pragma once

#include "saver_call.h"
#include "saver_log.h"

namespace qnn::saver {

template <typename Fn, unsigned Id>
struct Unsupported;
template <typename... Args, unsigned Id>
struct Unsupported<Qnn_ErrorHandle_t (*)(Args...), Id> {
  static Qnn_ErrorHandle_t call(Args...) {
    return recorded(trace::Call(Id), [](trace::Value& a) -> Qnn_ErrorHandle_t {
      a.add("note", trace::Value::str("arguments not recorded: entry not supported by the Saver yet"));
      logError(std::string(trace::callName(Id)) + " is not supported by the Saver yet");
      return QNN_COMMON_ERROR_NOT_SUPPORTED;
    });
  }
};

}  // namespace qnn::saver
