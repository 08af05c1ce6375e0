// QnnError: messages of error codes.
#include "runtime/runtime.h"

#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

const char* Runtime::errorMessage(Qnn_ErrorHandle_t error) {
  switch (QNN_GET_ERROR_CODE(error)) {
    case QNN_SUCCESS: return "success";
    case QNN_COMMON_ERROR_NOT_SUPPORTED: return "not supported";
    case QNN_COMMON_ERROR_MEM_ALLOC: return "memory allocation failed";
    case QNN_COMMON_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case QNN_COMMON_ERROR_GENERAL: return "general error";
    case QNN_BACKEND_ERROR_INVALID_HANDLE: return "invalid backend handle";
    case QNN_BACKEND_ERROR_INVALID_ARGUMENT: return "invalid argument to a backend call";
    case QNN_BACKEND_ERROR_NOT_SUPPORTED: return "not supported by this backend";
    case QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND: return "op package library not found or not loadable";
    case QNN_BACKEND_ERROR_OP_PACKAGE_IF_PROVIDER_NOT_FOUND: return "op package interface provider not found";
    case QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED: return "op package registration failed";
    case QNN_BACKEND_ERROR_OP_PACKAGE_UNSUPPORTED_VERSION: return "op package built for an unsupported API version";
    case QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE: return "an op package of that name is already registered";
    case QNN_CONTEXT_ERROR_INVALID_HANDLE: return "invalid context handle";
    case QNN_CONTEXT_ERROR_CREATE_FROM_BINARY: return "context binary is invalid or corrupted";
    case QNN_CONTEXT_ERROR_BINARY_CONFIGURATION:
      return "context binary was made for another backend or needs an op package that is not registered";
    case QNN_CONTEXT_ERROR_NOT_FINALIZED: return "graphs of the context are not finalized";
    case QNN_GRAPH_ERROR_INVALID_HANDLE: return "invalid graph handle";
    case QNN_GRAPH_ERROR_INVALID_TENSOR: return "invalid tensor";
    case QNN_GRAPH_ERROR_INVALID_OP_CONFIG: return "invalid op config";
    case QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED: return "graph is not finalized";
    case QNN_GRAPH_ERROR_GRAPH_FINALIZED: return "graph is already finalized";
    case QNN_GRAPH_ERROR_ABORTED: return "execution aborted";
    case QNN_GRAPH_ERROR_TIMED_OUT: return "execution timed out";
    case QNN_TENSOR_ERROR_ALREADY_EXISTS: return "a tensor with that name already exists";
    case QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM: return "invalid tensor";
    default: return "error (see the QNN error code tables)";
  }
}

}  // namespace qnn::sdk
