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

// The node writing `id`, or -1.
int producerOf(const GraphIR& g, uint32_t id) {
  for (size_t i = 0; i < g.nodes.size(); ++i)
    if (std::count(g.nodes[i].outputIds.begin(), g.nodes[i].outputIds.end(), id)) return static_cast<int>(i);
  return -1;
}

// An internal tensor with one reader, written by a node of type `op` with one output: that node's
// index, else -1.
int soleChainLink(const GraphIR& g, uint32_t id, const char* op) {
  const int p = producerOf(g, id);
  if (p < 0 || g.nodes[size_t(p)].typeName != op || g.nodes[size_t(p)].outputIds.size() != 1 || !isInternal(g, id) ||
      soleConsumer(g, id) < 0)
    return -1;
  return p;
}

// Whether ElementWiseAdd node `add` (in[0] dynamic [.., G, 1, S, D], in[1] static) stores in[0]'s values
// repeated along the broadcast axis unchanged, for every stored value of in[0]'s type: its kernel runs on
// probes covering all of them (the converters' Expand as an Add of zeros).
bool addIsBroadcastCopy(const GraphIR& g, const NodeInfo& add) {
  const TensorInfo& x = g.tensors.at(add.inputIds[0]);
  const TensorInfo& z = g.tensors.at(add.inputIds[1]);
  const TensorInfo& y = g.tensors.at(add.outputIds[0]);
  if (z.kind != TensorKind::kStatic || x.kind == TensorKind::kStatic || !sameEncoding(x, y) ||
      (x.dtype != DType::kUFixed8 && x.dtype != DType::kUFixed16) || x.dims.size() != y.dims.size())
    return false;
  KernelFactory factory = findKernel(add.typeName);
  std::unique_ptr<Kernel> k = factory ? factory(add.typeName) : nullptr;
  if (!k || !k->init(add.params).isOk()) return false;
  std::vector<sdk::TensorView> ins = {viewOf(x, nullptr), viewOf(z, const_cast<uint8_t*>(z.staticData.data()))};
  if (!k->prepare(ins, {viewOf(y, nullptr)}).isOk()) return false;
  const size_t n = x.numElements(), m = y.numElements(), width = sdk::dtypeSize(x.dtype);
  const size_t values = size_t(1) << (8 * width);
  std::vector<uint16_t> in(n), out(m);
  std::vector<uint8_t> in8(n), out8(m);
  for (size_t first = 0; first < values; first += n) {
    for (size_t i = 0; i < n; ++i) in[i] = uint16_t((first + i) % values), in8[i] = uint8_t(in[i]);
    ins[0].data = width == 1 ? static_cast<void*>(in8.data()) : in.data();
    if (!k->execute(ins, {viewOf(y, width == 1 ? static_cast<void*>(out8.data()) : out.data())}).isOk()) return false;
    // y[i] must be x at i's coordinates, broadcast axes (x's dim 1) at 0.
    for (size_t i = 0; i < m; ++i) {
      size_t rem = i, src = 0, stride = 1;
      for (size_t d = y.dims.size(); d-- > 0;) {
        const size_t c = rem % y.dims[d];
        rem /= y.dims[d];
        src += (x.dims[d] == 1 ? 0 : c) * stride;
        stride *= x.dims[d];
      }
      if ((width == 1 ? out8[i] : out[i]) != in[src]) return false;
    }
  }
  return true;
}

