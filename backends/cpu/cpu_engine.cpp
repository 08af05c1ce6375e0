#include "cpu_engine.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <climits>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>

#include "core/tensor_buffer.h"
#include "cpu_graph_config.h"
#include "cpu_op_package_kernel.h"
#include "kernels/kernel.h"
#include "kernels/kernel_util.h"
#include "kernels/pointwise_depthwise.h"
#include "opdefs/op_catalog.h"
#include "quant_emulation.h"

namespace qnn::cpu {
namespace {

using sdk::GraphIR;
using sdk::NodeInfo;
using sdk::TensorInfo;
using sdk::TensorKind;

// Ops that read or write fixed-point data themselves; every other op runs its
// float kernel on dequantized data when its tensors are fixed-point.
bool handlesFixedPointItself(const std::string& op) {
  return op == "Quantize" || op == "Dequantize" || op == "Convert" || op == "Cast" || op == "Reshape" ||
         op == "Squeeze" || op == "ExpandDims" || op == "Transpose" || op == "Concat" || op == "Split" ||
         op == "StridedSlice" || op == "Gather" || op == "Tile" || op == "Argmax" || op == "Argmin" || op == "Buffer";
}

bool isPackageOp(const NodeInfo& node) { return node.packageName != sdk::kBuiltinOpPackage; }

// Op packages see float data for fixed-point tensors: the CPU op package
// interface carries no quantization parameters.
bool needsFloatEmulation(const NodeInfo& node, const std::vector<const TensorInfo*>& ins,
                         const std::vector<const TensorInfo*>& outs) {
  if (!isPackageOp(node) && handlesFixedPointItself(node.typeName)) return false;
  for (auto* t : ins)
    if (t && sdk::dtypeIsFixedPoint(t->dtype) && t->dtype != DType::kSFixed32) return true;
  for (auto* t : outs)
    if (sdk::dtypeIsFixedPoint(t->dtype)) return true;
  return false;
}

TensorView viewOf(const TensorInfo& t, bool asFloat) {
  TensorView v;
  v.dtype = asFloat && (sdk::dtypeIsFixedPoint(t.dtype)) ? DType::kFloat32 : t.dtype;
  v.dims = t.dims;
  if (!asFloat) v.quant = t.quant;
  // Under float emulation a fixed-point static tensor's bytes are still quantized
  // while the view says FLOAT_32: exposing them would let prepare() read them as
  // floats (4x past the buffer). Leave data null so the kernel treats the tensor
  // as dynamic; execute() hands it the dequantized copy.
  const bool quantizedBytes = asFloat && sdk::dtypeIsFixedPoint(t.dtype);
  if (t.kind == TensorKind::kStatic && !quantizedBytes) v.data = const_cast<uint8_t*>(t.staticData.data());
  return v;
}

// The kernel object of one node: a built-in kernel, or a wrapper over the op
// of a registered package (whose op impl is created only when forExecution).
Status createKernel(const NodeInfo& node, const sdk::OpPackageSet* packages, bool forExecution,
                    std::unique_ptr<Kernel>* out) {
  if (isPackageOp(node)) {
    auto package = packages ? packages->find(node.packageName) : nullptr;
    if (!package || !package->hasOp(node.typeName))
      return sdk::unsupportedOp("node '" + node.name + "': op '" + node.typeName + "' of op package '" +
                                node.packageName + "' is not registered with this backend");
    *out = std::make_unique<PackageOpKernel>(std::move(package), node, forExecution);
    return Status::ok();
  }
  KernelFactory factory = findKernel(node.typeName);
  if (!factory) return sdk::unsupportedOp("the CPU backend has no kernel for op type '" + node.typeName + "'");
  *out = factory(node.typeName);
  if (!*out) return sdk::unsupportedOp("the CPU backend cannot create op type '" + node.typeName + "'");
  return Status::ok();
}

// Creates, initializes and prepares the kernel of one node.
Status makeKernel(const NodeInfo& node, const sdk::OpPackageSet* packages, bool forExecution,
                  const std::vector<TensorView>& inViews, const std::vector<TensorView>& outViews,
                  std::unique_ptr<Kernel>* out) {
  std::unique_ptr<Kernel> kernel;
  QNN_SDK_RETURN_IF_ERROR(createKernel(node, packages, forExecution, &kernel));
  Status st = kernel->init(node.params);
  if (!st.isOk()) return {st.code(), "node '" + node.name + "': " + st.message()};
  st = kernel->prepare(inViews, outViews);
  if (!st.isOk()) return {st.code(), "node '" + node.name + "': " + st.message()};
  *out = std::move(kernel);
  return Status::ok();
}

struct Step {
  const NodeInfo* node = nullptr;
  // A Relu / ReluMinMax folded into this step (its kernel clamps out[0] into
  // [clampLo, clampHi] and writes the activation's output directly).
  const NodeInfo* fusedActivation = nullptr;
  float clampLo = 0.f, clampHi = 0.f;
  // A DepthWiseConv2d (and its folded activation) computed inside this 1x1
  // Conv2d step (kernels/pointwise_depthwise.h).
  const NodeInfo* fusedSecond = nullptr;
  const NodeInfo* fusedSecondActivation = nullptr;
  // An ElementWiseMultiply by a static scalar folded into this Softmax step's beta, and that
  // scalar's tensor (an update to it rebuilds the plan).
  const NodeInfo* foldedScale = nullptr;
  uint32_t foldedScaleTensor = 0;
  // An ElementWiseAdd (and its folded activation) adding a residual to this step's output,
  // done in the step's store (OpKernel::fuseResidualAdd); the residual is the last input.
  const NodeInfo* fusedAdd = nullptr;
  const NodeInfo* fusedAddActivation = nullptr;
  std::unique_ptr<Kernel> kernel;
  std::vector<uint32_t> inIds, outIds;
  std::vector<TensorView> inViews, outViews;  // data pointers refreshed per execute
  // Resolved once per plan (bindSlots): each tensor's info and its entry in
  // the pointer table, so execute does no map lookups between kernels.
  std::vector<const TensorInfo*> inInfos, outInfos;
  std::vector<void**> inSlots, outSlots;
  bool floatEmulation = false;
  std::vector<std::vector<float>> floatIn, floatOut;  // scratch for emulation
  std::vector<bool> inputDequantizedOnce;             // static fixed-point inputs, done at build
};

std::vector<TensorView> viewsOf(const std::vector<const TensorInfo*>& tensors, bool floatEmulation) {
  std::vector<TensorView> views;
  for (auto* t : tensors) views.push_back(viewOf(*t, floatEmulation));
  return views;
}

class CpuPreparedGraph : public sdk::PreparedGraph {
 public:
  CpuPreparedGraph(const GraphIR& ir, std::shared_ptr<const sdk::OpPackageSet> packages)
      : ir_(ir), packages_(std::move(packages)) {}

