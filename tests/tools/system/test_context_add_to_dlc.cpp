// QnnContext_addToDlc (API 2.39) on libQnnCpu.so and libQnnHtp.so with libQnnSystem.so's DLC
// handles: a graph built through the API (y = Relu(x * w), w static) and a Relu chain, finalized
// and run; the context added to an empty DLC; the DLC read back through QnnSystemDlc_* (composable
// graphs, the context binary kept as a cache record, its reflection), saved, reloaded, composed
// and run again, and run by qnn-net-run --dlc_path: every output equal to the original graph's,
// which equal max(0, x * w) computed here. Misuse: null, forged and freed DLC handles, a graph
// added twice, graphs not finalized.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "QnnContext.h"
#include "System/QnnSystemDlc.h"
#include "tests/api/backend_loader.h"
#include "tests/api/relu_chain.h"
#include "tests/tools/system/system_loader.h"

namespace qnn::test {
namespace {

#define F(name) reinterpret_cast<decltype(&::QnnSystemDlc_##name)>(sys.symbol("QnnSystemDlc_" #name))

const std::vector<float> kX = {1.f, -2.f, 3.f, 0.25f};
const std::vector<float> kW = {0.5f, 1.5f, -2.f, 4.f};

std::vector<float> reference() {
  std::vector<float> y(kX.size());
  for (size_t i = 0; i < y.size(); ++i) y[i] = std::max(0.f, kX[i] * kW[i]);
  return y;
}

struct Backend {
  const char* path;
  uint32_t backendId;
  const char* cacheRecord;  // the name its context binary gets in the DLC
  QnnSystemDlc_RecordType_t cacheType;
};

class ContextAddToDlc : public ::testing::TestWithParam<Backend> {
 protected:
  void SetUp() override {
    ASSERT_TRUE(sys.ok()) << sys.error();
    ASSERT_TRUE(be.ok()) << be.error();
    // contextAddToDlc is member 72 of the 2.39 table (QNN_OPENQNN_PROVIDER_API=2.39).
    using GetProviders = Qnn_ErrorHandle_t (*)(const QnnInterface_t***, uint32_t*);
    void* lib = dlopen(GetParam().path, RTLD_NOW | RTLD_NOLOAD);  // the library `be` loaded
    ASSERT_NE(lib, nullptr);
    auto get = reinterpret_cast<GetProviders>(dlsym(lib, "QnnInterface_getProviders"));
    dlclose(lib);
    ASSERT_NE(get, nullptr);
    ASSERT_EQ(setenv("QNN_OPENQNN_PROVIDER_API", "2.39", 1), 0);
    const QnnInterface_t** providers = nullptr;
    uint32_t n = 0;
    const Qnn_ErrorHandle_t err = get(&providers, &n);
    unsetenv("QNN_OPENQNN_PROVIDER_API");
    ASSERT_EQ(err, QNN_SUCCESS);
    ASSERT_EQ(providers[0]->apiVersion.coreApiVersion.minor, 39u);
    addToDlc = reinterpret_cast<decltype(&QnnContext_addToDlc)>(
        reinterpret_cast<void* const*>(&providers[0]->QNN_INTERFACE_VER_NAME)[71]);
    ASSERT_NE(addToDlc, nullptr);
    ASSERT_EQ(qnn().backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
    ASSERT_EQ(qnn().contextCreate(backend, nullptr, nullptr, &context), QNN_SUCCESS);
    dir = ::testing::TempDir() + "add_to_dlc_" + std::to_string(::getpid()) + "_" + std::to_string(GetParam().backendId);
    ASSERT_EQ(std::system(("mkdir -p '" + dir + "'").c_str()), 0);
  }
  void TearDown() override {
    if (context) { EXPECT_EQ(qnn().contextFree(context, nullptr), QNN_SUCCESS); }
    if (backend) { EXPECT_EQ(qnn().backendFree(backend), QNN_SUCCESS); }
    EXPECT_EQ(std::system(("rm -rf '" + dir + "'").c_str()), 0);
  }
  const QNN_INTERFACE_VER_TYPE& qnn() { return be.api(); }

  // Graph "mul_relu" in ctx: y = Relu(x * w); finalized.
  Qnn_GraphHandle_t buildMulRelu(Qnn_ContextHandle_t ctx, bool finalize = true) {
    Qnn_GraphHandle_t g = nullptr;
    EXPECT_EQ(qnn().graphCreate(ctx, "mul_relu", nullptr, &g), QNN_SUCCESS);
    std::vector<float> w = kW;
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
    TensorSpec ws("w", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {1, 4}, w.data(), 16);
    TensorSpec t("t", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 4});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
    for (TensorSpec* s : {&x, &ws, &t, &y}) EXPECT_EQ(qnn().tensorCreateGraphTensor(g, &s->tensor), QNN_SUCCESS);
    Qnn_Tensor_t mulIn[] = {x.tensor, ws.tensor};
    Qnn_OpConfig_t mul = QNN_OPCONFIG_INIT;
    mul.v1 = {"mul", "qti.aisw", "ElementWiseMultiply", 0, nullptr, 2, mulIn, 1, &t.tensor};
    EXPECT_EQ(qnn().graphAddNode(g, mul), QNN_SUCCESS);
    Qnn_OpConfig_t relu = QNN_OPCONFIG_INIT;
    relu.v1 = {"relu", "qti.aisw", "Relu", 0, nullptr, 1, &t.tensor, 1, &y.tensor};
    EXPECT_EQ(qnn().graphAddNode(g, relu), QNN_SUCCESS);
    if (finalize) { EXPECT_EQ(qnn().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS); }
    return g;
  }
  // Runs a graph with one [1,4] float input and output (the given tensor descriptions).
  std::vector<float> run(Qnn_GraphHandle_t g, Qnn_Tensor_t in, Qnn_Tensor_t out) {
    std::vector<float> x = kX, y(4, -99.f);
    in.v1.clientBuf = {x.data(), 16};
    out.v1.clientBuf = {y.data(), 16};
    EXPECT_EQ(qnn().graphExecute(g, &in, 1, &out, 1, nullptr, nullptr), QNN_SUCCESS);
    return y;
  }
  std::vector<float> runBuilt(Qnn_GraphHandle_t g) {
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
    x.tensor.v1.id = 1;  // ids as the backend gave them: x first, y last of four
    y.tensor.v1.id = 4;
    return run(g, x.tensor, y.tensor);
  }

