// Status: the result of every internal (C++) operation. The C entry points of a
// backend turn a Status into a QNN error code; nothing below them throws across
// the C boundary.
#pragma once

#include <string>
#include <utility>

namespace qnn::sdk {

// Broad categories. Each C entry point maps a category to the QNN error code that
// fits its own API group (e.g. kInvalidTensor -> QNN_GRAPH_ERROR_INVALID_TENSOR in
// graph calls, QNN_TENSOR_ERROR_* in tensor calls).
enum class StatusCode {
  kOk = 0,
  kInvalidArgument,   // a null pointer or an out-of-range value from the caller
  kInvalidHandle,     // unknown, freed or wrong-kind handle
  kInvalidTensor,     // bad tensor: dims, dtype, size, name, id
  kInvalidParam,      // missing/unknown/malformed op parameter
  kUnsupportedOp,     // op type or package unknown to the backend
  kUnsupportedDType,  // op known, datatype combination not implemented
  kInvalidState,      // e.g. execute before finalize, addNode after finalize
  kNotSupported,      // feature not implemented by this backend
  kOutOfMemory,
  kCorruptData,       // truncated/corrupted/foreign binary
  kAborted,           // a signal aborted the operation
  kTimedOut,          // a signal's timeout expired
  kIncompatibleUpdate,  // a tensor update that the tensor cannot take (not updateable, other size)
  kSubsystemRestart,  // the accelerator restarted: the client recreates its context
  kInternal,
};

class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(StatusCode code, std::string message) : code_(code), message_(std::move(message)) {}

  static Status ok() { return {}; }
  bool isOk() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return isOk(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

inline Status invalidArgument(std::string m) { return {StatusCode::kInvalidArgument, std::move(m)}; }
inline Status invalidTensor(std::string m) { return {StatusCode::kInvalidTensor, std::move(m)}; }
inline Status invalidParam(std::string m) { return {StatusCode::kInvalidParam, std::move(m)}; }
inline Status unsupportedOp(std::string m) { return {StatusCode::kUnsupportedOp, std::move(m)}; }
inline Status unsupportedDType(std::string m) { return {StatusCode::kUnsupportedDType, std::move(m)}; }
inline Status invalidState(std::string m) { return {StatusCode::kInvalidState, std::move(m)}; }
inline Status notSupported(std::string m) { return {StatusCode::kNotSupported, std::move(m)}; }
inline Status corruptData(std::string m) { return {StatusCode::kCorruptData, std::move(m)}; }
inline Status internalError(std::string m) { return {StatusCode::kInternal, std::move(m)}; }

#define QNN_SDK_RETURN_IF_ERROR(expr)            \
  do {                                           \
    ::qnn::sdk::Status qnn_sdk_status_ = (expr); \
    if (!qnn_sdk_status_.isOk()) return qnn_sdk_status_; \
  } while (0)

}  // namespace qnn::sdk
