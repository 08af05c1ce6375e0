// Runs one API entry with recording: `body` fills the record's arguments (inputs
// before forwarding, outputs after) and returns the error code; the record is
// written when the body is done. No exception leaves: a throwing body answers
// QNN_COMMON_ERROR_GENERAL, and a failing trace write never fails the call.
#pragma once

#include <utility>

#include "QnnCommon.h"
#include "saver/saver_encode.h"
#include "saver/saver_state.h"
#include "trace/trace_format.h"

namespace qnn::saver {

// The call id of the entry running on this thread. Only the trampolines that
// fill the tables (`Entry` below) set it, from the member they are generated
// for, so a recorder cannot record under another call's id.
trace::Call currentCall();
class CallScope {
 public:
  explicit CallScope(trace::Call call);
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

 private:
  trace::Call outer_;
};

// Table entry for `Fn`, the recorder of call `C`: runs it with `C` current.
template <trace::Call C, auto Fn>
struct Entry;
template <trace::Call C, typename R, typename... A, R (*Fn)(A...)>
struct Entry<C, Fn> {
  static R call(A... args) {
    CallScope scope(C);
    return Fn(args...);
  }
};

// Records one call under `callId`: for the calls outside the function tables
// (QnnSaver_initialize). Recorders reached through a table use `recorded`.
template <typename Body>
Qnn_ErrorHandle_t recordedAs(trace::Call callId, Body&& body) {
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

// Records the call of the table entry running (its id comes from the member).
template <typename Body>
Qnn_ErrorHandle_t recorded(Body&& body) {
  return recordedAs(currentCall(), std::forward<Body>(body));
}
// Older recorders name their id: it must be the entry's, and the entry's is used.
template <typename Body>
[[deprecated("the id comes from the table entry: call recorded(body)")]] Qnn_ErrorHandle_t recorded(trace::Call,
                                                                                                   Body&& body) {
  return recorded(std::forward<Body>(body));
}

// Looks up a client handle of `kind` and records it under `name`. Null is
// accepted when `optional`; *real is the pass-through backend's handle.
bool useHandle(trace::Value& args, const char* name, void* handle, Kind kind, bool optional, void** real);

}  // namespace qnn::saver
