#include "runtime/error_map.h"

namespace qnn::sdk {

Qnn_ErrorHandle_t toQnnError(ApiGroup group, const Status& s) {
  using C = StatusCode;
  C c = s.code();
  if (c == C::kOk) return QNN_SUCCESS;
  if (c == C::kNotSupported) return QNN_COMMON_ERROR_NOT_SUPPORTED;
  if (c == C::kOutOfMemory) return QNN_COMMON_ERROR_MEM_ALLOC;
  if (c == C::kSubsystemRestart) return QNN_COMMON_ERROR_SYSTEM_COMMUNICATION;
  // Documented for the tensor updates and for QnnContext_getBinarySectionUpdate.
  if (c == C::kIncompatibleUpdate) return QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE;
  switch (group) {
    case ApiGroup::kBackend:
      switch (c) {
        case C::kInvalidHandle: return QNN_BACKEND_ERROR_INVALID_HANDLE;
        case C::kUnsupportedOp: case C::kUnsupportedDType: return QNN_BACKEND_ERROR_NOT_SUPPORTED;
        case C::kInternal: return QNN_COMMON_ERROR_GENERAL;
        default: return QNN_BACKEND_ERROR_INVALID_ARGUMENT;
      }
    case ApiGroup::kContext:
      switch (c) {
        case C::kInvalidHandle: return QNN_CONTEXT_ERROR_INVALID_HANDLE;
        case C::kCorruptData: return QNN_CONTEXT_ERROR_CREATE_FROM_BINARY;
        case C::kInvalidState: return QNN_CONTEXT_ERROR_NOT_FINALIZED;
        case C::kInternal: return QNN_COMMON_ERROR_GENERAL;
        default: return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
      }
    case ApiGroup::kGraph:
      switch (c) {
        case C::kInvalidHandle: return QNN_GRAPH_ERROR_INVALID_HANDLE;
        case C::kInvalidTensor: return QNN_GRAPH_ERROR_INVALID_TENSOR;
        case C::kInvalidParam: case C::kUnsupportedOp: case C::kUnsupportedDType:
          return QNN_GRAPH_ERROR_INVALID_OP_CONFIG;
        case C::kInvalidState: return QNN_GRAPH_ERROR_GRAPH_FINALIZED;
        case C::kAborted: return QNN_GRAPH_ERROR_ABORTED;
        case C::kTimedOut: return QNN_GRAPH_ERROR_TIMED_OUT;
        case C::kInternal: return QNN_GRAPH_ERROR_GENERAL;
        default: return QNN_GRAPH_ERROR_INVALID_ARGUMENT;
      }
    case ApiGroup::kTensor:
      switch (c) {
        case C::kInvalidHandle: return QNN_TENSOR_ERROR_INVALID_HANDLE;
        default: return QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM;
      }
    case ApiGroup::kProfile:
      return c == C::kInvalidHandle ? QNN_PROFILE_ERROR_INVALID_HANDLE : QNN_PROFILE_ERROR_INVALID_ARGUMENT;
    case ApiGroup::kMem:
      return c == C::kInvalidHandle ? QNN_MEM_ERROR_INVALID_HANDLE : QNN_MEM_ERROR_INVALID_ARGUMENT;
    case ApiGroup::kDevice:
      return c == C::kInvalidHandle ? QNN_DEVICE_ERROR_INVALID_HANDLE : QNN_DEVICE_ERROR_INVALID_ARGUMENT;
    case ApiGroup::kSignal:
      return c == C::kInvalidHandle ? QNN_SIGNAL_ERROR_INVALID_HANDLE : QNN_SIGNAL_ERROR_INVALID_ARGUMENT;
    case ApiGroup::kLog:
      return c == C::kInvalidHandle ? QNN_LOG_ERROR_INVALID_HANDLE : QNN_LOG_ERROR_INVALID_ARGUMENT;
  }
  return QNN_COMMON_ERROR_GENERAL;
}

}  // namespace qnn::sdk
