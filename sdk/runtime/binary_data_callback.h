// The client's binary data callback (QnnContext_createFromBinaryWithCallback,
// QnnContext_ParamsV2_t::callback) as the context-binary reader's source of the
// weights region: the backend asks the client for the region, uses the client's
// memory in place (typically its mapping of the binary's file, so the weights
// stay in the page cache instead of being copied), and hands it back through
// dataRelease when the last tensor using it is gone (QnnContext_free).
#pragma once

#include <memory>

#include "QnnContext.h"
#include "context_binary/context_binary.h"
#include "core/status.h"

namespace qnn::sdk {

// Checks the callback as QnnContext.h defines it: raw or DMA buffers, version 1,
// both functions set. Null is an error.
Status checkDataCallback(const Qnn_ContextBinaryCallback_t* callback);

// The provider for readContextBinary. `callback` (checked) is copied, so the
// client's struct need not outlive the call; its notifyParam must live until the
// release. When the client's dataProvide fails or answers memory that cannot
// hold the request, the provider fails with kCorruptData (the load answers
// QNN_CONTEXT_ERROR_CREATE_FROM_BINARY), having released what it was given.
WeightsRegionProvider weightsFromClient(const Qnn_ContextBinaryCallback_t& callback);

}  // namespace qnn::sdk
