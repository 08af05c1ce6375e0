// Updates of UPDATEABLE_* tensors: what QnnTensor_updateGraphTensors /
// QnnTensor_updateContextTensors and binary sections may change, checked
// against the tensor they name, and applied to a graph's IR. QnnTensor.h:
// "Valid fields to update are: data and quantization parameters for
// UPDATEABLE_STATIC tensors, quantization parameters for UPDATEABLE_NATIVE,
// UPDATEABLE_APP_READ, UPDATEABLE_APP_WRITE, and UPDATEABLE_APP_READWRITE".
#pragma once

#include <cstdint>
#include <map>
#include <vector>

#include "QnnTypes.h"
#include "core/status.h"
#include "graph/graph_ir.h"

namespace qnn::sdk {

struct TensorUpdate {
  bool hasData = false;
  std::vector<uint8_t> data;  // hasData: exactly the tensor's byte size
  bool hasQuant = false;
  QuantInfo quant;  // hasQuant: same encoding kind and channel count as the tensor's
};

// Tensor id -> its update.
using TensorUpdates = std::map<uint32_t, TensorUpdate>;

// Reads the client's update of `target` (the tensor its id names). Refuses with
// kIncompatibleUpdate what the tensor cannot take: a tensor not created
// updateable, data for a non-static tensor, data of another size, another
// datatype or shape, another quantization kind or channel count.
Status readTensorUpdate(const TensorInfo& target, const Qnn_Tensor_t& client, TensorUpdate* update);

// Checks an update that did not come from a client struct (a binary section).
Status checkTensorUpdate(const TensorInfo& target, const TensorUpdate& update);

// Writes the updates into `ir` (ids absent from it are skipped); when
// `previous` is given, it receives the values replaced, to undo with the same call.
void applyTensorUpdates(GraphIR& ir, const TensorUpdates& updates, TensorUpdates* previous);

// Merges `later` into `earlier` (the later call's fields win).
void mergeTensorUpdates(TensorUpdates& earlier, const TensorUpdates& later);

}  // namespace qnn::sdk