  // fuse: fold activations into their producers (off while an op debug
  // callback wants every node's own output).
  Status build(bool fuse = true) {
    steps_.clear();
    arena_.reset();
    nativeOf_.clear();
    pointers_.clear();
    fused_ = false;
    for (auto& [id, t] : ir_.tensors)
      if (t.kind == TensorKind::kStatic) pointers_[id] = const_cast<uint8_t*>(t.staticData.data());
    for (const NodeInfo& node : ir_.nodes) {
      std::unique_ptr<Step> step;
      QNN_SDK_RETURN_IF_ERROR(buildStep(node, &step));
      steps_.push_back(std::move(step));
    }
    if (fuse && !ir_.afterNode) {
      fuseActivations();
      fusePointwiseDepthwise();
      fuseConvMaxPool();
      foldScaleIntoSoftmax();
      fuseResidualAdds();
    }
    QNN_SDK_RETURN_IF_ERROR(planNativeBuffers());
    bindSlots();
    return Status::ok();
  }

  // Points every step at its tensors' infos and pointer-table entries
  // (std::map entries keep their address while the table lives; graph inputs
  // and outputs get their entry here, their buffers at each execute).
  void bindSlots() {
    for (auto& step : steps_) {
      step->inInfos.clear(), step->outInfos.clear(), step->inSlots.clear(), step->outSlots.clear();
      for (uint32_t id : step->inIds) step->inInfos.push_back(ir_.findTensor(id)), step->inSlots.push_back(&pointers_[id]);
      for (uint32_t id : step->outIds)
        step->outInfos.push_back(ir_.findTensor(id)), step->outSlots.push_back(&pointers_[id]);
    }
  }

