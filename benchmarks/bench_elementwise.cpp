// Throughput of the element-wise/data-movement kernels on typical CNN shapes.
#include <benchmark/benchmark.h>

#include <vector>

#include "cpu/kernels/kernel.h"
#include "cpu/kernels/kernel_util.h"

namespace {

using qnn::sdk::DType;
using qnn::sdk::OpParams;
using qnn::sdk::TensorView;

struct Prepared {
  std::unique_ptr<qnn::cpu::Kernel> kernel;
  std::vector<std::vector<float>> buffers;  // inputs then outputs
  std::vector<TensorView> in, out;
};

// Builds, inits and prepares a float kernel with the given input/output dims.
Prepared prepare(const char* op, const OpParams& params, const std::vector<std::vector<uint32_t>>& inDims,
                 const std::vector<uint32_t>& outDims) {
  Prepared p;
  p.kernel = qnn::cpu::findKernel(op)(op);
  (void)p.kernel->init(params);
  auto view = [&](const std::vector<uint32_t>& dims) {
    TensorView v;
    v.dtype = DType::kFloat32;
    v.dims = dims;
    p.buffers.emplace_back(v.numElements(), 0.5f);
    return v;
  };
  for (auto& d : inDims) p.in.push_back(view(d));
  p.out.push_back(view(outDims));
  (void)p.kernel->prepare(p.in, p.out);
  for (size_t i = 0; i < p.in.size(); ++i) p.in[i].data = p.buffers[i].data();
  p.out[0].data = p.buffers.back().data();
  return p;
}

void run(benchmark::State& state, Prepared& p) {
  for (auto _ : state) {
    (void)p.kernel->execute(p.in, p.out);
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * int64_t(p.out[0].numElements()));
}

void BM_AddSameShape1M(benchmark::State& state) {
  auto p = prepare("ElementWiseAdd", {}, {{1024, 1024}, {1024, 1024}}, {1024, 1024});
  run(state, p);
}
BENCHMARK(BM_AddSameShape1M)->UseRealTime();

void BM_AddChannelBroadcast(benchmark::State& state) {
  auto p = prepare("ElementWiseAdd", {}, {{1, 64, 112, 112}, {64, 1, 1}}, {1, 64, 112, 112});
  run(state, p);
}
BENCHMARK(BM_AddChannelBroadcast)->UseRealTime();

void BM_TransposeNchwToNhwc(benchmark::State& state) {
  OpParams params;
  params.set("perm", qnn::sdk::tensorU32({4}, {0, 2, 3, 1}));
  auto p = prepare("Transpose", params, {{1, 64, 56, 56}}, {1, 56, 56, 64});
  run(state, p);
}
BENCHMARK(BM_TransposeNchwToNhwc)->UseRealTime();

// MobileNetV2's global average pool: the mean over H and W of 7 x 7 x 1280.
void BM_ReduceMeanGlobalPool(benchmark::State& state) {
  OpParams params;
  params.set("axes", qnn::sdk::tensorU32({2}, {1, 2}));
  params.set("keep_dims", qnn::sdk::scalarBool(true));
  auto p = prepare("ReduceMean", params, {{1, 7, 7, 1280}}, {1, 1, 1, 1280});
  run(state, p);
}
BENCHMARK(BM_ReduceMeanGlobalPool)->UseRealTime();

void BM_ReduceMeanLastAxis(benchmark::State& state) {
  OpParams params;
  params.set("axes", qnn::sdk::tensorU32({1}, {2}));
  auto p = prepare("ReduceMean", params, {{1, 512, 2048}}, {1, 512});
  run(state, p);
}
BENCHMARK(BM_ReduceMeanLastAxis)->UseRealTime();

// The transformer's non-GEMM ops on its shapes (seq 128, hidden 256, FFN 1024, 4 heads).
void BM_GeluFfn(benchmark::State& state) {
  auto p = prepare("Gelu", {}, {{1, 128, 1024}}, {1, 128, 1024});
  run(state, p);
}
BENCHMARK(BM_GeluFfn)->UseRealTime();

void BM_SoftmaxAttention(benchmark::State& state) {
  OpParams params;
  params.set("axis", qnn::sdk::scalarU32(3));
  auto p = prepare("Softmax", params, {{1, 4, 128, 128}}, {1, 4, 128, 128});
  run(state, p);
}
BENCHMARK(BM_SoftmaxAttention)->UseRealTime();

void BM_LayerNormHidden(benchmark::State& state) {
  OpParams params;
  params.set("axes", qnn::sdk::tensorU32({1}, {2}));
  params.set("epsilon", qnn::sdk::scalarF32(1e-5f));
  auto p = prepare("LayerNorm", params, {{1, 128, 256}, {256}, {256}}, {1, 128, 256});
  run(state, p);
}
BENCHMARK(BM_LayerNormHidden)->UseRealTime();

// ResNet-18's max pool: 3x3 stride 2 pad 1 over 112x112x64.
void BM_PoolMax2dResNet18(benchmark::State& state) {
  OpParams params;
  params.set("filter_size", qnn::sdk::tensorU32({2}, {3, 3}));
  params.set("stride", qnn::sdk::tensorU32({2}, {2, 2}));
  params.set("pad_amount", qnn::sdk::tensorU32({2, 2}, {1, 1, 1, 1}));
  auto p = prepare("PoolMax2d", params, {{1, 112, 112, 64}}, {1, 56, 56, 64});
  run(state, p);
}
BENCHMARK(BM_PoolMax2dResNet18)->UseRealTime();

// What one parallel-for costs the CPU backend beyond its work: a job of one
// empty chunk per thread, back to back as a graph's ops issue them (the
// workers are awake). With QNN_CPU_NUM_THREADS=1 it runs inline.
void BM_ParallelForEmptyTask(benchmark::State& state) {
  const size_t chunks = qnn::cpu::workerThreads();
  for (auto _ : state) qnn::cpu::parallelFor(chunks, 1, [](size_t, size_t) { benchmark::ClobberMemory(); });
}
BENCHMARK(BM_ParallelForEmptyTask)->UseRealTime();

}  // namespace
