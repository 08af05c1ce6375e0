// The private hook between a backend and libQnnSystem.so for QnnContext_addToDlc: a
// QnnSystemDlc_Handle_t is a key in libQnnSystem.so's handle registry, which a backend library
// cannot read, so the backend writes the context's graphs as a DLC in memory (dlc/dlc_writer.h)
// and hands the bytes to this one C function that libQnnSystem.so exports. The backend finds it
// in the process (dlsym(RTLD_DEFAULT), else dlopen("libQnnSystem.so", RTLD_NOLOAD)) and never
// loads libQnnSystem.so itself: a DLC handle can only exist if the client loaded it.
#pragma once

#include <cstddef>
#include <cstdint>

#include "QnnCommon.h"

#define OPENQNN_SYSTEM_DLC_ADD_GRAPHS_SYMBOL "OpenQnnSystem_addGraphsToDlc"

extern "C" {
// Adds the graphs of the DLC in `bytes` to `dlc`. Returns QNN_SUCCESS or a QnnSystemDlc error
// code (INVALID_HANDLE for a handle that is not a live system DLC, INVALID_ARGUMENT for a graph
// name the DLC has already, MALFORMED_BINARY for bytes that are no DLC); on failure `message`
// (messageSize bytes, may be null) receives one line saying why. `origin` names the caller in
// errors ("libQnnCpu.so").
typedef Qnn_ErrorHandle_t (*OpenQnnSystem_AddGraphsToDlcFn_t)(QnnSystemDlc_Handle_t dlc, const uint8_t* bytes,
                                                              uint64_t size, const char* origin, char* message,
                                                              size_t messageSize);
}