  // Tensor updates: the data and encodings of `ids` from `source`; only the
  // nodes reading or writing them get new kernels (the others keep theirs).
  Status refreshTensors(const GraphIR& source, const std::set<uint32_t>& ids) override {
    // ir_ is the graph object's IR itself (`source`): the updates are in it
    // already, in new buffers; the static pointers and the nodes' views follow.
    (void)source;
    for (uint32_t id : ids)
      if (const TensorInfo* t = ir_.findTensor(id); t && t->kind == TensorKind::kStatic)
        pointers_[id] = const_cast<uint8_t*>(t->staticData.data());
    // A fused 1x1 -> depthwise step spans two nodes: rebuild the whole plan; so does a new value
    // of a scale folded into a Softmax.
    for (auto& step : steps_) {
      if (step->foldedScale && ids.count(step->foldedScaleTensor)) return build();
      if (step->fusedAdd)
        for (uint32_t id : step->inIds)
          if (ids.count(id)) return build();
      if (step->fusedSecond)
        for (const auto* list : {&step->inIds, &step->outIds})
          for (uint32_t id : *list)
            if (ids.count(id)) return build();
    }
    for (auto& step : steps_) {
      bool touched = false;
      for (const auto* list : {&step->inIds, &step->outIds})
        for (uint32_t id : *list) touched = touched || ids.count(id) != 0;
      if (!touched) continue;
      std::unique_ptr<Step> fresh;
      QNN_SDK_RETURN_IF_ERROR(buildStep(*step->node, &fresh));
      if (step->fusedActivation && !foldActivation(*fresh, *step->fusedActivation, step->outViews[0]))
        return sdk::internalError("node '" + step->node->name + "': its kernel no longer takes the fused activation");
      step = std::move(fresh);
    }
    bindSlots();
    return Status::ok();
  }

  // Producer -> Relu / ReluMinMax pairs where the activation is the only reader
  // of a float native tensor become one step: the producer's kernel clamps as
  // it writes, straight into the activation's output (its own output tensor is
  // then never materialized). One memory pass and one dispatch fewer per pair.
  // A fused Relu propagates NaN (the node alone maps NaN to 0).
  void fuseActivations() {
    std::map<uint32_t, size_t> readers;
    for (auto& step : steps_)
      for (uint32_t id : step->inIds) ++readers[id];
    std::vector<bool> removed(steps_.size(), false);
    for (size_t i = 0; i < steps_.size(); ++i) {
      Step& producer = *steps_[i];
      if (removed[i] || producer.floatEmulation || producer.outIds.size() != 1 || producer.fusedActivation) continue;
      const uint32_t mid = producer.outIds[0];
      const TensorInfo* t = ir_.findTensor(mid);
      if (!t || t->kind != TensorKind::kNative || t->dtype != DType::kFloat32 || readers[mid] != 1) continue;
      size_t j = i + 1;
      while (j < steps_.size() && (removed[j] || steps_[j]->inIds.empty() ||
                                   std::find(steps_[j]->inIds.begin(), steps_[j]->inIds.end(), mid) ==
                                       steps_[j]->inIds.end()))
        ++j;
      if (j == steps_.size()) continue;
      Step& act = *steps_[j];
      if (act.floatEmulation || act.inIds.size() != 1 || act.outIds.size() != 1 || !isPlainActivation(*act.node))
        continue;
      const TensorInfo* out = ir_.findTensor(act.outIds[0]);
      if (!out || out->dtype != DType::kFloat32 || out->dims != t->dims) continue;
      if (!foldActivation(producer, *act.node, act.outViews[0])) continue;
      removed[j] = true;
      fused_ = true;
    }
    dropSteps(removed);
  }

  // For step i with one output: the index of the one later step that reads it, when that output is a
  // float native tensor nothing else reads (a pair whose intermediate can stay unmaterialized);
  // steps_.size() otherwise. `removed` marks steps already folded away.
  // `readers`: per tensor id, how many step inputs read it and the last step that does (readersOf()).
  struct Readers {
    std::map<uint32_t, size_t> count, step;
  };
  Readers readersOf() const {
    Readers r;
    for (size_t j = 0; j < steps_.size(); ++j)
      for (uint32_t id : steps_[j]->inIds) ++r.count[id], r.step[id] = j;
    return r;
  }
  size_t soleFloatReader(size_t i, const Readers& readers, const std::vector<bool>& removed) const {
    const Step& producer = *steps_[i];
    if (producer.outIds.size() != 1) return steps_.size();
    const uint32_t mid = producer.outIds[0];
    const TensorInfo* t = ir_.findTensor(mid);
    if (!t || t->kind != TensorKind::kNative || t->dtype != DType::kFloat32) return steps_.size();
    const auto count = readers.count.find(mid);
    if (count == readers.count.end() || count->second != 1) return steps_.size();
    const size_t reader = readers.step.at(mid);
    return reader > i && !removed[reader] ? reader : steps_.size();
  }

