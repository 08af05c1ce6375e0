// Transpose -> MatMul and MatMul -> Transpose pairs (multi-head attention: the heads split out of a
// projection, [B, S, H, D] to Q's and V's [B, H, S, D], and merged back after P x V): the product
// reads the operand in place from the Transpose's input, or writes its result in place into the
// Transpose's output, each head's matrix at its own offset with the rows H x D apart
// (Epilogue::strided). The transposed copy is never made; the values are the same products'.
// MatMul takes operands whose rows stay contiguous: K's split to [B, H, D, S] (columns contiguous)
// stays a Transpose, as the product would pack it on every call, which measured slower than the
// copy and the in-place read of a contiguous K^T (transformer, 1 thread: +1.1 % of the FC time
// against 0.45 % for the copy).
#include "cpu/engine/fusion_pass.h"

namespace qnn::cpu {
namespace {

std::vector<size_t> rowMajorStrides(const std::vector<uint32_t>& dims) {
  std::vector<size_t> strides(dims.size(), 1);
  for (size_t d = dims.size(); d-- > 1;) strides[d - 1] = strides[d] * dims[d];
  return strides;
}

// The permutation of a float Transpose of the built-in package (out dim i is in dim perm[i]);
// empty for any other step.
std::vector<size_t> floatTransposePerm(const Step& step, const GraphIR& ir) {
  if (step.floatEmulation || isPackageOp(*step.node) || step.node->typeName != "Transpose" || !step.folded.empty() ||
      step.inIds.size() != 1 || step.outIds.size() != 1)
    return {};
  const TensorInfo* in = ir.findTensor(step.inIds[0]);
  const TensorInfo* out = ir.findTensor(step.outIds[0]);
  if (!in || !out || in->dtype != DType::kFloat32 || out->dtype != DType::kFloat32) return {};
  std::vector<size_t> perm;
  for (int64_t p : step.node->params.ints("perm", {})) {
    if (p < 0 || size_t(p) >= in->dims.size()) return {};
    perm.push_back(size_t(p));
  }
  return perm.size() == in->dims.size() ? perm : std::vector<size_t>{};
}

bool isFloatMatMul(const Step& step) {
  return !step.floatEmulation && !isPackageOp(*step.node) && step.node->typeName == "MatMul";
}

}  // namespace

size_t foldTransposesIntoMatMuls(StepGraph& graph) {
  const GraphIR& ir = graph.ir;
  // Operands: the product reads the Transpose's input.
  size_t folded = graph.foldPairs([&](size_t i, size_t j) {
    Step& transpose = *graph.steps[i];
    Step& matmul = *graph.steps[j];
    const std::vector<size_t> perm = floatTransposePerm(transpose, ir);
    if (perm.empty() || !isFloatMatMul(matmul)) return StepGraph::Fold::kNone;
    size_t index = 0;
    while (index < 2 && index < matmul.inIds.size() && matmul.inIds[index] != transpose.outIds[0]) ++index;
    if (index >= 2 || index >= matmul.inIds.size()) return StepGraph::Fold::kNone;  // the bias
    const std::vector<size_t> in = rowMajorStrides(ir.findTensor(transpose.inIds[0])->dims);
    sdk::Epilogue::StridedOperand operand{index, std::vector<size_t>(perm.size())};
    for (size_t d = 0; d < perm.size(); ++d) operand.strides[d] = in[perm[d]];
    sdk::Epilogue e = matmul.epilogue;
    e.strided.push_back(std::move(operand));
    if (!matmul.kernel->supportsEpilogue(e)) return StepGraph::Fold::kNone;
    matmul.epilogue = std::move(e);
    matmul.folded.push_back(transpose.node);
    matmul.inIds[index] = transpose.inIds[0];
    matmul.inViews[index] = transpose.inViews[0];
    return StepGraph::Fold::kProducerIntoReader;
  });
  // The result: the product writes the Transpose's output.
  folded += graph.foldPairs([&](size_t i, size_t j) {
    Step& matmul = *graph.steps[i];
    Step& transpose = *graph.steps[j];
    const std::vector<size_t> perm = floatTransposePerm(transpose, ir);
    if (perm.empty() || !isFloatMatMul(matmul) || matmul.outIds.size() != 1) return StepGraph::Fold::kNone;
    const std::vector<size_t> out = rowMajorStrides(ir.findTensor(transpose.outIds[0])->dims);
    sdk::Epilogue::StridedOperand operand{sdk::Epilogue::kOut, std::vector<size_t>(perm.size())};
    for (size_t d = 0; d < perm.size(); ++d) operand.strides[perm[d]] = out[d];
    sdk::Epilogue e = matmul.epilogue;
    e.strided.push_back(std::move(operand));
    return StepGraph::foldReaderAsEpilogue(matmul, transpose, e);
  });
  return folded;
}

}  // namespace qnn::cpu
