// Recording overhead of libQnnSaver.so in pass-through mode: the same graph of
// 100 ops executed directly on libQnnCpu.so and through the Saver forwarding
// to it (QNN_SAVER_BACKEND). Two graphs: a conv block (50 x [3x3 Conv2d 32->32
// on 16x16, Relu], compute-bound, 32 KiB in and out) and an elementwise chain
// (100 x Relu/ElementWiseAdd on 1x64x64x16, memory-bound, 256 KiB in and out).
// Argument 1 = a fresh input each execute (its first element changes, so the
// trace stores new input and output data every time); 0 = the same input
// (stored once, later executes only hash it). Weights are written at graph
// creation, outside the timed loop. Results: docs/benchmarks.md.
#include <benchmark/benchmark.h>
#include <dlfcn.h>
#include <time.h>
#include <unistd.h>

#include <cstdlib>
#include <deque>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "Saver/QnnSaver.h"

namespace {

const QNN_INTERFACE_VER_TYPE* load(const char* path, bool saver) {
  void* lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (!lib) return nullptr;
  if (saver) {
    // Pass-through to the CPU backend, trace into a scratch directory.
    static const std::string dir =
        (std::filesystem::temp_directory_path() / ("qnn_bench_saver_" + std::to_string(getpid()))).string();
    std::atexit([] { std::filesystem::remove_all(dir); });
    auto init = reinterpret_cast<Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**)>(dlsym(lib, "QnnSaver_initialize"));
    QnnSaver_Config_t out = QNN_SAVER_CONFIG_INIT;
    out.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
    out.outputDirectory = dir.c_str();
    const QnnSaver_Config_t* cfg[] = {&out, nullptr};
    if (!init || init(cfg) != QNN_SUCCESS) return nullptr;
  }
  auto get = reinterpret_cast<Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*)>(
      dlsym(lib, "QnnInterface_getProviders"));
  const QnnInterface_t** providers = nullptr;
  uint32_t n = 0;
  if (!get || get(&providers, &n) != QNN_SUCCESS || n == 0) return nullptr;
  return &providers[0]->QNN_INTERFACE_VER_NAME;
}

const QNN_INTERFACE_VER_TYPE* api(bool saver) {
  static const QNN_INTERFACE_VER_TYPE* direct = load(QNN_BENCH_CPU_BACKEND_PATH, false);
  static const QNN_INTERFACE_VER_TYPE* recorded = [] {
    setenv("QNN_SAVER_BACKEND", QNN_BENCH_CPU_BACKEND_PATH, 1);
    return load(QNN_BENCH_SAVER_PATH, true);
  }();
  return saver ? recorded : direct;
}

struct Tensor {
  std::string name;
  std::vector<uint32_t> dims;
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  Tensor(std::string n, Qnn_TensorType_t type, Qnn_DataType_t dtype, std::vector<uint32_t> d, void* data = nullptr,
         uint32_t bytes = 0)
      : name(std::move(n)), dims(std::move(d)) {
    t.v1.name = name.c_str();
    t.v1.type = type;
    t.v1.dataType = dtype;
    t.v1.rank = uint32_t(dims.size());
    t.v1.dimensions = dims.data();
    t.v1.memType = QNN_TENSORMEMTYPE_RAW;
    t.v1.clientBuf = {data, bytes};
  }
};

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-0.2f, 0.2f);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

struct Graph {
  std::deque<Tensor> tensors;  // keeps names and dims alive while ops refer to them
  std::deque<std::vector<float>> weights;  // static data stays valid until finalize
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t context = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  std::vector<uint32_t> ioDims;
  uint32_t inputId = 0, outputId = 0;
  size_t elements = 0;
};

