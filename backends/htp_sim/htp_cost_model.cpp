#include "htp_sim/htp_cost_model.h"

#include <algorithm>

namespace qnn::htp {
namespace {

constexpr uint64_t kDmaBytesPerCycle = 64;   // DDR -> VTCM DMA
constexpr uint64_t kOpLaunchCycles = 200;    // per-op scheduling overhead
constexpr uint64_t kTileCycles = 100;        // per extra tile (DMA setup, halo)

bool isMatrixOp(const std::string& op) {
  return op == "Conv2d" || op == "TransposeConv2d" || op == "Conv3d" || op == "TransposeConv3d" ||
         op == "FullyConnected" || op == "MatMul";
}
// Ops whose per-element cost is a polynomial/table evaluation rather than one vector op.
bool isTranscendental(const std::string& op) {
  return op == "Sigmoid" || op == "Tanh" || op == "Softmax" || op == "LogSoftmax" || op == "ElementWiseExp" ||
         op == "ElementWiseLog" || op == "Gelu" || op == "Elu" || op == "LayerNorm" || op == "ElementWiseRsqrt" ||
         op == "ElementWiseSquareRoot" || op == "ElementWiseDivide" || op == "HardSwish";
}

uint64_t elements(const sdk::TensorInfo* t) { return t ? t->numElements() : 0; }

// Multiply-accumulates of a matrix-like op: output elements x reduction length.
uint64_t reductionMacs(const sdk::NodeInfo& node, const std::vector<const sdk::TensorInfo*>& ins,
                       const std::vector<const sdk::TensorInfo*>& outs) {
  if (ins.size() < 2 || !ins[1] || outs.empty()) return elements(outs.empty() ? nullptr : outs[0]);
  const auto& w = ins[1]->dims;
  uint64_t out = elements(outs[0]);
  if (node.typeName == "FullyConnected") return out * (w.size() == 2 ? w[1] : 1);
  if (node.typeName == "MatMul") {
    const auto& a = ins[0]->dims;
    bool transposeA = node.params.b("transpose_in0", false);
    return out * (a.empty() ? 1 : transposeA && a.size() >= 2 ? a[a.size() - 2] : a.back());
  }
  if (node.typeName == "DepthWiseConv2d") return out * (w.size() == 4 ? uint64_t(w[0]) * w[1] : 1);
  // Conv: filter [kh, kw, cin/groups, cout] (or 5-D for 3-D conv): all but the last dim reduce.
  uint64_t red = 1;
  for (size_t i = 0; i + 1 < w.size(); ++i) red *= w[i];
  return out * red;
}

}  // namespace

uint64_t workingSetBytes(const std::vector<const sdk::TensorInfo*>& inputs,
                         const std::vector<const sdk::TensorInfo*>& outputs) {
  uint64_t b = 0;
  for (auto* t : inputs) b += t ? t->byteSize() : 0;
  for (auto* t : outputs) b += t ? t->byteSize() : 0;
  return b;
}

NodeCost estimateNodeCost(const sdk::NodeInfo& node, const std::vector<const sdk::TensorInfo*>& inputs,
                          const std::vector<const sdk::TensorInfo*>& outputs, const GraphOptions& o, uint32_t tiles) {
  NodeCost c;
  const ArchInfo* arch = findArch(o.arch);
  const uint64_t threads = std::max<uint32_t>(1, o.hvxThreads);
  const sdk::TensorInfo* in0 = inputs.empty() ? nullptr : inputs[0];
  const size_t elemBytes = in0 ? std::max<size_t>(1, sdk::dtypeSize(in0->dtype)) : 1;
  // 16-bit data halves the lanes of a vector and quarters the HMX rate; fp16 halves the HMX rate.
  const bool isFloat = in0 && sdk::dtypeIsFloat(in0->dtype);
  c.workingSet = workingSetBytes(inputs, outputs);
  uint64_t weightBytes = 0;
  for (auto* t : inputs)
    if (t && t->kind == sdk::TensorKind::kStatic) weightBytes += t->byteSize();
  c.bytesMoved = c.workingSet + (tiles > 1 ? weightBytes * (tiles - 1) : 0);
  uint64_t compute = 0;
  if (isMatrixOp(node.typeName) && arch) {
    c.onHmx = true;
    c.macs = reductionMacs(node, inputs, outputs);
    uint64_t rate = arch->hmxInt8MacsPerCycle;
    if (isFloat) rate /= 2;
    else if (elemBytes >= 2) rate /= 4;
    compute = c.macs / std::max<uint64_t>(1, rate);
  } else {
    // HVX: one 1024-bit vector op per thread per cycle, 128 / elemBytes lanes.
    const uint64_t lanes = kHvxVectorBytes / (isFloat ? 2 : elemBytes);
    if (node.typeName == "DepthWiseConv2d") {
      c.macs = reductionMacs(node, inputs, outputs);
    } else {
      uint64_t e = 0;
      for (auto* t : outputs) e += elements(t);
      for (auto* t : inputs) e = std::max(e, elements(t));
      c.macs = e * (isTranscendental(node.typeName) ? 8 : 1);
    }
    compute = (c.macs + lanes - 1) / lanes / threads;
  }
  const uint64_t memory = c.bytesMoved / kDmaBytesPerCycle;
  // Compute and DMA overlap when the node is resident; tiles serialize part of the traffic.
  c.cycles = kOpLaunchCycles + (tiles > 1 ? compute + memory / 2 + kTileCycles * (tiles - 1) : std::max(compute, memory));
  return c;
}

}  // namespace qnn::htp
