#include "htp_sim/htp_passes.h"

#include "htp_sim/htp_blockwise.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

#include "htp_sim/htp_cost_model.h"
#include "htp_sim/kernels/htp_kernel.h"
#include "quant/fixed_point.h"

namespace qnn::htp {
namespace {

using sdk::DType;
using sdk::GraphIR;
using sdk::NodeInfo;
using sdk::Status;
using sdk::TensorInfo;
using sdk::TensorKind;


// The single node reading `id`, or -1.
int soleConsumer(const GraphIR& g, uint32_t id) {
  int found = -1;
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (std::count(g.nodes[i].inputIds.begin(), g.nodes[i].inputIds.end(), id)) {
      if (found >= 0) return -1;
      found = static_cast<int>(i);
    }
  return found;
}

void rewire(GraphIR& g, uint32_t from, uint32_t to) {
  for (NodeInfo& n : g.nodes)
    for (uint32_t& id : n.inputIds)
      if (id == from) id = to;
}

bool isInternal(const GraphIR& g, uint32_t id) {
  const TensorInfo* t = g.findTensor(id);
  return t && t->kind == TensorKind::kNative;
}

std::vector<const TensorInfo*> tensorsOf(const GraphIR& g, const std::vector<uint32_t>& ids) {
  std::vector<const TensorInfo*> v;
  for (uint32_t id : ids) v.push_back(g.findTensor(id));
  return v;
}

sdk::TensorView viewOf(const TensorInfo& t, void* data) {
  sdk::TensorView v;
  v.data = data;
  v.dtype = t.dtype;
  v.dims = t.dims;
  v.quant = t.quant;
  return v;
}

// Runs a node whose inputs are all static and turns its outputs into static tensors.
Status evaluateStatic(GraphIR& g, const NodeInfo& node) {
  KernelFactory factory = findKernel(node.typeName);
  if (!factory) return sdk::unsupportedOp("no kernel for " + node.typeName);
  std::unique_ptr<Kernel> k = factory(node.typeName);
  if (!k) return sdk::unsupportedOp("no kernel for " + node.typeName);
  std::vector<sdk::TensorView> ins, outs;
  for (uint32_t id : node.inputIds) {
    TensorInfo& t = g.tensors.at(id);
    ins.push_back(viewOf(t, t.kind == TensorKind::kNull ? nullptr : const_cast<uint8_t*>(t.staticData.data())));
  }
  std::vector<std::vector<uint8_t>> data;
  for (uint32_t id : node.outputIds) data.emplace_back(g.tensors.at(id).byteSize());
  for (size_t i = 0; i < node.outputIds.size(); ++i) outs.push_back(viewOf(g.tensors.at(node.outputIds[i]), data[i].data()));
  QNN_SDK_RETURN_IF_ERROR(k->init(node.params));
  QNN_SDK_RETURN_IF_ERROR(k->prepare(ins, outs));
  QNN_SDK_RETURN_IF_ERROR(k->execute(ins, outs));
  for (size_t i = 0; i < node.outputIds.size(); ++i) {
    TensorInfo& t = g.tensors.at(node.outputIds[i]);
    t.kind = TensorKind::kStatic;
    t.staticData = std::move(data[i]);
  }
  return Status::ok();
}

// Folds every node whose inputs are all static and whose outputs are internal.
PassRecord constantFolding(GraphIR& g) {
  PassRecord r{"constant_folding", 0, ""};
  for (size_t i = 0; i < g.nodes.size();) {
    const NodeInfo& n = g.nodes[i];
    bool foldable = !n.inputIds.empty();
    for (uint32_t id : n.inputIds) {
      const TensorInfo* t = g.findTensor(id);
      foldable = foldable && t && (t->kind == TensorKind::kStatic || t->kind == TensorKind::kNull);
    }
    for (uint32_t id : n.outputIds) foldable = foldable && isInternal(g, id);
    if (foldable && evaluateStatic(g, n).isOk()) {
      r.detail += (r.changes ? ", " : "") + n.name;
      ++r.changes;
      g.nodes.erase(g.nodes.begin() + static_cast<long>(i));
    } else {
      ++i;
    }
  }
  return r;
}

bool sameEncoding(const TensorInfo& a, const TensorInfo& b) { return a.dtype == b.dtype && a.quant == b.quant; }

// Convert with equal encodings disappears; Convert->Convert and Dequantize->Quantize
// chains through an internal tensor become one Convert.
PassRecord requantizeFolding(GraphIR& g, bool haveConvert) {
  PassRecord r{"requantize_folding", 0, ""};
  auto note = [&](const std::string& what) {
    r.detail += (r.changes ? ", " : "") + what;
    ++r.changes;
  };
  bool changed = true;
  while (changed) {
    changed = false;
    for (size_t i = 0; i < g.nodes.size() && !changed; ++i) {
      NodeInfo& n = g.nodes[i];
      if (n.inputIds.size() != 1 || n.outputIds.size() != 1) continue;
      uint32_t in = n.inputIds[0], out = n.outputIds[0];
      if (n.typeName == "Convert" && isInternal(g, out) && sameEncoding(g.tensors.at(in), g.tensors.at(out))) {
        note(n.name + " (identity)");
        rewire(g, out, in);
        g.tensors.erase(out);
        g.nodes.erase(g.nodes.begin() + static_cast<long>(i));
        changed = true;
        continue;
      }
      bool first = n.typeName == "Convert" || n.typeName == "Dequantize";
      if (!first || !isInternal(g, out)) continue;
      int c = soleConsumer(g, out);
      if (c < 0) continue;
      NodeInfo& next = g.nodes[static_cast<size_t>(c)];
      bool chain = (n.typeName == "Convert" && next.typeName == "Convert") ||
                   (n.typeName == "Dequantize" && next.typeName == "Quantize" && haveConvert);
      if (!chain || next.outputIds.size() != 1) continue;
      note(n.name + "+" + next.name);
      next.typeName = "Convert";
      next.params = sdk::OpParams();
      next.inputIds = {in};
      g.tensors.erase(out);
      g.nodes.erase(g.nodes.begin() + static_cast<long>(i));
      changed = true;
    }
  }
  return r;
}

bool isConvLike(const std::string& op) {
  return op == "Conv2d" || op == "DepthWiseConv2d" || op == "TransposeConv2d" || op == "FullyConnected";
}

// Element-wise producers an activation folds into (ResNet's residual Add + Relu);
// only on fixed-point tensors (checked below), where the kernels clamp exactly.
bool isFusableElementWise(const std::string& op) { return op == "ElementWiseAdd" || op == "ElementWiseSubtract"; }

// Folds Relu/Relu1/Relu6/ReluMinMax into the conv-like or Add/Subtract op producing its input.
// Clamps are keyed by the fused node's output tensor id: node names need not be unique.
PassRecord activationFusion(GraphIR& g, std::map<uint32_t, FusedClamp>* clamps) {
  PassRecord r{"conv_activation_fusion", 0, ""};
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    NodeInfo& producer = g.nodes[i];
    const bool elementWise = isFusableElementWise(producer.typeName);
    if (!(isConvLike(producer.typeName) || elementWise) || producer.outputIds.size() != 1) continue;
    uint32_t mid = producer.outputIds[0];
    if (!isInternal(g, mid)) continue;
    int c = soleConsumer(g, mid);
    if (c < 0) continue;
    const NodeInfo& act = g.nodes[static_cast<size_t>(c)];
    double lo = 0, hi = std::numeric_limits<double>::infinity();
    if (act.typeName == "Relu") {
    } else if (act.typeName == "Relu6") {
      hi = 6;
    } else if (act.typeName == "Relu1") {
      lo = -1, hi = 1;
    } else if (act.typeName == "ReluMinMax") {
      lo = act.params.f32("min_value", 0.f), hi = act.params.f32("max_value", 0.f);
    } else {
      continue;
    }
    const TensorInfo& midT = g.tensors.at(mid);
    const TensorInfo& outT = g.tensors.at(act.outputIds[0]);
    if (!sdk::dtypeIsFixedPoint(outT.dtype) || outT.dtype != midT.dtype ||
        outT.quant.kind != sdk::QuantInfo::Kind::kScaleOffset)
      continue;
    if (elementWise && outT.dims != midT.dims) continue;
    FusedClamp fc;
    fc.active = true;
    fc.activation = act.typeName;
    fc.lo = quantizeScalar(outT, lo);
    fc.hi = quantizeScalar(outT, hi);
    r.detail += (r.changes ? ", " : "") + producer.name + "+" + act.name;
    ++r.changes;
    producer.outputIds[0] = act.outputIds[0];
    (*clamps)[producer.outputIds[0]] = fc;
    g.tensors.erase(mid);
    g.nodes.erase(g.nodes.begin() + c);
  }
  return r;
}

// Chooses each node's layout and tile count so its working set fits the VTCM budget.
PassRecord tiling(GraphIR& g, const GraphOptions& o, bool exhaustive, const std::map<uint32_t, FusedClamp>& clamps,
                  std::vector<NodePlan>* plans) {
  PassRecord r{exhaustive ? "vtcm_tiling_search" : "vtcm_tiling", 0, ""};
  const uint64_t budget = std::max<uint64_t>(1, uint64_t(o.vtcmMB) << 20);
  for (const NodeInfo& n : g.nodes) {
    NodePlan p;
    auto ins = tensorsOf(g, n.inputIds), outs = tensorsOf(g, n.outputIds);
    uint64_t ws = workingSetBytes(ins, outs);
    uint32_t minTiles = static_cast<uint32_t>(std::max<uint64_t>(1, (ws + budget - 1) / budget));
    p.tiles = minTiles;
    NodeCost best = estimateNodeCost(n, ins, outs, o, minTiles);
    if (exhaustive)  // finer tiles can overlap DMA with compute better; keep the cheapest.
      for (uint32_t t = minTiles + 1; t <= minTiles * 4; ++t) {
        NodeCost c = estimateNodeCost(n, ins, outs, o, t);
        if (c.cycles < best.cycles) best = c, p.tiles = t;
      }
    p.cycles = best.cycles;
    p.onHmx = best.onHmx;
    const TensorInfo* out0 = outs.empty() ? nullptr : outs[0];
    bool rank4 = out0 && out0->dims.size() == 4;
    size_t eb = out0 ? sdk::dtypeSize(out0->dtype) : 1;
    // Activations of 4-D tensors go to the HTP's blocked depth-major layout:
    // 8x8x32 blocks for 8-bit data, 8x4x32 (2 bytes per lane pair) for 16-bit and fp16.
    p.layout = rank4 ? (eb == 1 ? "crouton 8x8x32" : "crouton 8x4x32") : "flat";
    if (auto it = n.outputIds.empty() ? clamps.end() : clamps.find(n.outputIds[0]); it != clamps.end())
      p.clamp = it->second;
    if (p.tiles > 1) {
      r.detail += (r.changes ? ", " : "") + n.name + " in " + std::to_string(p.tiles) + " tiles";
      ++r.changes;
    }
    plans->push_back(p);
  }
  if (!r.changes) r.detail = "every node fits " + std::to_string(o.vtcmMB) + " MB of VTCM";
  return r;
}

// Tensors no node reads or writes any more (consumed by folding) are dropped.
void dropDeadTensors(GraphIR& g) {
  std::set<uint32_t> used;
  for (const NodeInfo& n : g.nodes) {
    used.insert(n.inputIds.begin(), n.inputIds.end());
    used.insert(n.outputIds.begin(), n.outputIds.end());
  }
  for (auto it = g.tensors.begin(); it != g.tensors.end();) {
    bool io = it->second.isGraphInput() || it->second.isGraphOutput();
    it = (!io && !used.count(it->first)) ? g.tensors.erase(it) : std::next(it);
  }
}

}  // namespace