  // 1x1 Conv2d -> DepthWiseConv2d pairs where the depthwise conv is the only
  // reader of the 1x1 conv's output become one step computing the depthwise
  // output in row bands (kernels/pointwise_depthwise.h), at the 1x1 conv's
  // place: the depthwise conv's other inputs are static, so they are ready
  // there, and its output is read only after its own former place.
  void fusePointwiseDepthwise() {
    const Readers readers = readersOf();
    auto staticTail = [&](const Step& s) {
      for (size_t k = 1; k < s.inIds.size(); ++k)
        if (const TensorInfo* t = ir_.findTensor(s.inIds[k]); !t || t->kind != TensorKind::kStatic) return false;
      return true;
    };
    auto clampOf = [](const Step& s, gemm::Clamp* c) -> const gemm::Clamp* {
      if (!s.fusedActivation) return nullptr;
      *c = {s.clampLo, s.clampHi};
      return c;
    };
    std::vector<bool> removed(steps_.size(), false);
    for (size_t i = 0; i < steps_.size(); ++i) {
      Step& pw = *steps_[i];
      if (removed[i] || pw.floatEmulation || pw.node->typeName != "Conv2d" || isPackageOp(*pw.node) ||
          pw.fusedSecond || !staticTail(pw))
        continue;
      const size_t j = soleFloatReader(i, readers, removed);
      if (j == steps_.size()) continue;
      const uint32_t mid = pw.outIds[0];
      Step& dw = *steps_[j];
      if (dw.floatEmulation || dw.node->typeName != "DepthWiseConv2d" || isPackageOp(*dw.node) || dw.inIds.empty() ||
          dw.inIds[0] != mid || dw.outIds.size() != 1 || !staticTail(dw))
        continue;
      gemm::Clamp c1, c2;
      auto kernel = makePointwiseDepthwise(pw.node->params, pw.inViews, clampOf(pw, &c1), dw.node->params, dw.inViews,
                                           dw.outViews[0], clampOf(dw, &c2));
      if (!kernel) continue;
      auto fused = std::make_unique<Step>();
      fused->node = pw.node;
      fused->fusedActivation = pw.fusedActivation;
      fused->clampLo = pw.clampLo, fused->clampHi = pw.clampHi;
      fused->fusedSecond = dw.node;
      fused->fusedSecondActivation = dw.fusedActivation;
      fused->kernel = std::move(kernel);
      fused->inIds = pw.inIds;
      fused->inViews = pw.inViews;
      fused->inIds.insert(fused->inIds.end(), dw.inIds.begin() + 1, dw.inIds.end());
      fused->inViews.insert(fused->inViews.end(), dw.inViews.begin() + 1, dw.inViews.end());
      fused->outIds = dw.outIds;
      fused->outViews = dw.outViews;
      fused->inputDequantizedOnce.assign(fused->inIds.size(), false);
      steps_[i] = std::move(fused);
      removed[j] = true;
      fused_ = true;
    }
    dropSteps(removed);
  }

  // Conv2d -> PoolMax2d pairs where the pool alone reads the convolution's float output (an image
  // model's stem): the convolution's kernel pools the rows it computes while they are in cache
  // (OpKernel::fuseFollowingMaxPool), so its output is never materialized. Kernels that cannot
  // decline and the pool stays a step.
  void fuseConvMaxPool() {
    const Readers readers = readersOf();
    std::vector<bool> removed(steps_.size(), false);
    for (size_t i = 0; i < steps_.size(); ++i) {
      Step& conv = *steps_[i];
      if (removed[i] || conv.floatEmulation || conv.node->typeName != "Conv2d" || isPackageOp(*conv.node) ||
          conv.fusedSecond)
        continue;
      const size_t j = soleFloatReader(i, readers, removed);
      if (j == steps_.size()) continue;
      Step& pool = *steps_[j];
      if (pool.floatEmulation || pool.node->typeName != "PoolMax2d" || isPackageOp(*pool.node) ||
          pool.inIds.size() != 1 || pool.outIds.size() != 1)
        continue;
      if (!conv.kernel->fuseFollowingMaxPool(pool.node->params, pool.outViews[0])) continue;
      conv.fusedSecond = pool.node;
      conv.outIds = pool.outIds;
      conv.outViews = pool.outViews;
      removed[j] = true;
      fused_ = true;
    }
    dropSteps(removed);
  }

