// Runs one converted float model library (qnn-model-lib-generator output) on
// libQnnCpu.so and, in fp16 mode (graph custom config QNN_PRECISION_FLOAT16),
// on libQnnHtp.so, with the same float32 input file, and reports the largest
// difference of every output relative to the output's largest CPU magnitude.
// usage: htp_fp16_model_check MODEL.so INPUT.raw [MAX_REL_ERROR]
// Exit status 0 when every output is within MAX_REL_ERROR (default 1e-2).
#include <dlfcn.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "HTP/QnnHtpGraph.h"
#include "tests/api/backend_loader.h"
#include "tools/common/model_library.h"

namespace {

using qnn::test::LoadedBackend;

size_t elementsOf(const Qnn_Tensor_t& t) {
  size_t n = 1;
  for (uint32_t i = 0; i < t.v1.rank; ++i) n *= t.v1.dimensions[i];
  return n;
}

// Composes, finalizes and executes the model's first graph; returns its outputs.
bool runModel(const char* backendPath, const char* modelPath, bool fp16, const std::vector<float>& input,
              std::vector<std::vector<float>>* outputs, std::string* graphName) {
  LoadedBackend lib(backendPath);
  if (!lib.ok()) return std::fprintf(stderr, "cannot load %s\n", backendPath), false;
  const auto& api = lib.api();
  void* model = dlopen(modelPath, RTLD_NOW | RTLD_LOCAL);
  if (!model) return std::fprintf(stderr, "%s\n", dlerror()), false;
  auto compose = reinterpret_cast<ComposeGraphsFnHandleType_t>(dlsym(model, "QnnModel_composeGraphs"));
  auto freeInfo = reinterpret_cast<FreeGraphInfoFnHandleType_t>(dlsym(model, "QnnModel_freeGraphsInfo"));
  if (!compose || !freeInfo) return std::fprintf(stderr, "not a model library: %s\n", modelPath), false;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  if (api.backendCreate(nullptr, nullptr, &backend) != QNN_SUCCESS ||
      api.contextCreate(backend, nullptr, nullptr, &ctx) != QNN_SUCCESS)
    return std::fprintf(stderr, "backend/context creation failed on %s\n", backendPath), false;
  QnnHtpGraph_CustomConfig_t precision{};
  precision.option = QNN_HTP_GRAPH_CONFIG_OPTION_PRECISION;
  precision.precision = QNN_PRECISION_FLOAT16;
  QnnGraph_Config_t config = QNN_GRAPH_CONFIG_INIT;
  config.option = QNN_GRAPH_CONFIG_OPTION_CUSTOM;
  config.customConfig = &precision;
  const QnnGraph_Config_t* configList[] = {&config, nullptr};
  GraphConfigInfo_t info{const_cast<char*>(graphName->c_str()), configList};
  const GraphConfigInfo_t* infos[] = {&info};
  GraphInfoPtr_t* graphs = nullptr;
  uint32_t numGraphs = 0;
  ModelError_t err = compose(backend, api, ctx, fp16 ? infos : nullptr, fp16 ? 1 : 0, &graphs, &numGraphs, false,
                             nullptr, QNN_LOG_LEVEL_ERROR);
  bool ok = err == MODEL_NO_ERROR && numGraphs > 0;
  if (!ok) std::fprintf(stderr, "compose failed on %s (model error %d)\n", backendPath, int(err));
  if (ok) {
    GraphInfo_t& g = *graphs[0];
    *graphName = g.graphName;
    ok = api.graphFinalize(g.graph, nullptr, nullptr) == QNN_SUCCESS;
    if (!ok) std::fprintf(stderr, "finalize failed on %s\n", backendPath);
    if (ok && (g.numInputTensors != 1 || elementsOf(g.inputTensors[0]) != input.size() ||
               g.inputTensors[0].v1.dataType != QNN_DATATYPE_FLOAT_32)) {
      std::fprintf(stderr, "the model needs one FLOAT_32 input of %zu elements\n", elementsOf(g.inputTensors[0]));
      ok = false;
    }
    if (ok) {
      std::vector<float> in = input;
      g.inputTensors[0].v1.clientBuf = {in.data(), uint32_t(in.size() * 4)};
      outputs->assign(g.numOutputTensors, {});
      for (uint32_t o = 0; o < g.numOutputTensors; ++o) {
        (*outputs)[o].assign(elementsOf(g.outputTensors[o]), 0.f);
        g.outputTensors[o].v1.clientBuf = {(*outputs)[o].data(), uint32_t((*outputs)[o].size() * 4)};
      }
      ok = api.graphExecute(g.graph, g.inputTensors, 1, g.outputTensors, g.numOutputTensors, nullptr, nullptr) ==
           QNN_SUCCESS;
      if (!ok) std::fprintf(stderr, "execute failed on %s\n", backendPath);
    }
  }
  if (graphs) freeInfo(&graphs, numGraphs);
  api.contextFree(ctx, nullptr);
  api.backendFree(backend);
  dlclose(model);
  return ok;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s MODEL.so INPUT.raw [MAX_REL_ERROR]\n", argv[0]);
    return 2;
  }
  const double limit = argc > 3 ? std::atof(argv[3]) : 1e-2;
  std::ifstream f(argv[2], std::ios::binary | std::ios::ate);
  if (!f) return std::fprintf(stderr, "cannot read %s\n", argv[2]), 2;
  std::vector<float> input(size_t(f.tellg()) / 4);
  f.seekg(0);
  f.read(reinterpret_cast<char*>(input.data()), std::streamsize(input.size() * 4));
  std::vector<std::vector<float>> cpu, htp;
  std::string name;
  if (!runModel(QNN_TEST_CPU_BACKEND_PATH, argv[1], false, input, &cpu, &name)) return 1;
  if (!runModel(QNN_TEST_HTP_BACKEND_PATH, argv[1], true, input, &htp, &name)) return 1;
  bool pass = true;
  for (size_t o = 0; o < cpu.size(); ++o) {
    double maxAbs = 0, maxDiff = 0, dot = 0, na = 0, nb = 0;
    size_t onHalfGrid = 0;  // HTP outputs that are fp16 values (11 significant bits)
    for (size_t i = 0; i < cpu[o].size(); ++i) {
      int e;
      const double frac = std::frexp(double(htp[o][i]), &e);
      onHalfGrid += std::ldexp(frac, 11) == std::nearbyint(std::ldexp(frac, 11));
      maxAbs = std::max(maxAbs, std::fabs(double(cpu[o][i])));
      maxDiff = std::max(maxDiff, std::fabs(double(cpu[o][i]) - htp[o][i]));
      dot += double(cpu[o][i]) * htp[o][i], na += double(cpu[o][i]) * cpu[o][i], nb += double(htp[o][i]) * htp[o][i];
    }
    const double rel = maxDiff / std::max(maxAbs, 1e-30);
    std::printf("graph %s output %zu (%zu values): max |htp_fp16 - cpu| = %.4g, relative to max |cpu| %.4g = %.4g, "
                "cosine %.6f, %zu of the HTP values are fp16 values\n",
                name.c_str(), o, cpu[o].size(), maxDiff, maxAbs, rel, dot / std::sqrt(na * nb), onHalfGrid);
    pass = pass && rel <= limit;
  }
  std::printf("%s (limit %.3g)\n", pass ? "PASS" : "FAIL", limit);
  return pass ? 0 : 1;
}