  LoadedSystemLibrary sys{systemLibraryPath()};
  LoadedBackend be{GetParam().path};
  decltype(&QnnContext_addToDlc) addToDlc = nullptr;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t context = nullptr;
  std::string dir;
};

TEST_P(ContextAddToDlc, GraphsSavedReloadedComposedAndRunGiveTheSameOutputs) {
  const Backend& b = GetParam();
  Qnn_GraphHandle_t g = buildMulRelu(context);
  const std::vector<float> original = runBuilt(g);
  ASSERT_EQ(original, reference());
  ReluChain chain(qnn(), context, "chain", 4, 2);
  ASSERT_EQ(chain.execute(), QNN_SUCCESS);
  ASSERT_TRUE(chain.outputCorrect());

  QnnSystemDlc_Handle_t dlc = nullptr;
  ASSERT_EQ(F(createWithDestinationDir)(nullptr, dir.c_str(), &dlc), QNN_SUCCESS);
  ASSERT_EQ(addToDlc(context, dlc), QNN_SUCCESS);
  EXPECT_EQ(addToDlc(context, dlc), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);  // its graphs are in the DLC already

  // The composable graphs, as QnnSystemDlc_* read them.
  QnnSystemDlc_GraphInfoHandle_t* graphs = nullptr;
  uint32_t numGraphs = 0;
  ASSERT_EQ(F(getComposableGraphInfoHandles)(dlc, &graphs, &numGraphs), QNN_SUCCESS);
  ASSERT_EQ(numGraphs, 2u);
  std::vector<std::string> names;
  for (uint32_t i = 0; i < numGraphs; ++i) {
    const QnnSystemDlc_ComposableGraphInfo_t* info = nullptr;
    ASSERT_EQ(F(getComposableGraphInfo)(graphs[i], &info), QNN_SUCCESS);
    names.push_back(info->graphInfoV1.graphName);
    if (names.back() == "mul_relu") {
      ASSERT_EQ(info->graphInfoV1.numGraphInputs, 1u);
      EXPECT_STREQ(info->graphInfoV1.graphInputs[0].v1.name, "x");
      EXPECT_STREQ(info->graphInfoV1.graphOutputs[0].v1.name, "y");
    }
  }
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"chain", "mul_relu"}));
  // The static weight is in the raw weights, described by the params record.
  QnnSystemDlc_RecordHandle_t rec = nullptr;
  ASSERT_EQ(F(getRecordByName)(dlc, "model.params", &rec), QNN_SUCCESS);
  ASSERT_NE(rec, nullptr);
  const uint8_t* data = nullptr;
  uint64_t size = 0;
  ASSERT_EQ(F(readRecordDataMemoryMapped)(rec, &data, &size), QNN_SUCCESS);
  EXPECT_NE(std::string(reinterpret_cast<const char*>(data), size).find("\"w\""), std::string::npos);

  // The context binary, kept as the backend's cache record, and its reflection.
  ASSERT_EQ(F(getRecordByName)(dlc, b.cacheRecord, &rec), QNN_SUCCESS);
  ASSERT_NE(rec, nullptr) << b.cacheRecord;
  if (b.cacheType != QNN_SYSTEM_DLC_RECORD_NAME_UNKNOWN) {
    QnnSystemDlc_RecordHandle_t* byType = nullptr;
    uint32_t n = 0;
    ASSERT_EQ(F(getRecordsByType)(dlc, b.cacheType, 1, &byType, &n), QNN_SUCCESS);
    ASSERT_EQ(n, 1u);
    rec = byType[0];
  }
  ASSERT_EQ(F(readRecordDataMemoryMapped)(rec, &data, &size), QNN_SUCCESS);
  QnnSystemContext_Handle_t sysCtx = nullptr;  // ONNX Runtime's route: the record to getBinaryInfo
  ASSERT_EQ(sys.api().systemContextCreate(&sysCtx), QNN_SUCCESS);
  const QnnSystemContext_BinaryInfo_t* binInfo = nullptr;
  Qnn_ContextBinarySize_t binInfoSize = 0;
  ASSERT_EQ(sys.api().systemContextGetBinaryInfo(sysCtx, const_cast<uint8_t*>(data), size, &binInfo, &binInfoSize),
            QNN_SUCCESS);
  EXPECT_EQ(binInfo->version == QNN_SYSTEM_CONTEXT_BINARY_INFO_VERSION_3 ? binInfo->contextBinaryInfoV3.numGraphs
                                                                        : binInfo->contextBinaryInfoV1.numGraphs,
            2u);
  EXPECT_EQ(sys.api().systemContextFree(sysCtx), QNN_SUCCESS);
  Qnn_ContextHandle_t loaded = nullptr;  // and the record loads as the context binary it is
  ASSERT_EQ(qnn().contextCreateFromBinary(backend, nullptr, nullptr, data, size, &loaded, nullptr), QNN_SUCCESS);
  Qnn_GraphHandle_t fromBinary = nullptr;
  ASSERT_EQ(qnn().graphRetrieve(loaded, "mul_relu", &fromBinary), QNN_SUCCESS);
  EXPECT_EQ(runBuilt(fromBinary), original);
  EXPECT_EQ(qnn().contextFree(loaded, nullptr), QNN_SUCCESS);

  QnnSystemDlc_ContextBinaryInfoHandle_t* binaries = nullptr;
  uint32_t numBinaries = 0;
  ASSERT_EQ(F(getContextBinaryInfoHandles)(dlc, &binaries, &numBinaries), QNN_SUCCESS);
  ASSERT_EQ(numBinaries, 1u);
  uint32_t backendId = 0, count = 0, major = 0, minor = 0, patch = 0, socModel = 0;
  ASSERT_EQ(F(getContextBinaryInfoBackendId)(binaries[0], &backendId), QNN_SUCCESS);
  EXPECT_EQ(backendId, b.backendId);
  ASSERT_EQ(F(getContextBinaryInfoNumGraphs)(binaries[0], &count), QNN_SUCCESS);
  EXPECT_EQ(count, 2u);
  ASSERT_EQ(F(getContextBinaryInfoCoreApiVersion)(binaries[0], &major, &minor, &patch), QNN_SUCCESS);
  EXPECT_EQ(major, 2u);
  uint64_t blobSize = 0;
  ASSERT_EQ(F(getContextBinaryInfoContextBlobSize)(binaries[0], &blobSize), QNN_SUCCESS);
  EXPECT_EQ(blobSize, size);
  // CPU binaries give binary info version 2 (graph info 1), HTP binaries version 3 (graph info 3):
  // each version's own fields answer, the others are UNSUPPORTED_FEATURE (QnnSystemDlc.h).
  const bool v3 = b.backendId == 6;
  const Qnn_ErrorHandle_t onlyV3 = v3 ? QNN_SUCCESS : QNN_SYSTEM_DLC_ERROR_UNSUPPORTED_FEATURE;
  const Qnn_ErrorHandle_t notV3 = v3 ? QNN_SYSTEM_DLC_ERROR_UNSUPPORTED_FEATURE : QNN_SUCCESS;
  EXPECT_EQ(F(getContextBinaryInfoSocModel)(binaries[0], &socModel), onlyV3);
  EXPECT_EQ(F(getContextBinaryInfoHwInfoBlobVersion)(binaries[0], &major, &minor, &patch), notV3);
  QnnSystemDlc_ContextGraphInfoHandle_t cg = nullptr;
  ASSERT_EQ(F(getContextGraphInfoHandle)(binaries[0], 1, &cg), QNN_SUCCESS);  // graphs in name order
  const char* name = nullptr;
  ASSERT_EQ(F(getContextGraphInfoGraphName)(cg, &name), QNN_SUCCESS);
  EXPECT_STREQ(name, "mul_relu");
  QnnSystemDlc_TensorInfoHandle_t in = nullptr;
  ASSERT_EQ(F(getContextGraphInfoInputTensorInfo)(cg, 0, &in), QNN_SUCCESS);
  ASSERT_EQ(F(getTensorInfoName)(in, &name), QNN_SUCCESS);
  EXPECT_STREQ(name, "x");
  count = 0;
  EXPECT_EQ(F(getContextGraphInfoGraphBlobInfoSize)(cg, &count), onlyV3);
  if (v3) { EXPECT_GT(count, 0u); }  // the HTP's QnnHtpSystemContext_GraphBlobInfo_t
  EXPECT_EQ(F(getContextGraphInfoNumUpdateableTensors)(cg, &count), onlyV3);
  EXPECT_EQ(F(getContextGraphInfoHandle)(binaries[0], 2, &cg), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);

  // Saved, reloaded, composed into a new context and run: the original outputs.
  ASSERT_EQ(F(save)(dlc, "context.dlc"), QNN_SUCCESS);
  EXPECT_EQ(sys.api().systemDlcFree(dlc), QNN_SUCCESS);
  EXPECT_EQ(addToDlc(context, dlc), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);  // freed
  const std::string file = dir + "/context.dlc";
  QnnSystemDlc_Handle_t reloaded = nullptr;
  ASSERT_EQ(sys.api().systemDlcCreateFromFile(nullptr, file.c_str(), &reloaded), QNN_SUCCESS);
  Qnn_ContextHandle_t second = nullptr;
  ASSERT_EQ(qnn().contextCreate(backend, nullptr, nullptr, &second), QNN_SUCCESS);
  QnnSystemContext_GraphInfo_t* infos = nullptr;
  ASSERT_EQ(sys.api().systemDlcComposeGraphs(reloaded, nullptr, 0, backend, second, be.provider(),
                                             QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1, &infos, &numGraphs),
            QNN_SUCCESS);
  ASSERT_EQ(numGraphs, 2u);
  for (uint32_t i = 0; i < numGraphs; ++i) {
    const auto& gi = infos[i].graphInfoV1;
    Qnn_GraphHandle_t composed = nullptr;
    ASSERT_EQ(qnn().graphRetrieve(second, gi.graphName, &composed), QNN_SUCCESS);
    ASSERT_EQ(qnn().graphFinalize(composed, nullptr, nullptr), QNN_SUCCESS);
    if (std::string(gi.graphName) == "mul_relu") {
      EXPECT_EQ(run(composed, gi.graphInputs[0], gi.graphOutputs[0]), original);
    } else {
      std::vector<float> y = run(composed, gi.graphInputs[0], gi.graphOutputs[0]);
      for (size_t k = 0; k < y.size(); ++k) EXPECT_EQ(y[k], std::max(kX[k], 0.f)) << k;  // Relu twice
    }
  }
  EXPECT_EQ(qnn().contextFree(second, nullptr), QNN_SUCCESS);
  EXPECT_EQ(sys.api().systemDlcFree(reloaded), QNN_SUCCESS);

  // qnn-net-run --dlc_path runs the saved DLC's graph: the same bytes out.
  std::ofstream(dir + "/x.raw", std::ios::binary).write(reinterpret_cast<const char*>(kX.data()), 16);
  std::ofstream(dir + "/list.txt") << "x:=" << dir << "/x.raw\n";
  const std::string cmd = std::string(QNN_TEST_NET_RUN_PATH) + " --backend " + b.path + " --model " +
                          QNN_TEST_MODEL_DLC_PATH + " --dlc_path " + file + " --graph-name mul_relu --input_list " +
                          dir + "/list.txt --output_dir " + dir + "/out > " + dir + "/net_run.log 2>&1";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  std::ifstream out(dir + "/out/Result_0/mul_relu/y.raw", std::ios::binary);
  std::vector<char> raw((std::istreambuf_iterator<char>(out)), std::istreambuf_iterator<char>());
  ASSERT_EQ(raw.size(), 16u);
  std::vector<float> y(4);
  std::memcpy(y.data(), raw.data(), 16);
  EXPECT_EQ(y, original);

  // qnn-dlc-info names the kept context binary.
  ASSERT_EQ(std::system((std::string(QNN_TEST_DLC_INFO_PATH) + " -i " + file + " > " + dir + "/info.txt 2>&1").c_str()), 0);
  std::ifstream infoFile(dir + "/info.txt");
  const std::string info((std::istreambuf_iterator<char>(infoFile)), std::istreambuf_iterator<char>());
  EXPECT_NE(info.find(std::string("Context binary '") + b.cacheRecord + "': backend id " + std::to_string(b.backendId)),
            std::string::npos)
      << info;
  EXPECT_NE(info.find("Graph 'mul_relu'"), std::string::npos) << info;
}

