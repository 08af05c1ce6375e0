// QnnError: messages of error codes.
#include "runtime/runtime.h"

#include "runtime/runtime_support.h"

namespace qnn::sdk {
using namespace rt;

const char* Runtime::errorMessage(Qnn_ErrorHandle_t error) {
  const char* text = knownErrorMessage(error);
  return text ? text : "error (see the QNN error code tables)";
}

const char* Runtime::knownErrorMessage(Qnn_ErrorHandle_t error) {
  // One text per code of the API's error enums (several components share the 1000-range codes).
  switch (QNN_GET_ERROR_CODE(error)) {
    case QNN_SUCCESS: return "success";
    case QNN_COMMON_ERROR_NOT_SUPPORTED: return "not supported by this backend";
    case QNN_COMMON_ERROR_MEM_ALLOC: return "memory allocation failed";
    case QNN_COMMON_ERROR_SYSTEM: return "system error";
    case QNN_COMMON_ERROR_INVALID_ARGUMENT: return "invalid argument";
    case QNN_COMMON_ERROR_OPERATION_NOT_PERMITTED: return "operation not permitted";
    case QNN_COMMON_ERROR_PLATFORM_NOT_SUPPORTED: return "platform not supported";
    case QNN_COMMON_ERROR_SYSTEM_COMMUNICATION: return "communication with the accelerator failed";
    case QNN_COMMON_ERROR_INCOMPATIBLE_BINARIES: return "incompatible libraries";
    case QNN_COMMON_ERROR_LOADING_BINARIES: return "loading a library failed";
    case QNN_COMMON_ERROR_RESOURCE_UNAVAILABLE: return "resource unavailable";
    case QNN_COMMON_ERROR_SYSTEM_COMMUNICATION_FATAL: return "fatal communication error with the accelerator";
    case QNN_COMMON_ERROR_GENERAL: return "general error";
    case QNN_PROPERTY_ERROR_UNKNOWN_KEY: return "unknown property key";
    case QNN_OP_PACKAGE_ERROR_LIBRARY_ALREADY_INITIALIZED: return "op package library already initialized";
    case QNN_OP_PACKAGE_ERROR_LIBRARY_NOT_INITIALIZED: return "op package library not initialized";
    case QNN_OP_PACKAGE_ERROR_INVALID_HANDLE: return "invalid op package handle";
    case QNN_OP_PACKAGE_ERROR_INVALID_INFRASTRUCTURE: return "invalid op package infrastructure";
    case QNN_OP_PACKAGE_ERROR_INVALID_INFO: return "invalid op package info";
    case QNN_OP_PACKAGE_ERROR_VALIDATION_FAILURE: return "op package validation failed";
    case QNN_OP_PACKAGE_ERROR_INVALID_ARGUMENT: return "invalid argument to an op package";
    case QNN_BACKEND_ERROR_CANNOT_INITIALIZE: return "the backend cannot be initialized";
    case QNN_BACKEND_ERROR_TERMINATE_FAILED: return "the backend failed to terminate";
    case QNN_BACKEND_ERROR_NOT_SUPPORTED: return "not supported by this backend";
    case QNN_BACKEND_ERROR_INVALID_ARGUMENT: return "invalid argument to a backend call";
    case QNN_BACKEND_ERROR_OP_PACKAGE_NOT_FOUND: return "op package library not found or not loadable";
    case QNN_BACKEND_ERROR_OP_PACKAGE_IF_PROVIDER_NOT_FOUND: return "op package interface provider not found";
    case QNN_BACKEND_ERROR_OP_PACKAGE_REGISTRATION_FAILED: return "op package registration failed";
    case QNN_BACKEND_ERROR_OP_PACKAGE_UNSUPPORTED_VERSION: return "op package built for an unsupported API version";
    case QNN_BACKEND_ERROR_OP_PACKAGE_DUPLICATE: return "an op package of that name is already registered";
    case QNN_BACKEND_ERROR_INCONSISTENT_CONFIG: return "inconsistent backend config";
    case QNN_BACKEND_ERROR_INVALID_HANDLE: return "invalid backend handle";
    case QNN_BACKEND_ERROR_INVALID_CONFIG: return "invalid backend config";
    case QNN_CONTEXT_ERROR_INVALID_ARGUMENT: return "invalid argument to a context call";
    case QNN_CONTEXT_ERROR_CTX_DOES_NOT_EXIST: return "the context does not exist";
    case QNN_CONTEXT_ERROR_INVALID_HANDLE: return "invalid context handle";
    case QNN_CONTEXT_ERROR_NOT_FINALIZED: return "graphs of the context are not finalized";
    case QNN_CONTEXT_ERROR_BINARY_VERSION: return "context binary version not supported";
    case QNN_CONTEXT_ERROR_CREATE_FROM_BINARY: return "context binary is invalid or corrupted";
    case QNN_CONTEXT_ERROR_GET_BINARY_SIZE_FAILED: return "the context's binary size cannot be computed";
    case QNN_CONTEXT_ERROR_GET_BINARY_FAILED: return "the context binary cannot be written (buffer too small?)";
    case QNN_CONTEXT_ERROR_BINARY_CONFIGURATION:
      return "context binary was made for another backend or needs an op package that is not registered";
    case QNN_CONTEXT_ERROR_SET_PROFILE: return "the profile cannot be set on the context";
    case QNN_CONTEXT_ERROR_INVALID_CONFIG: return "invalid context config";
    case QNN_CONTEXT_ERROR_BINARY_SUBOPTIMAL: return "context binary is suboptimal for this device";
    case QNN_CONTEXT_ERROR_ABORTED: return "context creation aborted";
    case QNN_CONTEXT_ERROR_TIMED_OUT: return "context creation timed out";
    case QNN_CONTEXT_ERROR_INCREMENT_INVALID_BUFFER: return "invalid buffer for an incremental binary";
    case QNN_GRAPH_ERROR_INVALID_ARGUMENT: return "invalid argument to a graph call (a config or value the backend refuses)";
    case QNN_GRAPH_ERROR_INVALID_HANDLE: return "invalid graph handle";
    case QNN_GRAPH_ERROR_GRAPH_DOES_NOT_EXIST: return "no graph of that name";
    case QNN_GRAPH_ERROR_INVALID_NAME: return "invalid or duplicate graph name";
    case QNN_GRAPH_ERROR_INVALID_TENSOR: return "invalid tensor";
    case QNN_GRAPH_ERROR_INVALID_OP_CONFIG: return "invalid op config";
    case QNN_GRAPH_ERROR_SET_PROFILE: return "the profile cannot be set on the graph";
    case QNN_GRAPH_ERROR_UNCONNECTED_NODE: return "a node of the graph is not connected";
    case QNN_GRAPH_ERROR_CREATE_FAILED: return "graph creation failed";
    case QNN_GRAPH_ERROR_OPTIMIZATION_FAILED: return "graph optimization failed";
    case QNN_GRAPH_ERROR_FINALIZE_FAILED: return "graph finalize failed";
    case QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED: return "graph is not finalized";
    case QNN_GRAPH_ERROR_GRAPH_FINALIZED: return "graph is already finalized";
    case QNN_GRAPH_ERROR_EXECUTION_ASYNC_FIFO_FULL: return "the asynchronous execution queue is full";
    case QNN_GRAPH_ERROR_SIGNAL_IN_USE: return "the signal is in use by another call";
    case QNN_GRAPH_ERROR_ABORTED: return "execution aborted";
    case QNN_GRAPH_ERROR_PROFILE_IN_USE: return "the profile is in use by another graph";
    case QNN_GRAPH_ERROR_TIMED_OUT: return "execution timed out";
    case QNN_GRAPH_ERROR_SUBGRAPH: return "subgraph error";
    case QNN_GRAPH_ERROR_DISABLED: return "the graph is disabled (not enabled when its context was loaded)";
    case QNN_GRAPH_ERROR_DYNAMIC_TENSOR_SHAPE: return "invalid dynamic tensor shape";
    case QNN_GRAPH_ERROR_TENSOR_SPARSITY: return "invalid tensor sparsity";
    case QNN_GRAPH_ERROR_EARLY_TERMINATION: return "execution terminated early";
    case QNN_GRAPH_ERROR_INVALID_CONTEXT: return "the graph's context is invalid";
    case QNN_TENSOR_ERROR_INVALID_HANDLE: return "invalid tensor handle";
    case QNN_TENSOR_ERROR_DOES_NOT_EXIST: return "the tensor does not exist";
    case QNN_TENSOR_ERROR_ALREADY_EXISTS: return "a tensor with that name already exists";
    case QNN_TENSOR_ERROR_INVALID_TENSOR_PARAM: return "invalid tensor";
    case QNN_TENSOR_ERROR_UNSUPPORTED_TENSOR_PARAM: return "unsupported tensor parameter";
    case QNN_TENSOR_ERROR_NAME_HASH_COLLISION: return "tensor name hash collision";
    case QNN_TENSOR_ERROR_INCOMPATIBLE_TENSOR_UPDATE: return "incompatible tensor update";
    case QNN_MEM_ERROR_INVALID_ARGUMENT: return "invalid argument to a memory call";
    case QNN_MEM_ERROR_INVALID_HANDLE: return "invalid memory handle";
    case QNN_MEM_ERROR_ALREADY_REGISTERED: return "memory already registered";
    case QNN_MEM_ERROR_MAPPING: return "the memory cannot be mapped (bad fd, or smaller than the tensor)";
    case QNN_MEM_ERROR_INVALID_SHAPE: return "invalid shape or datatype of registered memory";
    case QNN_MEM_ERROR_UNSUPPORTED_MEMTYPE: return "memory type not supported by this backend";
    case QNN_SIGNAL_ERROR_SIGNAL_IN_USE: return "the signal is in use";
    case QNN_SIGNAL_ERROR_SIGNAL_IDLE: return "the signal is idle";
    case QNN_SIGNAL_ERROR_INVALID_ARGUMENT: return "invalid argument to a signal call";
    case QNN_SIGNAL_ERROR_INVALID_HANDLE: return "invalid signal handle";
    case QNN_SIGNAL_ERROR_TIMEOUT: return "signal timeout";
    case QNN_SIGNAL_ERROR_INCOMPATIBLE_SIGNAL_TYPE: return "signal type not compatible with the call";
    case QNN_ERROR_INVALID_ARGUMENT: return "invalid argument to an error call";
    case QNN_ERROR_INVALID_ERROR_HANDLE: return "unknown error handle";
    case QNN_LOG_ERROR_INITIALIZATION: return "logging cannot be initialized";
    case QNN_LOG_ERROR_INVALID_ARGUMENT: return "invalid argument to a log call";
    case QNN_LOG_ERROR_INVALID_HANDLE: return "invalid log handle";
    case QNN_PROFILE_ERROR_INVALID_HANDLE: return "invalid profile handle";
    case QNN_PROFILE_ERROR_HANDLE_IN_USE: return "the profile is in use";
    case QNN_PROFILE_ERROR_INCOMPATIBLE_EVENT: return "incompatible profile event";
    case QNN_DEVICE_ERROR_INVALID_HANDLE: return "invalid device handle";
    case QNN_DEVICE_ERROR_INVALID_CONFIG: return "invalid device config";
    case QNN_DEVICE_ERROR_HARDWARE_UNAVAILABLE: return "hardware unavailable";
    case QNN_DEVICE_ERROR_ASSOCIATED_TO_CONTEXT: return "the device is still used by a context";
    case QNN_DEVICE_ERROR_ACCESS_DENIED: return "access to the hardware is denied";
    case QNN_GLOBAL_CONFIG_ERROR_INVALID_CONFIG: return "invalid global config";
    case 13000: return "HTP performance infrastructure: invalid handle pointer";
    case 13001: return "HTP performance infrastructure: invalid input";
    case 13002: return "HTP performance infrastructure: unsupported config";
    case 13003: return "HTP performance infrastructure: transport error";
    case 13004: return "HTP performance infrastructure: unsupported";
    case 13005: return "HTP performance infrastructure: memory allocation failed";
    case 13006: return "HTP performance infrastructure: failed";
    default: return nullptr;
  }
}

}  // namespace qnn::sdk
