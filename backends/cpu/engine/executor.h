// Runs a prepared CPU graph's steps in order over one table of tensor pointers: static data,
// the memory plan's native buffers and, per execute, the client's input and output buffers.
#pragma once

#include <map>
#include <vector>

#include "cpu/engine/step.h"
#include "runtime/engine.h"

namespace qnn::cpu {

class Executor {
 public:
  // Starts a new table: every static tensor's data and the native buffers `native`.
  void reset(const GraphIR& ir, const std::map<uint32_t, void*>& native);
  // Points at a static tensor's (new) data after a tensor update.
  void setStatic(const TensorInfo& t, uint32_t id);
  // Points every step at its tensors' infos and table entries (std::map entries keep their
  // address while the table lives; graph inputs and outputs get their entry here, their
  // buffers at each run).
  void bind(const GraphIR& ir, Steps& steps);
  // Binds the client's buffers and runs the steps, polling options.checkCancel between them;
  // with per-node timings, nodes folded into a step are listed after it with no time of their own.
  Status run(const GraphIR& ir, Steps& steps, const std::vector<sdk::TensorBinding>& inputs,
             const std::vector<sdk::TensorBinding>& outputs, const sdk::ExecuteOptions& options,
             std::vector<sdk::NodeTiming>* timings);

 private:
  std::map<uint32_t, void*> pointers_;
};

}  // namespace qnn::cpu