  // ElementWiseMultiply(x, c) -> Softmax / LogSoftmax pairs, c a static float scalar and the
  // softmax the product's only reader (attention's scores scaled by 1/sqrt(d)): the softmax
  // reads x itself with beta * c (OpKernel::foldInputScale), one pass over the scores fewer.
  void foldScaleIntoSoftmax() {
    const Readers readers = readersOf();
    std::vector<bool> removed(steps_.size(), false);
    for (size_t i = 0; i < steps_.size(); ++i) {
      Step& mul = *steps_[i];
      if (removed[i] || mul.floatEmulation || mul.node->typeName != "ElementWiseMultiply" || isPackageOp(*mul.node) ||
          mul.fusedActivation || mul.inIds.size() != 2)
        continue;
      const TensorInfo* out = ir_.findTensor(mul.outIds.empty() ? 0 : mul.outIds[0]);
      size_t scalarAt = 2;
      for (size_t k = 0; k < 2; ++k) {
        const TensorInfo* t = ir_.findTensor(mul.inIds[k]);
        const TensorInfo* other = ir_.findTensor(mul.inIds[1 - k]);
        if (t && other && out && t->kind == TensorKind::kStatic && t->dtype == DType::kFloat32 &&
            t->numElements() == 1 && t->staticData.size() >= sizeof(float) && other->dtype == DType::kFloat32 &&
            other->dims == out->dims)
          scalarAt = k;
      }
      if (scalarAt == 2) continue;
      const size_t j = soleFloatReader(i, readers, removed);
      if (j == steps_.size()) continue;
      Step& softmax = *steps_[j];
      if (softmax.floatEmulation || isPackageOp(*softmax.node) ||
          (softmax.node->typeName != "Softmax" && softmax.node->typeName != "LogSoftmax") ||
          softmax.inIds.size() != 1 || softmax.foldedScale)
        continue;
      float scale;
      std::memcpy(&scale, ir_.findTensor(mul.inIds[scalarAt])->staticData.data(), sizeof(float));
      if (!softmax.kernel->foldInputScale(scale)) continue;
      softmax.foldedScale = mul.node;
      softmax.foldedScaleTensor = mul.inIds[scalarAt];
      softmax.inIds[0] = mul.inIds[1 - scalarAt];
      softmax.inViews[0] = mul.inViews[1 - scalarAt];
      removed[i] = true;
      fused_ = true;
    }
    dropSteps(removed);
  }

  // FullyConnected / 1x1 Conv2d -> ElementWiseAdd pairs where the Add alone reads the product's
  // float output and adds a float tensor of the same dims that is ready before the product runs
  // (a residual connection: a transformer's output projections, MobileNetV2's projections): the
  // product's store adds it (and the Add's folded activation clamps), one pass over the output
  // fewer. The Add's result is written at the product's place; nothing reads it before the Add's.
  void fuseResidualAdds() {
    const Readers readers = readersOf();
    std::map<uint32_t, size_t> producer;
    for (size_t n = 0; n < steps_.size(); ++n)
      for (uint32_t id : steps_[n]->outIds) producer[id] = n;
    std::vector<bool> removed(steps_.size(), false);
    for (size_t i = 0; i < steps_.size(); ++i) {
      Step& mm = *steps_[i];
      const std::string& type = mm.node->typeName;
      if (removed[i] || mm.floatEmulation || isPackageOp(*mm.node) || (type != "FullyConnected" && type != "Conv2d") ||
          mm.fusedActivation || mm.fusedSecond || mm.fusedAdd || mm.outIds.size() != 1)
        continue;
      const size_t j = soleFloatReader(i, readers, removed);
      if (j == steps_.size()) continue;
      Step& add = *steps_[j];
      if (add.floatEmulation || isPackageOp(*add.node) || add.node->typeName != "ElementWiseAdd" ||
          add.inIds.size() != 2 || add.outIds.size() != 1 || add.inIds[0] == add.inIds[1])
        continue;
      const size_t other = add.inIds[0] == mm.outIds[0] ? 1 : 0;
      const TensorInfo* mid = ir_.findTensor(mm.outIds[0]);
      const TensorInfo* res = ir_.findTensor(add.inIds[other]);
      const TensorInfo* out = ir_.findTensor(add.outIds[0]);
      if (!mid || !res || !out || res->dtype != DType::kFloat32 || out->dtype != DType::kFloat32 ||
          res->dims != mid->dims || out->dims != mid->dims)
        continue;
      const auto made = producer.find(add.inIds[other]);  // graph inputs and static tensors are ready
      if (made != producer.end() && (made->second >= i || removed[made->second])) continue;
      if (!mm.kernel->fuseResidualAdd(mm.inIds.size())) continue;
      if (add.fusedActivation && !mm.kernel->fuseOutputClamp(add.clampLo, add.clampHi)) {
        // A kernel that adds but cannot clamp: its step goes back to the node alone.
        std::unique_ptr<Step> fresh;
        if (buildStep(*mm.node, &fresh).isOk()) steps_[i] = std::move(fresh);
        continue;
      }
      mm.fusedAdd = add.node;
      mm.fusedAddActivation = add.fusedActivation;
      mm.clampLo = add.clampLo, mm.clampHi = add.clampHi;
      mm.inIds.push_back(add.inIds[other]);
      mm.inViews.push_back(add.inViews[other]);
      mm.inputDequantizedOnce.assign(mm.inIds.size(), false);
      mm.outIds = add.outIds;
      mm.outViews = add.outViews;
      removed[j] = true;
      fused_ = true;
    }
    dropSteps(removed);
  }

