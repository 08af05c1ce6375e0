// A QNN client for the Saver tests: loads the backend given on the command line
// (the Saver or the CPU backend), builds conv 3x3 -> relu -> add, executes it
// three times with different inputs, round-trips the context through a binary,
// executes once more, and writes every output to a file. Exit 0 when every
// call succeeded. Usage: saver_client BACKEND.so OUTPUTS.bin [SAVER_OUTPUT_DIR]
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "Saver/QnnSaver.h"
#include "tests/api/backend_loader.h"

using namespace qnn::test;

namespace {

constexpr uint32_t kH = 5, kW = 6, kCin = 3, kCout = 4, kK = 3;
int failures = 0;

void check(Qnn_ErrorHandle_t rc, const char* what) {
  if (rc != QNN_SUCCESS) {
    std::fprintf(stderr, "saver_client: %s failed: %llu\n", what, (unsigned long long)rc);
    ++failures;
  }
}

std::vector<float> randomData(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> u(-1.f, 1.f);
  std::vector<float> v(n);
  for (float& e : v) e = u(rng);
  return v;
}

struct Ids {
  uint32_t x = 0, y = 0, out = 0;
};

Qnn_GraphHandle_t build(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, std::vector<float>& w,
                        std::vector<float>& b, Ids& ids) {
  Qnn_GraphHandle_t g = nullptr;
  check(api.graphCreate(ctx, "conv_relu_add", nullptr, &g), "graphCreate");
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCin});
  TensorSpec wt("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kK, kK, kCin, kCout}, w.data(),
                uint32_t(w.size() * 4));
  TensorSpec bt("b", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {kCout}, b.data(), uint32_t(b.size() * 4));
  TensorSpec conv("conv", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
  TensorSpec relu("relu", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
  TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout});
  for (TensorSpec* t : {&x, &wt, &bt, &conv, &relu, &y, &out})
    check(api.tensorCreateGraphTensor(g, &t->tensor), "tensorCreateGraphTensor");
  ids = {x.tensor.v1.id, y.tensor.v1.id, out.tensor.v1.id};
  uint32_t strideData[] = {1, 1}, padData[] = {1, 1, 1, 1};
  TensorSpec stride("stride", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2}, strideData, 8);
  TensorSpec pad("pad", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {2, 2}, padData, 16);
  Qnn_Param_t convParams[2] = {QNN_PARAM_INIT, QNN_PARAM_INIT};
  convParams[0].paramType = convParams[1].paramType = QNN_PARAMTYPE_TENSOR;
  convParams[0].name = "stride";
  convParams[0].tensorParam = stride.tensor;
  convParams[1].name = "pad_amount";
  convParams[1].tensorParam = pad.tensor;
  Qnn_Tensor_t convIn[] = {x.tensor, wt.tensor, bt.tensor};
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"conv0", "qti.aisw", "Conv2d", 2, convParams, 3, convIn, 1, &conv.tensor};
  check(api.graphAddNode(g, op), "graphAddNode conv");
  op.v1 = {"relu0", "qti.aisw", "Relu", 0, nullptr, 1, &conv.tensor, 1, &relu.tensor};
  check(api.graphAddNode(g, op), "graphAddNode relu");
  Qnn_Tensor_t addIn[] = {relu.tensor, y.tensor};
  op.v1 = {"add0", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &out.tensor};
  check(api.graphAddNode(g, op), "graphAddNode add");
  check(api.graphFinalize(g, nullptr, nullptr), "graphFinalize");
  return g;
}

std::vector<float> execute(const QNN_INTERFACE_VER_TYPE& api, Qnn_GraphHandle_t g, const Ids& ids, unsigned seed) {
  std::vector<float> in = randomData(kH * kW * kCin, seed), add = randomData(kH * kW * kCout, seed + 100);
  std::vector<float> result(kH * kW * kCout, 0.f);
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCin}, in.data(),
               uint32_t(in.size() * 4));
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout}, add.data(),
               uint32_t(add.size() * 4));
  TensorSpec out("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, kH, kW, kCout}, result.data(),
                 uint32_t(result.size() * 4));
  x.tensor.v1.id = ids.x;
  y.tensor.v1.id = ids.y;
  out.tensor.v1.id = ids.out;
  Qnn_Tensor_t ins[] = {x.tensor, y.tensor};
  check(api.graphExecute(g, ins, 2, &out.tensor, 1, nullptr, nullptr), "graphExecute");
  return result;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: saver_client BACKEND.so OUTPUTS.bin [SAVER_OUTPUT_DIR]\n");
    return 2;
  }
  if (argc > 3) {
    // QnnSaver_initialize comes before any other call, as with the vendor's Saver.
    void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    using Init = Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**);
    auto init = lib ? reinterpret_cast<Init>(dlsym(lib, "QnnSaver_initialize")) : nullptr;
    if (!init) return 3;
    QnnSaver_Config_t dir = QNN_SAVER_CONFIG_INIT;
    dir.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
    dir.outputDirectory = argv[3];
    const QnnSaver_Config_t* cfg[] = {&dir, nullptr};
    check(init(cfg), "QnnSaver_initialize");
  }
  LoadedBackend lib(argv[1]);
  if (!lib.ok()) {
    std::fprintf(stderr, "saver_client: %s\n", lib.error().c_str());
    return 3;
  }
  const QNN_INTERFACE_VER_TYPE& api = lib.api();
  std::vector<float> w = randomData(kK * kK * kCin * kCout, 1), b = randomData(kCout, 2);
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr, ctx2 = nullptr;
  check(api.backendCreate(nullptr, nullptr, &backend), "backendCreate");
  check(api.contextCreate(backend, nullptr, nullptr, &ctx), "contextCreate");
  Ids ids;
  Qnn_GraphHandle_t g = build(api, ctx, w, b, ids);
  std::vector<float> all;
  // SAVER_CLIENT_KILL_AFTER=n: die by SIGKILL after the n-th execute (crash-safety test).
  const char* killAfter = std::getenv("SAVER_CLIENT_KILL_AFTER");
  for (unsigned run = 0; run < 3; ++run) {
    std::vector<float> r = execute(api, g, ids, 10 + run);
    all.insert(all.end(), r.begin(), r.end());
    if (killAfter && unsigned(std::atoi(killAfter)) == run + 1) std::raise(SIGKILL);
  }
  Qnn_ContextBinarySize_t size = 0, written = 0;
  check(api.contextGetBinarySize(ctx, &size), "contextGetBinarySize");
  std::vector<uint8_t> binary(size);
  check(api.contextGetBinary(ctx, binary.data(), size, &written), "contextGetBinary");
  check(api.contextFree(ctx, nullptr), "contextFree");
  check(api.contextCreateFromBinary(backend, nullptr, nullptr, binary.data(), written, &ctx2, nullptr),
        "contextCreateFromBinary");
  Qnn_GraphHandle_t g2 = nullptr;
  check(api.graphRetrieve(ctx2, "conv_relu_add", &g2), "graphRetrieve");
  std::vector<float> r = execute(api, g2, ids, 10);
  all.insert(all.end(), r.begin(), r.end());
  check(api.contextFree(ctx2, nullptr), "contextFree");
  check(api.backendFree(backend), "backendFree");
  std::FILE* f = std::fopen(argv[2], "wb");
  if (!f || std::fwrite(all.data(), 4, all.size(), f) != all.size()) return 4;
  std::fclose(f);
  return failures == 0 ? 0 : 1;
}