// Grouped-query attention as the converters write it: the G key / value heads of a cache tensor K
// [1, G, S, D] are repeated R times (Reshape to [1, G, 1, S, D], an Add of zeros broadcast to
// [1, G, R, S, D], Reshape to [1, H = G R, S, D]), optionally transposed and converted per head, then
// multiplied (MatMul in[1]) by per-head rows A [1, H, M, Dk]. Each head of a group reads the same
// values, so the MatMul takes the group's heads as rows instead: A as [1, G, R M, Dk], B the chain on K
// itself (G heads, not H), the output [1, G, R M, N] reshaped back to [1, H, M, N]. Every output is
// the same sum over the same integers (rows are independent), so the bytes are equal, without
// materializing the R copies. Fixed-point tensors only (a float Add of +0 turns -0 into +0).
PassRecord groupedHeadSharing(GraphIR& g) {
  PassRecord r{"grouped_head_sharing", 0, ""};
  uint32_t nextId = 0xF0000000u;
  for (const auto& [id, t] : g.tensors) nextId = std::max(nextId, id + 1);
  auto newTensor = [&](const TensorInfo& like, std::vector<uint32_t> dims, const std::string& suffix) {
    TensorInfo t;
    t.id = nextId++;
    t.name = like.name + suffix;
    t.kind = TensorKind::kNative;
    t.dtype = like.dtype;
    t.quant = like.quant;
    t.dims = std::move(dims);
    g.tensors[t.id] = t;
    return t.id;
  };
  auto reshapeNode = [](const std::string& name, uint32_t in, uint32_t out) {
    NodeInfo n;
    n.name = name;
    n.packageName = "qti.aisw";
    n.typeName = "Reshape";
    n.inputIds = {in};
    n.outputIds = {out};
    return n;
  };
  for (size_t mi = 0; mi < g.nodes.size(); ++mi) {
    const NodeInfo& mm = g.nodes[mi];
    if (mm.typeName != "MatMul" || mm.inputIds.size() != 2 || mm.outputIds.size() != 1 ||
        mm.params.b("transpose_in0", false))
      continue;
    // Back from in[1] through per-head Convert / Transpose (batch axes kept) to the repeating Reshape.
    std::vector<int> perHead;
    uint32_t cur = mm.inputIds[1];
    int p = -1;
    for (;;) {
      p = producerOf(g, cur);
      if (p < 0 || !isInternal(g, cur) || soleConsumer(g, cur) < 0) break;
      const NodeInfo& n = g.nodes[size_t(p)];
      if (n.inputIds.size() != 1 || n.outputIds.size() != 1) break;
      if (n.typeName == "Transpose") {
        const std::vector<int64_t> perm = n.params.ints("perm", {});
        if (perm.size() != 4 || perm[0] != 0 || perm[1] != 1) break;
      } else if (n.typeName != "Convert") {
        break;
      }
      perHead.push_back(p);
      cur = n.inputIds[0];
    }
    const int merge = soleChainLink(g, cur, "Reshape");
    if (merge < 0) continue;
    const uint32_t expanded = g.nodes[size_t(merge)].inputIds[0];
    const int add = soleChainLink(g, expanded, "ElementWiseAdd");
    if (add < 0 || g.nodes[size_t(add)].inputIds.size() != 2) continue;
    const uint32_t unsq = g.nodes[size_t(add)].inputIds[0];
    const int split = soleChainLink(g, unsq, "Reshape");
    if (split < 0) continue;
    const uint32_t kv = g.nodes[size_t(split)].inputIds[0];
    const TensorInfo& kvT = g.tensors.at(kv);
    const TensorInfo& unsqT = g.tensors.at(unsq);
    const TensorInfo& expT = g.tensors.at(expanded);
    const TensorInfo& headsT = g.tensors.at(cur);
    const TensorInfo& aT = g.tensors.at(mm.inputIds[0]);
    const TensorInfo& oT = g.tensors.at(mm.outputIds[0]);
    if (!sdk::dtypeIsFixedPoint(kvT.dtype) || !sameEncoding(kvT, unsqT) || !sameEncoding(expT, headsT) ||
        kvT.dims.size() != 4 || kvT.dims[0] != 1 || headsT.dims.size() != 4 || aT.dims.size() != 4 ||
        oT.dims.size() != 4 || g.tensors.at(mm.inputIds[1]).dims.size() != 4)
      continue;
    const uint32_t G = kvT.dims[1], S = kvT.dims[2], D = kvT.dims[3];
    if (unsqT.dims != std::vector<uint32_t>{1, G, 1, S, D} || expT.dims.size() != 5 || expT.dims[1] != G ||
        expT.dims[2] < 2 || expT.dims[3] != S || expT.dims[4] != D || expT.dims[0] != 1)
      continue;
    const uint32_t R = expT.dims[2], H = G * R;
    if (headsT.dims != std::vector<uint32_t>{1, H, S, D} || aT.dims[0] != 1 || aT.dims[1] != H ||
        oT.dims[0] != 1 || oT.dims[1] != H || g.tensors.at(mm.inputIds[1]).dims[1] != H)
      continue;
    if (!addIsBroadcastCopy(g, g.nodes[size_t(add)])) continue;
    // Rewrite: the per-head chain reads K; its tensors hold G heads.
    const std::string name = mm.name;
    uint32_t from = kv;
    for (auto it = perHead.rbegin(); it != perHead.rend(); ++it) {
      NodeInfo& n = g.nodes[size_t(*it)];
      n.inputIds[0] = from;
      g.tensors.at(n.outputIds[0]).dims[1] = G;
      from = n.outputIds[0];
    }
    const TensorInfo aLike = aT, oLike = oT;
    const uint32_t aRows = newTensor(aLike, {1, G, R * aLike.dims[2], aLike.dims[3]}, "_group_rows");
    const uint32_t oRows = newTensor(oLike, {1, G, R * oLike.dims[2], oLike.dims[3]}, "_group_rows");
    const uint32_t aId = aLike.id, oId = oLike.id;
    NodeInfo& m = g.nodes[mi];
    m.inputIds = {aRows, from};
    m.outputIds = {oRows};
    // Drop the repeating nodes (indices after the MatMul's are unaffected), then place the Reshapes.
    std::vector<int> drop = {merge, add, split};
    std::sort(drop.rbegin(), drop.rend());
    for (int d : drop) g.nodes.erase(g.nodes.begin() + d);
    mi -= size_t(std::count_if(drop.begin(), drop.end(), [&](int d) { return size_t(d) < mi; }));
    g.nodes.insert(g.nodes.begin() + long(mi) + 1, reshapeNode(name + "_heads", oRows, oId));
    g.nodes.insert(g.nodes.begin() + long(mi), reshapeNode(name + "_group_rows", aId, aRows));
    mi += 2;
    r.detail += (r.changes ? ", " : "") + name + " (" + std::to_string(G) + " x " + std::to_string(R) + " heads)";
    ++r.changes;
  }
  return r;
}