  // Removes the steps marked (folded into others), keeping the order.
  void dropSteps(const std::vector<bool>& removed) {
    std::vector<std::unique_ptr<Step>> kept;
    for (size_t i = 0; i < steps_.size(); ++i)
      if (!removed[i]) kept.push_back(std::move(steps_[i]));
    steps_ = std::move(kept);
  }

  static bool isPlainActivation(const NodeInfo& node) {
    return !isPackageOp(node) && (node.typeName == "Relu" || node.typeName == "ReluMinMax");
  }

  // Makes `step` write `activation`'s output through a clamp; false if its kernel cannot.
  static bool foldActivation(Step& step, const NodeInfo& activation, const TensorView& activationOut) {
    const bool minMax = activation.typeName == "ReluMinMax";
    const float lo = minMax ? activation.params.f32("min_value", 0.f) : 0.f;
    const float hi = minMax ? activation.params.f32("max_value", 0.f) : std::numeric_limits<float>::infinity();
    if (!step.kernel->fuseOutputClamp(lo, hi)) return false;
    step.fusedActivation = &activation;
    step.clampLo = lo, step.clampHi = hi;
    step.outIds = activation.outputIds;
    step.outViews[0] = activationOut;
    return true;
  }

  // The views, emulation scratch and prepared kernel of one node.
  Status buildStep(const NodeInfo& node, std::unique_ptr<Step>* out) {
    auto step = std::make_unique<Step>();
    step->node = &node;
    std::vector<const TensorInfo*> ins, outs;
    for (uint32_t id : node.inputIds) ins.push_back(ir_.findTensor(id));
    for (uint32_t id : node.outputIds) outs.push_back(ir_.findTensor(id));
    step->floatEmulation = needsFloatEmulation(node, ins, outs);
    step->inIds = node.inputIds;
    step->outIds = node.outputIds;
    step->inViews = viewsOf(ins, step->floatEmulation);
    step->outViews = viewsOf(outs, step->floatEmulation);
    step->inputDequantizedOnce.assign(ins.size(), false);
    if (step->floatEmulation) {
      for (size_t i = 0; i < ins.size(); ++i) {
        const TensorInfo* t = ins[i];
        step->floatIn.emplace_back(sdk::dtypeIsFixedPoint(t->dtype) ? t->numElements() : 0);
        // Static weights are dequantized once here, so the kernel can pack
        // them at prepare like float weights.
        if (t->kind == TensorKind::kStatic && sdk::dtypeIsFixedPoint(t->dtype)) {
          dequantizeToFloat(*t, t->staticData.data(), step->floatIn[i].data());
          step->inViews[i].data = step->floatIn[i].data();
          step->inputDequantizedOnce[i] = true;
        }
      }
      for (auto* t : outs) step->floatOut.emplace_back(sdk::dtypeIsFixedPoint(t->dtype) ? t->numElements() : 0);
    }
    QNN_SDK_RETURN_IF_ERROR(makeKernel(node, packages_.get(), true, step->inViews, step->outViews, &step->kernel));
    *out = std::move(step);
    return Status::ok();
  }

