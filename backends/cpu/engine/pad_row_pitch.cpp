// FullyConnected -> FullyConnected pairs whose tensor between them has rows 4 KiB apart (a
// transformer's FFN: the up projection's [tokens, 1024 x n] output, its Gelu folded, read by the
// down projection): the producer writes the rows 16 floats further apart and the reader reads them
// so (Epilogue::strided on out[0] and in[0]); the buffer is planned that much larger
// (Step::outBytes). Read in place, rows 4 KiB apart all fall into one L1 set, so the GEMM gives
// their tiles 11 rows instead of 14 (gemm.cpp, kMRAliased); 1040 floats apart they take 14.
// 128 x 1024 x 256 products: 5-14 % faster alone. Nothing is folded: both steps stay.
#include "cpu/engine/fusion_pass.h"

namespace qnn::cpu {
namespace {

constexpr size_t kAliasedRow = 1024;  // floats: rows a multiple of this apart share L1 sets
constexpr size_t kRowPad = 16;        // one cache line

bool isFloatFullyConnected(const Step& step) {
  return !step.floatEmulation && !isPackageOp(*step.node) && step.node->typeName == "FullyConnected";
}

}  // namespace

size_t padRowPitch(StepGraph& graph) {
  graph.foldPairs([&](size_t i, size_t j) {
    Step& producer = *graph.steps[i];
    Step& reader = *graph.steps[j];
    if (!isFloatFullyConnected(producer) || !isFloatFullyConnected(reader) || producer.outIds.size() != 1 ||
        reader.inIds.empty() || reader.inIds[0] != producer.outIds[0])
      return StepGraph::Fold::kNone;
    const TensorInfo* mid = graph.ir.findTensor(producer.outIds[0]);
    const std::vector<uint32_t>& dims = mid->dims;
    if (dims.size() < 2 || dims.back() % kAliasedRow != 0 || mid->numElements() / dims.back() < 2)
      return StepGraph::Fold::kNone;
    sdk::Epilogue::StridedOperand rows{0, std::vector<size_t>(dims.size(), 1)};
    rows.strides[dims.size() - 2] = dims.back() + kRowPad;
    for (size_t d = dims.size() - 2; d-- > 0;) rows.strides[d] = rows.strides[d + 1] * dims[d + 1];
    sdk::Epilogue read = reader.epilogue, write = producer.epilogue;
    read.strided.push_back(rows);
    rows.index = sdk::Epilogue::kOut;
    write.strided.push_back(rows);
    if (!reader.kernel->supportsEpilogue(read) || !producer.kernel->supportsEpilogue(write))
      return StepGraph::Fold::kNone;
    reader.epilogue = std::move(read);
    producer.epilogue = std::move(write);
    producer.outBytes = rows.strides[0] * dims[0] * sizeof(float);
    return StepGraph::Fold::kNone;
  });
  return 0;
}

}  // namespace qnn::cpu
