// Runs one API entry with recording: `body` fills the record's arguments (inputs
// before forwarding, outputs after) and returns the error code; the record is
// written when the body is done. No exception leaves: a throwing body answers
// QNN_COMMON_ERROR_GENERAL, and a failing trace write never fails the call.
#pragma once

#include "QnnCommon.h"
#include "saver_encode.h"
#include "saver_state.h"
#include "trace_format.h"

namespace qnn::saver {

template <typename Body>
Qnn_ErrorHandle_t recorded(trace::Call callId, Body&& body) {
  Qnn_ErrorHandle_t rc = QNN_COMMON_ERROR_GENERAL;
  try {
    trace::CallRecord call;
    call.callId = uint32_t(callId);
    try {
      rc = body(call.args);
    } catch (...) {
      rc = QNN_COMMON_ERROR_GENERAL;
    }
    call.result = rc;
    SaverState::get().record(call);
  } catch (...) {
  }
  return rc;
}

// Looks up a client handle of `kind` and records it under `name`. Null is
// accepted when `optional`; *real is the pass-through backend's handle.
bool useHandle(trace::Value& args, const char* name, void* handle, Kind kind, bool optional, void** real);

}  // namespace qnn::saver