// Params of every kind and quantized tensors survive the DLC: x [1,2,3] -> Transpose(perm) ->
// Softmax(axis, beta) -> Quantize (uint8, 1/255) -> Dequantize -> ReduceMean(axes, keep_dims) -> y
// [1,1,2], checked against a double-precision reference; the composed graph's outputs equal the
// original's bit for bit, and the quantized tensor's encoding is in the encodings record.
TEST_P(ContextAddToDlc, ParamsAndQuantizedTensorsRoundTrip) {
  Qnn_GraphHandle_t g = nullptr;
  ASSERT_EQ(qnn().graphCreate(context, "mixed", nullptr, &g), QNN_SUCCESS);
  TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 2, 3});
  TensorSpec tr("tr", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 3, 2});
  TensorSpec sm("sm", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 3, 2});
  TensorSpec q("q", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_UFIXED_POINT_8, {1, 3, 2});
  q.tensor.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
  q.tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
  q.tensor.v1.quantizeParams.scaleOffsetEncoding = {1.f / 255.f, 0};
  TensorSpec dq("dq", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 3, 2});
  TensorSpec y("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 1, 2});
  for (TensorSpec* t : {&x, &tr, &sm, &q, &dq, &y}) ASSERT_EQ(qnn().tensorCreateGraphTensor(g, &t->tensor), QNN_SUCCESS);
  uint32_t perm[3] = {0, 2, 1}, axes[1] = {1};
  TensorSpec permT("perm", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {3}, perm, sizeof perm);
  TensorSpec axesT("axes", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_UINT_32, {1}, axes, sizeof axes);
  auto tensorParam = [](const char* name, TensorSpec& t) {
    Qnn_Param_t p = QNN_PARAM_INIT;
    p.paramType = QNN_PARAMTYPE_TENSOR, p.name = name, p.tensorParam = t.tensor;
    return p;
  };
  auto scalarParam = [](const char* name, Qnn_Scalar_t v) {
    Qnn_Param_t p = QNN_PARAM_INIT;
    p.paramType = QNN_PARAMTYPE_SCALAR, p.name = name, p.scalarParam = v;
    return p;
  };
  Qnn_Scalar_t axis = QNN_SCALAR_INIT, beta = QNN_SCALAR_INIT, keep = QNN_SCALAR_INIT;
  axis.dataType = QNN_DATATYPE_UINT_32, axis.uint32Value = 2;
  beta.dataType = QNN_DATATYPE_FLOAT_32, beta.floatValue = 0.5f;
  keep.dataType = QNN_DATATYPE_BOOL_8, keep.bool8Value = 1;
  auto node = [&](const char* name, const char* type, std::vector<Qnn_Param_t> params, Qnn_Tensor_t in,
                  Qnn_Tensor_t out) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", type, uint32_t(params.size()), params.data(), 1, &in, 1, &out};
    EXPECT_EQ(qnn().graphAddNode(g, op), QNN_SUCCESS) << name;
  };
  node("transpose", "Transpose", {tensorParam("perm", permT)}, x.tensor, tr.tensor);
  node("softmax", "Softmax", {scalarParam("axis", axis), scalarParam("beta", beta)}, tr.tensor, sm.tensor);
  node("quantize", "Quantize", {}, sm.tensor, q.tensor);
  node("dequantize", "Dequantize", {}, q.tensor, dq.tensor);
  node("mean", "ReduceMean", {tensorParam("axes", axesT), scalarParam("keep_dims", keep)}, dq.tensor, y.tensor);
  ASSERT_EQ(qnn().graphFinalize(g, nullptr, nullptr), QNN_SUCCESS);
  std::vector<float> in = {0.f, 1.f, -2.f, 3.f, 0.5f, -1.f}, original(2, -9.f);
  Qnn_Tensor_t xin = x.tensor, yout = y.tensor;
  xin.v1.clientBuf = {in.data(), 24};
  yout.v1.clientBuf = {original.data(), 8};
  ASSERT_EQ(qnn().graphExecute(g, &xin, 1, &yout, 1, nullptr, nullptr), QNN_SUCCESS);
  // Reference: row r of the transposed x is (x[0][r], x[1][r]); softmax(0.5 * row), each probability
  // on the 1/255 grid, then the mean over the three rows.
  double ref[2] = {0, 0};
  for (int r = 0; r < 3; ++r) {
    const double a = std::exp(0.5 * in[r]), b = std::exp(0.5 * in[3 + r]);
    ref[0] += std::nearbyint(a / (a + b) * 255.0) / 255.0 / 3.0;
    ref[1] += std::nearbyint(b / (a + b) * 255.0) / 255.0 / 3.0;
  }
  EXPECT_NEAR(original[0], ref[0], 1e-5);
  EXPECT_NEAR(original[1], ref[1], 1e-5);

  QnnSystemDlc_Handle_t dlc = nullptr;
  ASSERT_EQ(F(createWithDestinationDir)(nullptr, nullptr, &dlc), QNN_SUCCESS);
  ASSERT_EQ(addToDlc(context, dlc), QNN_SUCCESS);
  Qnn_SystemDlcBinarySize_t size = 0, written = 0;
  ASSERT_EQ(F(getBinarySize)(dlc, &size), QNN_SUCCESS);
  std::vector<uint8_t> bytes(size);
  ASSERT_EQ(F(getBinary)(dlc, bytes.data(), size, &written), QNN_SUCCESS);
  EXPECT_EQ(sys.api().systemDlcFree(dlc), QNN_SUCCESS);

  // From the bytes (ONNX Runtime keeps the DLC in its model), composed into a new context and run.
  ASSERT_EQ(sys.api().systemDlcCreateFromBinary(nullptr, bytes.data(), written, &dlc), QNN_SUCCESS);
  const std::string model = [&] {
    QnnSystemDlc_RecordHandle_t r = nullptr;
    EXPECT_EQ(F(getRecordByName)(dlc, "model.encodings", &r), QNN_SUCCESS);
    const uint8_t* data = nullptr;
    uint64_t n = 0;
    EXPECT_EQ(F(readRecordDataMemoryMapped)(r, &data, &n), QNN_SUCCESS);
    return std::string(reinterpret_cast<const char*>(data), n);
  }();
  EXPECT_NE(model.find("\"q\""), std::string::npos) << model;
  Qnn_ContextHandle_t second = nullptr;
  ASSERT_EQ(qnn().contextCreate(backend, nullptr, nullptr, &second), QNN_SUCCESS);
  QnnSystemContext_GraphInfo_t* infos = nullptr;
  uint32_t numGraphs = 0;
  ASSERT_EQ(sys.api().systemDlcComposeGraphs(dlc, nullptr, 0, backend, second, be.provider(),
                                             QNN_SYSTEM_CONTEXT_GRAPH_INFO_VERSION_1, &infos, &numGraphs),
            QNN_SUCCESS);
  ASSERT_EQ(numGraphs, 1u);
  Qnn_GraphHandle_t composed = nullptr;
  ASSERT_EQ(qnn().graphRetrieve(second, "mixed", &composed), QNN_SUCCESS);
  ASSERT_EQ(qnn().graphFinalize(composed, nullptr, nullptr), QNN_SUCCESS);
  std::vector<float> again(2, -9.f);
  xin = infos[0].graphInfoV1.graphInputs[0], yout = infos[0].graphInfoV1.graphOutputs[0];
  xin.v1.clientBuf = {in.data(), 24};
  yout.v1.clientBuf = {again.data(), 8};
  ASSERT_EQ(qnn().graphExecute(composed, &xin, 1, &yout, 1, nullptr, nullptr), QNN_SUCCESS);
  EXPECT_EQ(again, original);
  EXPECT_EQ(qnn().contextFree(second, nullptr), QNN_SUCCESS);
  EXPECT_EQ(sys.api().systemDlcFree(dlc), QNN_SUCCESS);
}

