// End-to-end cost of one graphExecute through the public API on libQnnCpu.so:
// the 1024^3 MatMul of benchmarks/models (matmul_1024.onnx: A[1024,1024] x a
// static B), for side-by-side runs with ONNX Runtime's CPU provider
// (benchmarks/ort_run.js). Weight values do not change the timing, so B is synthetic.
#include <benchmark/benchmark.h>
#include <dlfcn.h>

#include <string>
#include <vector>

#include "QnnInterface.h"

namespace {

const QNN_INTERFACE_VER_TYPE* loadCpuBackend() {
  static const QNN_INTERFACE_VER_TYPE* api = [] () -> const QNN_INTERFACE_VER_TYPE* {
    void* lib = dlopen(QNN_BENCH_CPU_BACKEND_PATH, RTLD_NOW | RTLD_LOCAL);
    if (!lib) return nullptr;
    auto get = reinterpret_cast<Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*)>(
        dlsym(lib, "QnnInterface_getProviders"));
    const QnnInterface_t** providers = nullptr;
    uint32_t n = 0;
    if (!get || get(&providers, &n) != QNN_SUCCESS || n == 0) return nullptr;
    return &providers[0]->QNN_INTERFACE_VER_NAME;
  }();
  return api;
}

// A backend, a context and an empty graph in it on libQnnCpu.so, freed at scope exit; api is null
// (and the benchmark skipped) when the library cannot be loaded.
struct ApiGraph {
  ApiGraph(benchmark::State& state, const char* name) : api(loadCpuBackend()) {
    if (!api) {
      state.SkipWithError("cannot load libQnnCpu.so");
      return;
    }
    api->backendCreate(nullptr, nullptr, &backend);
    api->contextCreate(backend, nullptr, nullptr, &ctx);
    api->graphCreate(ctx, name, nullptr, &graph);
  }
  ~ApiGraph() {
    if (!api) return;
    api->contextFree(ctx, nullptr);
    api->backendFree(backend);
  }
  const QNN_INTERFACE_VER_TYPE* api;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
};

Qnn_Tensor_t tensor(const char* name, Qnn_TensorType_t type, uint32_t* dims, void* data, uint32_t bytes) {
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.name = name;
  t.v1.type = type;
  t.v1.dataType = QNN_DATATYPE_FLOAT_32;
  t.v1.rank = 2;
  t.v1.dimensions = dims;
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  t.v1.clientBuf = {data, bytes};
  return t;
}

void BM_ApiMatMul1024(benchmark::State& state) {
  ApiGraph g(state, "matmul_1024");
  const QNN_INTERFACE_VER_TYPE* api = g.api;
  if (!api) return;
  Qnn_GraphHandle_t graph = g.graph;
  constexpr uint32_t n = 1024;
  uint32_t dims[] = {n, n};
  std::vector<float> a(n * n), b(n * n), out(n * n);
  for (size_t i = 0; i < a.size(); ++i) {
    a[i] = float(int(i * 7919 % 201) - 100) / 100.f;
    b[i] = float(int(i * 104729 % 199) - 99) / 3200.f;
  }
  Qnn_Tensor_t ta = tensor("A", QNN_TENSOR_TYPE_APP_WRITE, dims, nullptr, 0);
  Qnn_Tensor_t tb = tensor("B", QNN_TENSOR_TYPE_STATIC, dims, b.data(), n * n * 4);
  Qnn_Tensor_t to = tensor("output", QNN_TENSOR_TYPE_APP_READ, dims, nullptr, 0);
  api->tensorCreateGraphTensor(graph, &ta);
  api->tensorCreateGraphTensor(graph, &tb);
  api->tensorCreateGraphTensor(graph, &to);
  Qnn_Tensor_t ins[] = {ta, tb};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"matmul", "qti.aisw", "MatMul", 0, nullptr, 2, ins, 1, &to};
  if (api->graphAddNode(graph, op) != QNN_SUCCESS || api->graphFinalize(graph, nullptr, nullptr) != QNN_SUCCESS) {
    state.SkipWithError("graph build failed");
    return;
  }
  ta.v1.clientBuf = {a.data(), n * n * 4};
  to.v1.clientBuf = {out.data(), n * n * 4};
  for (auto _ : state) {
    if (api->graphExecute(graph, &ta, 1, &to, 1, nullptr, nullptr) != QNN_SUCCESS) state.SkipWithError("execute failed");
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["FLOP/s"] = benchmark::Counter(2.0 * n * n * n, benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_ApiMatMul1024)->Unit(benchmark::kMillisecond)->UseRealTime();

// What graphExecute costs per node beyond the nodes' work: a chain of `nodes` Relu on 16 floats
// (each runs inline in well under a microsecond), through the public API. Between the steps of a
// real model the kernels' data has pushed the executor's own bookkeeping out of the caches, so
// with `cold` 64 MiB are written between executes (outside the timing).
void BM_ApiStepOverhead(benchmark::State& state) {
  ApiGraph g(state, "relu_chain");
  const QNN_INTERFACE_VER_TYPE* api = g.api;
  if (!api) return;
  Qnn_GraphHandle_t graph = g.graph;
  const size_t nodes = size_t(state.range(0));
  const bool cold = state.range(1) != 0;
  uint32_t dims[] = {1, 16};
  std::vector<float> in(16, 0.5f), out(16);
  std::vector<std::string> names;
  for (size_t i = 0; i <= nodes; ++i) names.push_back("t" + std::to_string(i));
  std::vector<Qnn_Tensor_t> ts;
  for (size_t i = 0; i <= nodes; ++i) {
    const Qnn_TensorType_t type =
        i == 0 ? QNN_TENSOR_TYPE_APP_WRITE : i == nodes ? QNN_TENSOR_TYPE_APP_READ : QNN_TENSOR_TYPE_NATIVE;
    ts.push_back(tensor(names[i].c_str(), type, dims, nullptr, 0));
    api->tensorCreateGraphTensor(graph, &ts.back());
  }
  bool ok = true;
  for (size_t i = 0; i < nodes; ++i) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {names[i + 1].c_str(), "qti.aisw", "Relu", 0, nullptr, 1, &ts[i], 1, &ts[i + 1]};
    ok = ok && api->graphAddNode(graph, op) == QNN_SUCCESS;
  }
  if (!ok || api->graphFinalize(graph, nullptr, nullptr) != QNN_SUCCESS) {
    state.SkipWithError("graph build failed");
    return;
  }
  ts.front().v1.clientBuf = {in.data(), 64};
  ts.back().v1.clientBuf = {out.data(), 64};
  std::vector<char> junk(cold ? size_t(64) << 20 : 0);
  for (auto _ : state) {
    if (cold) {
      state.PauseTiming();
      for (size_t i = 0; i < junk.size(); i += 64) junk[i] = char(i);
      benchmark::DoNotOptimize(junk.data());
      state.ResumeTiming();
    }
    if (api->graphExecute(graph, &ts.front(), 1, &ts.back(), 1, nullptr, nullptr) != QNN_SUCCESS)
      state.SkipWithError("execute failed");
    benchmark::DoNotOptimize(out.data());
  }
  state.counters["per node"] =
      benchmark::Counter(double(nodes), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_ApiStepOverhead)->Args({100, 0})->Args({100, 1})->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