  // Native tensors share buffers once their last reader has run: a tensor gets
  // the smallest free buffer that fits (or a new one) when its producer runs,
  // and returns it after its last consumer. A node's outputs never share a
  // buffer with its inputs, since kernels are not written to work in place.
  // The buffers are 64-byte-aligned pieces of one allocation: in huge pages
  // (TensorBuffer) when it is 2 MiB or more, as most activations alone are not
  // (ResNet-18's 56x56x64 maps are 0.8 MB), each layer then touching its
  // input and output through a few TLB entries.
  //
  // A Reshape / Squeeze / ExpandDims between two native tensors gets no buffer of its
  // own: its output is its input's buffer (the kernel skips the copy when the two
  // coincide), which stays live until the last reader of either. Tensors are written
  // once, by their producer, so the two names never disagree.
  Status planNativeBuffers() {
    const std::map<uint32_t, uint32_t> sharedWith = reshapeAliases();
    auto root = [&](uint32_t id) {
      auto a = sharedWith.find(id);
      return a == sharedWith.end() ? id : a->second;
    };
    std::vector<size_t> bufferSizes;
    std::map<uint32_t, size_t> lastUse;
    for (size_t n = 0; n < steps_.size(); ++n)
      for (uint32_t id : steps_[n]->inIds) lastUse[root(id)] = n;
    std::multimap<size_t, size_t> freeBySize;  // capacity -> buffer index
    std::map<uint32_t, size_t> assigned;        // tensor id -> buffer index
    for (size_t n = 0; n < steps_.size(); ++n) {
      for (uint32_t id : steps_[n]->outIds) {
        const TensorInfo* t = ir_.findTensor(id);
        if (!t || t->kind != TensorKind::kNative || sharedWith.count(id)) continue;
        size_t need = std::max<size_t>(t->byteSize(), 1);
        auto it = freeBySize.lower_bound(need);
        if (it != freeBySize.end()) {
          assigned[id] = it->second;
          freeBySize.erase(it);
        } else {
          bufferSizes.push_back(need);
          assigned[id] = bufferSizes.size() - 1;
        }
      }
      for (uint32_t name : steps_[n]->inIds) {
        const uint32_t id = root(name);
        auto a = assigned.find(id);
        if (a != assigned.end() && lastUse[id] == n) {
          freeBySize.emplace(bufferSizes[a->second], a->second);
          assigned.erase(a);
          lastUse[id] = SIZE_MAX;  // released once even if read twice by this node
        }
      }
      for (uint32_t id : steps_[n]->outIds)  // produced but never read
        if (auto a = assigned.find(id); a != assigned.end() && !lastUse.count(id)) {
          nativeOf_[id] = a->second;
          freeBySize.emplace(bufferSizes[a->second], a->second);
          assigned.erase(a);
        }
      for (auto& [id, buf] : assigned) nativeOf_[id] = buf;
    }
    for (auto& [alias, id] : sharedWith)
      if (auto buf = nativeOf_.find(id); buf != nativeOf_.end()) nativeOf_[alias] = buf->second;
    std::vector<size_t> offsets(bufferSizes.size());
    size_t total = 0;
    for (size_t b = 0; b < bufferSizes.size(); ++b) {
      offsets[b] = total;
      total += (bufferSizes[b] + 63) / 64 * 64;
    }
    arena_ = std::make_unique<sdk::TensorBuffer>(total);
    for (auto& [id, buf] : nativeOf_) pointers_[id] = arena_->data() + offsets[buf];
    return Status::ok();
  }

  // Output id -> the id whose buffer it shares, for every Reshape-like step from one float or
  // integer native tensor to another of the same type and size (chains resolve to their first
  // tensor). Fixed-point tensors keep their copy: a reader emulating float dequantizes with the
  // encoding of the tensor it names.
  std::map<uint32_t, uint32_t> reshapeAliases() const {
    std::map<uint32_t, uint32_t> sharedWith;
    for (const auto& step : steps_) {
      const std::string& op = step->node->typeName;
      if (isPackageOp(*step->node) || (op != "Reshape" && op != "Squeeze" && op != "ExpandDims") ||
          step->floatEmulation || step->inIds.size() != 1 || step->outIds.size() != 1)
        continue;
      const TensorInfo* in = ir_.findTensor(step->inIds[0]);
      const TensorInfo* out = ir_.findTensor(step->outIds[0]);
      if (!in || !out || in->kind != TensorKind::kNative || out->kind != TensorKind::kNative ||
          in->dtype != out->dtype || sdk::dtypeIsFixedPoint(in->dtype) || in->byteSize() != out->byteSize())
        continue;
      auto chained = sharedWith.find(step->inIds[0]);
      sharedWith[step->outIds[0]] = chained == sharedWith.end() ? step->inIds[0] : chained->second;
    }
    return sharedWith;
  }