// A Transpose swapping the last two axes (batch axes kept) in front of a fixed-point MatMul's in[1],
// optionally followed by a Convert with one encoding per side (a map of each stored value, the same
// wherever the value sits): the MatMul reads the Transpose's input with transpose_in1 instead, the
// Convert (if any) applied to that input; the MatMul sums the same integers, so the bytes are equal,
// without a transposed copy of K every step (attention's K^T).
PassRecord matmulTransposeFolding(GraphIR& g) {
  PassRecord r{"matmul_transpose_folding", 0, ""};
  for (size_t mi = 0; mi < g.nodes.size(); ++mi) {
    const NodeInfo& mm = g.nodes[mi];
    if (mm.typeName != "MatMul" || mm.inputIds.size() < 2 || mm.params.b("transpose_in1", false)) continue;
    const TensorInfo& bT = g.tensors.at(mm.inputIds[1]);
    if (!sdk::dtypeIsFixedPoint(bT.dtype) || bT.quant.kind != sdk::QuantInfo::Kind::kScaleOffset) continue;
    int convert = soleChainLink(g, mm.inputIds[1], "Convert");
    const uint32_t transposed = convert >= 0 ? g.nodes[size_t(convert)].inputIds[0] : mm.inputIds[1];
    if (convert >= 0) {
      const TensorInfo& cIn = g.tensors.at(transposed);
      if (g.nodes[size_t(convert)].inputIds.size() != 1 || !sdk::dtypeIsFixedPoint(cIn.dtype) ||
          cIn.quant.kind != sdk::QuantInfo::Kind::kScaleOffset)
        continue;
    }
    const int tr = soleChainLink(g, transposed, "Transpose");
    if (tr < 0 || g.nodes[size_t(tr)].inputIds.size() != 1) continue;
    const std::vector<int64_t> perm = g.nodes[size_t(tr)].params.ints("perm", {});
    const size_t rank = perm.size();
    bool swapsLastTwo = rank >= 2 && perm[rank - 1] == int64_t(rank - 2) && perm[rank - 2] == int64_t(rank - 1);
    for (size_t d = 0; d + 2 < rank && swapsLastTwo; ++d) swapsLastTwo = perm[d] == int64_t(d);
    const uint32_t source = g.nodes[size_t(tr)].inputIds[0];
    if (!swapsLastTwo || g.tensors.at(transposed).dims.size() != rank ||
        !sameEncoding(g.tensors.at(source), g.tensors.at(transposed)))
      continue;
    if (convert >= 0) {
      NodeInfo& c = g.nodes[size_t(convert)];
      c.inputIds[0] = source;
      g.tensors.at(c.outputIds[0]).dims = g.tensors.at(source).dims;
    } else {
      g.nodes[mi].inputIds[1] = source;
    }
    g.nodes[mi].params.set("transpose_in1", sdk::scalarBool(true));
    r.detail += (r.changes ? ", " : "") + g.nodes[mi].name;
    ++r.changes;
    g.tensors.erase(transposed);
    g.nodes.erase(g.nodes.begin() + tr);
    if (size_t(tr) < mi) --mi;
  }
  return r;
}

