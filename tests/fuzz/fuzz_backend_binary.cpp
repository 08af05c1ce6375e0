// libFuzzer harness: a context binary through the backends' C API, the way a client loads one:
// QnnContext_createFromBinary on libQnnCpu.so and libQnnHtp.so (dlopen'ed, as clients do), then
// QnnGraph_retrieve of every graph the binary names and QnnGraph_execute with zeroed inputs, then
// QnnContext_free. So the backends' loading, preparing and kernels run on mutated graphs, not only the
// binary reader (fuzz_context_binary). In a fuzzing build checksums are accepted, so mutations get past
// the CRCs. Graphs whose tensors hold more than kMaxBytes are loaded but not executed: a valid graph
// that is merely large would read as a hang.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "tests/fuzz/fuzz_backend.h"
#include "context_binary/context_binary.h"

namespace {

constexpr size_t kMaxBytes = 4u << 20;

using qnn::fuzz::Backend;

Qnn_Tensor_t clientTensor(const qnn::sdk::TensorInfo& t, bool input, std::vector<uint8_t>* buffer) {
  Qnn_Tensor_t q = QNN_TENSOR_INIT;
  q.version = QNN_TENSOR_VERSION_1;
  q.v1.id = t.id;
  q.v1.name = t.name.c_str();
  q.v1.type = input ? QNN_TENSOR_TYPE_APP_WRITE : QNN_TENSOR_TYPE_APP_READ;
  q.v1.dataType = static_cast<Qnn_DataType_t>(t.dtype);
  q.v1.rank = static_cast<uint32_t>(t.dims.size());
  q.v1.dimensions = const_cast<uint32_t*>(t.dims.data());
  buffer->assign(t.byteSize(), 0);
  q.v1.memType = QNN_TENSORMEMTYPE_RAW;
  q.v1.clientBuf = {buffer->data(), static_cast<uint32_t>(buffer->size())};
  return q;
}

void run(const Backend& b, const uint8_t* data, size_t size, const qnn::sdk::ContextBinaryContents* contents) {
  if (!b.api) return;
  Qnn_ContextHandle_t ctx = nullptr;
  if (b.api->contextCreateFromBinary(b.handle, nullptr, nullptr, data, size, &ctx, nullptr) != QNN_SUCCESS) return;
  for (const auto& g : contents ? contents->graphs : std::vector<qnn::sdk::GraphIR>{}) {
    Qnn_GraphHandle_t graph = nullptr;
    if (b.api->graphRetrieve(ctx, g.name.c_str(), &graph) != QNN_SUCCESS) continue;
    size_t bytes = 0;
    for (const auto& [id, t] : g.tensors) {
      const size_t n = t.byteSize();
      bytes = n > kMaxBytes || bytes + n > kMaxBytes ? kMaxBytes + 1 : bytes + n;
    }
    if (bytes > kMaxBytes || g.nodes.size() > 256) continue;
    std::vector<std::vector<uint8_t>> buffers;
    std::vector<Qnn_Tensor_t> ins, outs;
    const auto inputs = g.inputs(), outputs = g.outputs();
    buffers.reserve(inputs.size() + outputs.size());
    for (const auto* t : inputs) buffers.emplace_back(), ins.push_back(clientTensor(*t, true, &buffers.back()));
    for (const auto* t : outputs) buffers.emplace_back(), outs.push_back(clientTensor(*t, false, &buffers.back()));
    (void)b.api->graphExecute(graph, ins.data(), uint32_t(ins.size()), outs.data(), uint32_t(outs.size()), nullptr,
                              nullptr);
  }
  (void)b.api->contextFree(ctx, nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Backend cpu = qnn::fuzz::loadBackend(QNN_FUZZ_CPU_BACKEND);
  static const Backend htp = qnn::fuzz::loadBackend(QNN_FUZZ_HTP_BACKEND);
  qnn::sdk::ContextBinaryContents contents;
  const bool parsed = qnn::sdk::readContextBinary(data, size, &contents).isOk();
  run(cpu, data, size, parsed ? &contents : nullptr);
  run(htp, data, size, parsed ? &contents : nullptr);
  return 0;
}