  Status execute(const std::vector<sdk::TensorBinding>& inputs, const std::vector<sdk::TensorBinding>& outputs,
                 const sdk::ExecuteOptions& options, std::vector<sdk::NodeTiming>* timings) override {
    if (fused_ && ir_.afterNode) QNN_SDK_RETURN_IF_ERROR(build(false));  // the callback sees every node's output
    for (auto& b : inputs) pointers_[b.tensorId] = b.data;
    for (auto& b : outputs) pointers_[b.tensorId] = b.data;
    for (auto& step : steps_) {
      if (options.checkCancel) QNN_SDK_RETURN_IF_ERROR(options.checkCancel());
      auto start = std::chrono::steady_clock::now();
      for (size_t i = 0; i < step->inIds.size(); ++i) {
        if (step->inputDequantizedOnce[i]) continue;
        const TensorInfo* t = step->inInfos[i];
        void* p = *step->inSlots[i];
        if (step->floatEmulation && sdk::dtypeIsFixedPoint(t->dtype)) {
          dequantizeToFloat(*t, p, step->floatIn[i].data());
          p = step->floatIn[i].data();
        }
        step->inViews[i].data = p;
      }
      for (size_t i = 0; i < step->outIds.size(); ++i)
        step->outViews[i].data = step->floatEmulation && sdk::dtypeIsFixedPoint(step->outInfos[i]->dtype)
                                     ? static_cast<void*>(step->floatOut[i].data())
                                     : *step->outSlots[i];
      QNN_SDK_RETURN_IF_ERROR(step->kernel->execute(step->inViews, step->outViews));
      if (step->floatEmulation)
        for (size_t i = 0; i < step->outIds.size(); ++i)
          if (sdk::dtypeIsFixedPoint(step->outInfos[i]->dtype))
            quantizeFromFloat(*step->outInfos[i], step->floatOut[i].data(), *step->outSlots[i]);
      if (options.collectNodeTimings && timings) {
        auto us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start);
        timings->push_back({step->node->name, step->node->typeName, static_cast<uint64_t>(us.count()), {},
                            sdk::NodeTiming::steadyMicros(start)});
        // Nodes that ran inside this step are listed with no time of their own.
        for (const NodeInfo* inner :
             {step->foldedScale, step->fusedActivation, step->fusedSecond, step->fusedSecondActivation,
              step->fusedAdd, step->fusedAddActivation})
          if (inner)
            timings->push_back({inner->name, inner->typeName, 0, {},
                                sdk::NodeTiming::steadyMicros(std::chrono::steady_clock::now())});
      }
      if (ir_.afterNode) {
        std::vector<void*> outs;
        for (void** slot : step->outSlots) outs.push_back(*slot);
        ir_.afterNode(ir_, *step->node, outs);
      }
    }
    return Status::ok();
  }

 private:
  const GraphIR& ir_;  // owned by the graph object, which outlives this
  std::shared_ptr<const sdk::OpPackageSet> packages_;  // where package ops are resolved at build
  std::unique_ptr<sdk::TensorBuffer> arena_;  // native tensor storage, shared by liveness
  std::map<uint32_t, size_t> nativeOf_;       // native tensor id -> arena buffer index
  std::map<uint32_t, void*> pointers_;
  std::vector<std::unique_ptr<Step>> steps_;
  bool fused_ = false;  // some step carries a folded activation
};

class CpuEngine : public sdk::ExecutionEngine {
 public:
  CpuEngine() { warmUpWorkers(); }

  Status validateNode(const NodeInfo& node, const std::vector<const TensorInfo*>& inputs,
                      const std::vector<const TensorInfo*>& outputs) override {
    std::unique_ptr<Kernel> kernel;
    bool emulate = needsFloatEmulation(node, inputs, outputs);
    return makeKernel(node, packages_.get(), false, viewsOf(inputs, emulate), viewsOf(outputs, emulate), &kernel);
  }

  Status prepare(const GraphIR& graph, std::unique_ptr<sdk::PreparedGraph>* out) override {
    auto prepared = std::make_unique<CpuPreparedGraph>(graph, packages_);
    QNN_SDK_RETURN_IF_ERROR(prepared->build());
    *out = std::move(prepared);
    return Status::ok();
  }

  std::vector<std::string> supportedOps() const override { return supportedOpTypes(); }

  Status applyGraphCustomConfig(const void* custom, GraphIR* graph, bool /*executed*/,
                                sdk::ConfigWarnings* warnings) override {
    return applyCpuGraphCustomConfig(custom, graph, warnings);
  }

  void setOpPackages(std::shared_ptr<const sdk::OpPackageSet> packages) override { packages_ = std::move(packages); }

 private:
  std::shared_ptr<const sdk::OpPackageSet> packages_;  // the backend handle's registered packages
};

}  // namespace

std::unique_ptr<sdk::ExecutionEngine> createCpuEngine() { return std::make_unique<CpuEngine>(); }

}  // namespace qnn::cpu