// A Concat along axis rank-2 of a fixed-point MatMul's in[1] (attention's past cache and new row: the
// output columns of Q K^T with transpose_in1, the summed axis of P V), optionally followed by a Convert
// with one encoding per side: the MatMul reads the Concat's inputs as parts of in[1] (param
// in1_parts; each converted by its own copy of the Convert, a map of each stored value), so the cache
// is not copied every step. The same integers are summed, so the bytes are equal.
PassRecord matmulConcatReading(GraphIR& g) {
  PassRecord r{"matmul_concat_reading", 0, ""};
  uint32_t nextId = 0xF0000000u;
  for (const auto& [id, t] : g.tensors) nextId = std::max(nextId, id + 1);
  for (size_t mi = 0; mi < g.nodes.size(); ++mi) {
    if (g.nodes[mi].typeName != "MatMul" || g.nodes[mi].inputIds.size() != 2 ||
        g.nodes[mi].params.has("in1_parts"))
      continue;
    const uint32_t bId = g.nodes[mi].inputIds[1];
    const TensorInfo& bT = g.tensors.at(bId);
    if (!sdk::dtypeIsFixedPoint(bT.dtype) || bT.quant.kind != sdk::QuantInfo::Kind::kScaleOffset ||
        bT.dims.size() < 2)
      continue;
    const int convert = soleChainLink(g, bId, "Convert");
    const uint32_t joined = convert >= 0 ? g.nodes[size_t(convert)].inputIds[0] : bId;
    if (convert >= 0 && g.nodes[size_t(convert)].inputIds.size() != 1) continue;
    const int concat = soleChainLink(g, joined, "Concat");
    if (concat < 0) continue;
    const NodeInfo& cat = g.nodes[size_t(concat)];
    const TensorInfo& jT = g.tensors.at(joined);
    const size_t rank = jT.dims.size();
    const int64_t axis = cat.params.has("axis") ? int64_t(cat.params.u32("axis", 0)) : int64_t(rank) - 1;
    if (rank != bT.dims.size() || axis != int64_t(rank) - 2 || cat.inputIds.size() < 2 || !sdk::dtypeIsFixedPoint(jT.dtype) ||
        jT.quant.kind != sdk::QuantInfo::Kind::kScaleOffset)
      continue;
    bool plain = true;  // every part in the Concat output's encoding and shape but the axis
    for (uint32_t in : cat.inputIds) {
      const TensorInfo* t = g.findTensor(in);
      plain = plain && t && t->kind != TensorKind::kNull && sameEncoding(*t, jT) && t->dims.size() == rank;
      for (size_t d = 0; plain && d < rank; ++d) plain = d == size_t(axis) || t->dims[d] == jT.dims[d];
    }
    if (!plain) continue;
    const std::string name = g.nodes[mi].name;
    const std::vector<uint32_t> sources = cat.inputIds;
    std::vector<uint32_t> parts;
    std::vector<NodeInfo> converts;
    for (size_t i = 0; i < sources.size() && convert >= 0; ++i) {
      const NodeInfo& c = g.nodes[size_t(convert)];
      TensorInfo t = g.tensors.at(c.outputIds[0]);
      t.id = nextId++;
      t.name += "_part" + std::to_string(i);
      t.dims = g.tensors.at(sources[i]).dims;
      g.tensors[t.id] = t;
      NodeInfo n = c;
      n.name += "_part" + std::to_string(i);
      n.inputIds = {sources[i]};
      n.outputIds = {t.id};
      converts.push_back(n);
      parts.push_back(t.id);
    }
    if (convert < 0) parts = sources;
    NodeInfo& m = g.nodes[mi];
    m.inputIds.resize(1);
    m.inputIds.insert(m.inputIds.end(), parts.begin(), parts.end());
    m.params.set("in1_parts", sdk::scalarU32(uint32_t(parts.size())));
    // Drop the Concat (and Convert) with their outputs, then place the part Converts before the MatMul.
    g.tensors.erase(joined);
    if (convert >= 0) g.tensors.erase(bId);
    std::vector<int> drop = {concat};
    if (convert >= 0) drop.push_back(convert);
    std::sort(drop.rbegin(), drop.rend());
    for (int d : drop) g.nodes.erase(g.nodes.begin() + d);
    mi -= size_t(std::count_if(drop.begin(), drop.end(), [&](int d) { return size_t(d) < mi; }));
    g.nodes.insert(g.nodes.begin() + long(mi), converts.begin(), converts.end());
    mi += converts.size();
    r.detail += (r.changes ? ", " : "") + name + " (" + std::to_string(parts.size()) + " parts)";
    ++r.changes;
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
  if (!fast) out->passes.push_back(groupedHeadSharing(g));
  if (!fast) out->passes.push_back(matmulTransposeFolding(g));
  if (!fast) out->passes.push_back(matmulConcatReading(g));
  dropDeadTensors(g);
  out->passes.push_back(tiling(g, o, o.optMode == 3, clamps, &out->plans));
  return Status::ok();
}

}  // namespace qnn::htp