TEST_P(ContextAddToDlc, MisuseIsRefusedClearly) {
  buildMulRelu(context);
  EXPECT_EQ(addToDlc(context, nullptr), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  EXPECT_EQ(addToDlc(context, reinterpret_cast<QnnSystemDlc_Handle_t>(0xdead)), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  QnnSystemDlc_Handle_t dlc = nullptr;
  ASSERT_EQ(F(createWithDestinationDir)(nullptr, nullptr, &dlc), QNN_SUCCESS);
  EXPECT_EQ(addToDlc(nullptr, dlc), QNN_CONTEXT_ERROR_INVALID_HANDLE);
  // A context with a graph not finalized, and one without graphs.
  Qnn_ContextHandle_t building = nullptr, empty = nullptr;
  ASSERT_EQ(qnn().contextCreate(backend, nullptr, nullptr, &building), QNN_SUCCESS);
  buildMulRelu(building, false);
  EXPECT_EQ(addToDlc(building, dlc), QNN_GRAPH_ERROR_GRAPH_NOT_FINALIZED);
  ASSERT_EQ(qnn().contextCreate(backend, nullptr, nullptr, &empty), QNN_SUCCESS);
  EXPECT_EQ(addToDlc(empty, dlc), QNN_CONTEXT_ERROR_INVALID_ARGUMENT);
  Qnn_SystemDlcBinarySize_t size = 0;
  EXPECT_EQ(F(getBinarySize)(dlc, &size), QNN_SYSTEM_DLC_ERROR_INVALID_ARGUMENT);  // nothing was added
  EXPECT_EQ(qnn().contextFree(building, nullptr), QNN_SUCCESS);
  EXPECT_EQ(qnn().contextFree(empty, nullptr), QNN_SUCCESS);
  EXPECT_EQ(sys.api().systemDlcFree(dlc), QNN_SUCCESS);
}

INSTANTIATE_TEST_SUITE_P(Backends, ContextAddToDlc,
                         ::testing::Values(Backend{QNN_TEST_CPU_BACKEND_PATH, 3, "cpu_cache.0",
                                                   QNN_SYSTEM_DLC_RECORD_NAME_UNKNOWN},
                                           Backend{QNN_TEST_HTP_BACKEND_PATH, 6, "htp_cache.0",
                                                   QNN_SYSTEM_DLC_RECORD_PREFIX_HTP_CACHE_RECORD}),
                         [](const auto& info) { return info.param.backendId == 3 ? std::string("Cpu") : "Htp"; });

}  // namespace
}  // namespace qnn::test