int32_t quantizeScalar(const TensorInfo& t, double real) {
  // The float-to-fixed-point rounding of sdk/quant/fixed_point.h (quantizeValue), then saturation.
  const sdk::quant::QuantRange range = sdk::quant::quantRange(t.dtype, t.quant.bitwidth);
  if (std::isinf(real)) return static_cast<int32_t>(real > 0 ? range.hi : range.lo);
  return static_cast<int32_t>(sdk::quant::quantizeValue(real, t.quant.scale, t.quant.offset, range));
}

sdk::Epilogue fusedEpilogue(const NodePlan& plan, const TensorInfo& out0) {
  sdk::Epilogue e;
  const FusedClamp& c = plan.clamp;
  if (!c.active || out0.quant.kind != sdk::QuantInfo::Kind::kScaleOffset) return e;
  const sdk::quant::QuantRange range = sdk::quant::quantRange(out0.dtype, out0.quant.bitwidth);
  const double scale = out0.quant.scale;
  const double realMin = c.lo <= range.lo ? -INFINITY : scale * (double(c.lo) + out0.quant.offset);
  const double realMax = c.hi >= range.hi ? INFINITY : scale * (double(c.hi) + out0.quant.offset);
  // float bounds: the kernels quantize an 8/16-bit output from float(real) (quantizeValue), so the
  // rounding to float changes nothing.
  e.clamp = sdk::Epilogue::Range{float(realMin), float(realMax)};
  return e;
}

Status runPasses(const GraphIR& graph, const GraphOptions& o, PreparedPlan* out) {
  out->graph = graph;
  GraphIR& g = out->graph;
  std::map<uint32_t, FusedClamp> clamps;
  const bool fast = o.optMode == 1;
  // Mode 1 (fastest preparation) keeps the graph's structure: only the folding
  // of redundant requantizations and the mandatory tiling run.
  // Blockwise weights are expanded in every mode: the matrix unit reads only per-channel weights.
  uint32_t expanded = 0;
  QNN_SDK_RETURN_IF_ERROR(expandBlockwiseTensors(&g, &expanded));
  if (expanded) out->passes.push_back({"blockwise-expansion", expanded, std::to_string(expanded) + " weight(s) expanded to per-channel"});
  if (!fast) out->passes.push_back(constantFolding(g));
  out->passes.push_back(requantizeFolding(g, findKernel("Convert") != nullptr));
  if (!fast && o.foldReluIntoConv) out->passes.push_back(activationFusion(g, &clamps));
  dropDeadTensors(g);
  out->passes.push_back(tiling(g, o, o.optMode == 3, clamps, &out->plans));
  return Status::ok();
}

}  // namespace qnn::htp
