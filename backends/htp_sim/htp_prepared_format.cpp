#include "htp_sim/htp_prepared_format.h"

#include "HTP/QnnHtpCommon.h"
#include "byte_io/byte_io.h"
#include "context_binary/context_binary.h"
#include "htp_sim/htp_blockwise.h"
#include "prepared_blob/htp_prepared_head.h"

namespace qnn::htp {
namespace {

using sdk::binary::ByteReader;
using sdk::binary::ByteWriter;

// 2: static data equal to the source graph's is not stored again; 3: fp16ClampOverflow after the options;
// 4: blockwise-expanded weights are re-expanded from the source graph's tensor instead of stored
// (written only by graphs that have such weights, so the others stay readable by version-3 readers).
constexpr uint32_t kVersion = 4;
constexpr uint32_t kVersionWithoutExpanded = 3;
constexpr size_t kMaxString = 1 << 20;

sdk::Status corrupt(const std::string& what) { return sdk::corruptData("prepared HTP graph: " + what); }

}  // namespace

sdk::Status encodePreparedGraph(const PreparedPlan& plan, const GraphOptions& o, const sdk::GraphIR& source,
                                std::vector<uint8_t>* out) {
  sdk::ContextBinaryContents graph;
  graph.backendId = QNN_BACKEND_ID_HTP;
  graph.graphs.push_back(plan.graph);
  // Weights the passes left as they were are the source graph's, which the
  // context binary holds already: stored as a reference (the tensor written as
  // NATIVE without data, its id listed) instead of a second copy.
  // Weights the passes expanded from a blockwise (LPBQ) tensor of the source graph are stored
  // as a reference too (listed in `expanded`); loading expands the source's tensor again.
  std::vector<uint32_t> fromSource, expanded;
  for (auto& [id, t] : graph.graphs[0].tensors) {
    const sdk::TensorInfo* s = source.findTensor(id);
    if (t.kind != sdk::TensorKind::kStatic || t.staticData.empty() || !s || s->kind != sdk::TensorKind::kStatic ||
        s->dtype != t.dtype)
      continue;
    std::vector<uint32_t>* list = nullptr;
    if (s->staticData == t.staticData) {
      list = &fromSource;
    } else if (s->quant.kind == sdk::QuantInfo::Kind::kBlockwiseExpansion) {
      sdk::TensorInfo again;
      if (expandBlockwise(*s, &again).isOk() && again.staticData == t.staticData) list = &expanded;
    }
    if (!list) continue;
    t.kind = sdk::TensorKind::kNative;
    t.staticData.clear();
    list->push_back(id);
  }
  std::vector<uint8_t> graphBytes;
  QNN_SDK_RETURN_IF_ERROR(sdk::writeContextBinary(graph, &graphBytes));
  ByteWriter w(out);
  const uint32_t version = expanded.empty() ? kVersionWithoutExpanded : kVersion;
  sdk::writeHtpPreparedHead(w, version,
                            {o.socModel, o.arch, o.vtcmMB, o.optMode, uint32_t(o.fp16), o.hvxThreads,
                             uint32_t(o.foldReluIntoConv), o.contextPriority});
  w.u32(uint32_t(o.fp16ClampOverflow));
  w.u32(static_cast<uint32_t>(plan.passes.size()));
  for (const PassRecord& p : plan.passes) {
    w.str(p.pass);
    w.u32(p.changes);
    w.str(p.detail);
  }
  w.u32(static_cast<uint32_t>(plan.plans.size()));
  for (const NodePlan& n : plan.plans) {
    w.u8(n.clamp.active);
    w.i32(n.clamp.lo);
    w.i32(n.clamp.hi);
    w.str(n.clamp.activation);
    w.u32(n.tiles);
    w.str(n.layout);
    w.u64(n.cycles);
    w.u8(n.onHmx);
  }
  w.u32(static_cast<uint32_t>(fromSource.size()));
  for (uint32_t id : fromSource) w.u32(id);
  if (version >= 4) {
    w.u32(static_cast<uint32_t>(expanded.size()));
    for (uint32_t id : expanded) w.u32(id);
  }
  w.u64(graphBytes.size());
  w.bytes(graphBytes.data(), graphBytes.size());
  return sdk::Status::ok();
}

sdk::Status decodePreparedGraph(const uint8_t* data, size_t size, const sdk::GraphIR& source, PreparedPlan* plan,
                                GraphOptions* o) {
  ByteReader r(data, size);
  uint32_t version = 0;
  if (!sdk::readHtpPreparedMagic(r)) return corrupt("bad magic");
  if (!r.u32(&version) || version < 1 || version > kVersion) return corrupt("unknown version " + std::to_string(version));
  sdk::HtpPreparedOptions head;
  if (!sdk::readHtpPreparedOptions(r, &head)) return corrupt("truncated options");
  o->socModel = head.socModel, o->arch = head.arch, o->vtcmMB = head.vtcmMB, o->optMode = head.optMode;
  o->hvxThreads = head.hvxThreads, o->contextPriority = head.contextPriority;
  uint32_t clampOverflow = 0;
  if (version >= 3 && !r.u32(&clampOverflow)) return corrupt("truncated options");
  o->fp16ClampOverflow = clampOverflow != 0;
  o->fp16 = head.fp16 != 0;
  o->foldReluIntoConv = head.foldReluIntoConv != 0;
  if (!findArch(o->arch)) return corrupt("unknown HTP architecture " + std::to_string(o->arch));
  uint32_t n = 0;
  if (!r.count(&n, 12)) return corrupt("truncated pass records");
  for (uint32_t i = 0; i < n; ++i) {
    PassRecord p;
    if (!r.str(&p.pass, kMaxString) || !r.u32(&p.changes) || !r.str(&p.detail, kMaxString))
      return corrupt("truncated pass record");
    plan->passes.push_back(std::move(p));
  }
  if (!r.count(&n, 30)) return corrupt("truncated node plans");
  for (uint32_t i = 0; i < n; ++i) {
    NodePlan p;
    uint8_t active = 0, hmx = 0;
    if (!r.u8(&active) || !r.i32(&p.clamp.lo) || !r.i32(&p.clamp.hi) || !r.str(&p.clamp.activation, kMaxString) ||
        !r.u32(&p.tiles) || !r.str(&p.layout, kMaxString) || !r.u64(&p.cycles) || !r.u8(&hmx))
      return corrupt("truncated node plan");
    p.clamp.active = active != 0;
    p.onHmx = hmx != 0;
    plan->plans.push_back(std::move(p));
  }
  std::vector<uint32_t> fromSource;
  if (version >= 2) {
    if (!r.count(&n, 4)) return corrupt("truncated source tensor list");
    fromSource.resize(n);
    for (uint32_t& id : fromSource) r.u32(&id);
  }
  std::vector<uint32_t> expanded;
  if (version >= 4) {
    if (!r.count(&n, 4)) return corrupt("truncated expanded tensor list");
    expanded.resize(n);
    for (uint32_t& id : expanded) r.u32(&id);
  }
  uint64_t graphSize = 0;
  const uint8_t* graphBytes = nullptr;
  if (!r.u64(&graphSize) || graphSize != r.remaining() || !r.view(graphSize, &graphBytes))
    return corrupt("truncated graph");
  sdk::ContextBinaryContents graph;
  sdk::Status st = sdk::readContextBinary(graphBytes, graphSize, &graph);
  if (!st.isOk()) return corrupt(st.message());
  if (graph.graphs.size() != 1) return corrupt("holds " + std::to_string(graph.graphs.size()) + " graphs");
  plan->graph = std::move(graph.graphs[0]);
  if (plan->plans.size() != plan->graph.nodes.size()) return corrupt("node plans do not match the graph's nodes");
  for (uint32_t id : fromSource) {
    auto it = plan->graph.tensors.find(id);
    const sdk::TensorInfo* s = source.findTensor(id);
    if (it == plan->graph.tensors.end() || it->second.kind != sdk::TensorKind::kNative || !s ||
        s->kind != sdk::TensorKind::kStatic || s->dtype != it->second.dtype ||
        s->staticData.size() != it->second.byteSize())
      return corrupt("tensor id " + std::to_string(id) + " takes its data from the graph, which holds no such weights");
    it->second.kind = sdk::TensorKind::kStatic;
    it->second.staticData = s->staticData;
  }
  for (uint32_t id : expanded) {
    auto it = plan->graph.tensors.find(id);
    const sdk::TensorInfo* s = source.findTensor(id);
    sdk::TensorInfo again;
    if (it == plan->graph.tensors.end() || it->second.kind != sdk::TensorKind::kNative || !s ||
        s->kind != sdk::TensorKind::kStatic || s->quant.kind != sdk::QuantInfo::Kind::kBlockwiseExpansion ||
        s->dtype != it->second.dtype || !expandBlockwise(*s, &again).isOk() ||
        again.staticData.size() != it->second.byteSize())
      return corrupt("tensor id " + std::to_string(id) +
                     " is the expansion of the graph's blockwise weights, which the graph does not hold");
    it->second.kind = sdk::TensorKind::kStatic;
    it->second.staticData = std::move(again.staticData);
  }
  return sdk::Status::ok();
}

}  // namespace qnn::htp