// Backend, context, graph and its input tensor `x` (g.tensors.front()).
void start(const QNN_INTERFACE_VER_TYPE& q, Graph& g, const char* name, std::vector<uint32_t> dims) {
  g.ioDims = dims;
  g.elements = 1;
  for (uint32_t d : dims) g.elements *= d;
  q.backendCreate(nullptr, nullptr, &g.backend);
  q.contextCreate(g.backend, nullptr, nullptr, &g.context);
  q.graphCreate(g.context, name, nullptr, &g.graph);
  Tensor& x = g.tensors.emplace_back("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, g.ioDims);
  q.tensorCreateGraphTensor(g.graph, &x.t);
  g.inputId = x.t.v1.id;
}

void addNode(const QNN_INTERFACE_VER_TYPE& q, Graph& g, const char* type, std::vector<Qnn_Tensor_t> in, Tensor& out,
             std::vector<Qnn_Param_t> params = {}) {
  static int count = 0;
  std::string name = std::string(type) + std::to_string(count++);
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {name.c_str(), "qti.aisw", type, uint32_t(params.size()), params.data(), uint32_t(in.size()), in.data(), 1,
           &out.t};
  q.graphAddNode(g.graph, op);
}

// 50 x (Conv2d 3x3 32->32 pad 1, Relu) on 1x16x16x32.
Graph buildConv(const QNN_INTERFACE_VER_TYPE& q) {
  Graph g;
  start(q, g, "conv_block", {1, 16, 16, 32});
  Qnn_Tensor_t current = g.tensors.front().t;
  uint32_t strideData[] = {1, 1}, padData[] = {1, 1, 1, 1};
  for (int layer = 0; layer < 50; ++layer) {
    std::vector<float>& w = g.weights.emplace_back(randomFloats(3 * 3 * 32 * 32, layer));
    std::vector<float>& b = g.weights.emplace_back(randomFloats(32, 1000 + layer));
    std::string n = std::to_string(layer);
    Tensor wt("w" + n, QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {3, 3, 32, 32}, w.data(), uint32_t(w.size() * 4));
    Tensor bt("b" + n, QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {32}, b.data(), uint32_t(b.size() * 4));
    Tensor& conv = g.tensors.emplace_back("conv" + n, QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, g.ioDims);
    Tensor& relu = g.tensors.emplace_back("relu" + n, layer == 49 ? QNN_TENSOR_TYPE_APP_READ : QNN_TENSOR_TYPE_NATIVE,
                                          QNN_DATATYPE_FLOAT_32, g.ioDims);
    for (Tensor* t : {&wt, &bt, &conv, &relu}) q.tensorCreateGraphTensor(g.graph, &t->t);
    Tensor stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
    Tensor pad("pad_amount", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
    std::vector<Qnn_Param_t> params(2, Qnn_Param_t QNN_PARAM_INIT);
    params[0].paramType = params[1].paramType = QNN_PARAMTYPE_TENSOR;
    params[0].name = "stride";
    params[0].tensorParam = stride.t;
    params[1].name = "pad_amount";
    params[1].tensorParam = pad.t;
    addNode(q, g, "Conv2d", {current, wt.t, bt.t}, conv, params);
    addNode(q, g, "Relu", {conv.t}, relu);
    current = relu.t;
    g.outputId = relu.t.v1.id;
  }
  q.graphFinalize(g.graph, nullptr, nullptr);
  return g;
}

// 50 x (Relu, ElementWiseAdd of the input) on 1x64x64x16.
Graph buildElementwise(const QNN_INTERFACE_VER_TYPE& q) {
  Graph g;
  start(q, g, "elementwise_chain", {1, 64, 64, 16});
  const Qnn_Tensor_t x = g.tensors.front().t;
  Qnn_Tensor_t current = x;
  for (int k = 0; k < 50; ++k) {
    std::string n = std::to_string(k);
    Tensor& relu = g.tensors.emplace_back("relu" + n, QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, g.ioDims);
    Tensor& add = g.tensors.emplace_back("add" + n, k == 49 ? QNN_TENSOR_TYPE_APP_READ : QNN_TENSOR_TYPE_NATIVE,
                                         QNN_DATATYPE_FLOAT_32, g.ioDims);
    q.tensorCreateGraphTensor(g.graph, &relu.t);
    q.tensorCreateGraphTensor(g.graph, &add.t);
    addNode(q, g, "Relu", {current}, relu);
    addNode(q, g, "ElementWiseAdd", {relu.t, x}, add);
    current = add.t;
    g.outputId = add.t.v1.id;
  }
  q.graphFinalize(g.graph, nullptr, nullptr);
  return g;
}

// One execute, timed in this thread's CPU time: with QNN_CPU_NUM_THREADS=1 the
// kernels and the Saver's recording both run here, and time the machine gives
// to other processes is not counted.
double executeCpuUs(const QNN_INTERFACE_VER_TYPE& q, Graph& g, Qnn_Tensor_t& in, Qnn_Tensor_t& out, bool* ok) {
  timespec t0{}, t1{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t0);
  *ok = q.graphExecute(g.graph, &in, 1, &out, 1, nullptr, nullptr) == QNN_SUCCESS && *ok;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t1);
  return double(t1.tv_sec - t0.tv_sec) * 1e6 + double(t1.tv_nsec - t0.tv_nsec) * 1e-3;
}

// Direct and recorded executes alternate in one loop, so both see the same
// machine state; the counters give the mean of each and the overhead.
void paired(benchmark::State& state, Graph (*build)(const QNN_INTERFACE_VER_TYPE&)) {
  const QNN_INTERFACE_VER_TYPE* direct = api(false);
  const QNN_INTERFACE_VER_TYPE* saver = api(true);
  if (!direct || !saver) {
    state.SkipWithError("cannot load libQnnCpu.so or libQnnSaver.so");
    return;
  }
  Graph gd = build(*direct), gs = build(*saver);
  bool fresh = state.range(0) != 0;
  std::vector<float> input = randomFloats(gd.elements, 7), output(gd.elements);
  Tensor x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, gd.ioDims, input.data(), uint32_t(gd.elements * 4));
  Tensor y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, gd.ioDims, output.data(), uint32_t(gd.elements * 4));
  float step = 0;
  double directUs = 0, saverUs = 0;
  bool ok = true;
  for (auto _ : state) {
    if (fresh) input[0] = (step += 1e-3f);
    x.t.v1.id = gd.inputId;
    y.t.v1.id = gd.outputId;
    directUs += executeCpuUs(*direct, gd, x.t, y.t, &ok);
    x.t.v1.id = gs.inputId;
    y.t.v1.id = gs.outputId;
    saverUs += executeCpuUs(*saver, gs, x.t, y.t, &ok);
    benchmark::DoNotOptimize(output.data());
  }
  if (!ok) state.SkipWithError("graphExecute failed");
  double n = double(state.iterations());
  state.counters["direct_us"] = directUs / n;
  state.counters["saver_us"] = saverUs / n;
  state.counters["overhead_pct"] = 100.0 * (saverUs - directUs) / directUs;
  for (auto* q : {direct, saver}) {
    Graph& g = q == direct ? gd : gs;
    q->contextFree(g.context, nullptr);
    q->backendFree(g.backend);
  }
}

void BM_ConvBlock(benchmark::State& s) { paired(s, buildConv); }
void BM_Elementwise(benchmark::State& s) { paired(s, buildElementwise); }

BENCHMARK(BM_ConvBlock)->ArgName("fresh_input")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Elementwise)->ArgName("fresh_input")->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond);

}  // namespace
