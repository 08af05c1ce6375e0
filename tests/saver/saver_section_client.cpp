// A QNN client for the Saver tests in the shape of the vendor's LoRA flow:
// y = x*W + (x*A)*B (1x4 float) with A, B UPDATEABLE_STATIC. It finalizes,
// gets the base context binary, updates A/B and finalizes again, gets that
// adapter as a binary section, makes a second adapter with
// QnnContext_getBinarySectionUpdate (then frees it), re-creates the context
// from the base binary and executes it with the base weights, adapter one and
// adapter two applied in turn. The three outputs go to OUTPUTS.bin. On the way
// it reads the base binary in incremental pieces and loads it (with a data
// callback, which the backend never needs) with deferred
// graph initialization finished by QnnContext_finalize, and the last execute
// runs in buffers of an execution environment (a fourth output).
// Exit 0 when every call succeeded.
// Usage: saver_section_client BACKEND.so OUTPUTS.bin [SAVER_DIR]
#include <dlfcn.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "Saver/QnnSaver.h"
#include "tests/api/backend_loader.h"

using namespace qnn::test;

namespace {

int failures = 0;

void check(Qnn_ErrorHandle_t rc, const char* what) {
  if (rc != QNN_SUCCESS) {
    std::fprintf(stderr, "saver_section_client: %s failed: %llu\n", what, (unsigned long long)rc);
    ++failures;
  }
}

Qnn_Tensor_t updateOf(uint32_t id, std::vector<float>& data, std::vector<uint32_t>& dims) {
  Qnn_Tensor_t t = QNN_TENSOR_INIT;
  t.v1.id = id;
  t.v1.type = QNN_TENSOR_TYPE_UPDATEABLE_STATIC;
  t.v1.dataType = QNN_DATATYPE_FLOAT_32;
  t.v1.rank = static_cast<uint32_t>(dims.size());
  t.v1.dimensions = dims.data();
  t.v1.memType = QNN_TENSORMEMTYPE_RAW;
  t.v1.clientBuf = {data.data(), static_cast<uint32_t>(data.size() * 4)};
  return t;
}

QnnContext_Buffer_t bufferOf(std::vector<uint8_t>& bytes) {
  QnnContext_Buffer_t b{};
  b.version = QNN_CONTEXT_BUFFER_VERSION_1;
  b.v1.memType = QNN_CONTEXTMEMTYPE_RAW;
  b.v1.binaryBuf = {bytes.data(), bytes.size()};
  return b;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: saver_section_client BACKEND.so OUTPUTS.bin [SAVER_DIR]\n");
    return 2;
  }
  void* lib = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
  if (!lib) return 3;
  using Init = Qnn_ErrorHandle_t (*)(const QnnSaver_Config_t**);
  if (auto init = reinterpret_cast<Init>(dlsym(lib, "QnnSaver_initialize")); init && argc > 3) {
    QnnSaver_Config_t dir = QNN_SAVER_CONFIG_INIT;
    dir.option = QNN_SAVER_CONFIG_OPTION_OUTPUT_DIRECTORY;
    dir.outputDirectory = argv[3];
    const QnnSaver_Config_t* cfg[] = {&dir, nullptr};
    check(init(cfg), "QnnSaver_initialize");
  }
  LoadedBackend backendLib(argv[1]);
  if (!backendLib.ok()) return 3;
  const QNN_INTERFACE_VER_TYPE& api = backendLib.api();
  Qnn_BackendHandle_t backend = nullptr;
  check(api.backendCreate(nullptr, nullptr, &backend), "backendCreate");
  Qnn_ContextHandle_t ctx = nullptr;
  check(api.contextCreate(backend, nullptr, nullptr, &ctx), "contextCreate");
  QnnGraph_Config_t sections = QNN_GRAPH_CONFIG_INIT;
  sections.option = QNN_GRAPH_CONFIG_OPTION_ENABLE_BINARY_SECTION_WEIGHTS_UPDATES;
  sections.enableBinarySectionWeightsUpdates = 1;
  const QnnGraph_Config_t* graphConfig[] = {&sections, nullptr};
  Qnn_GraphHandle_t graph = nullptr;
  check(api.graphCreate(ctx, "lora", graphConfig, &graph), "graphCreate");

  std::vector<float> w(16), a(8), b(8), a1(8), b1(8), a2(8), x{1.f, -2.f, 0.5f, 3.f};
  for (size_t i = 0; i < w.size(); ++i) w[i] = 0.05f * float(i) - 0.3f;
  for (size_t i = 0; i < 8; ++i) {
    a[i] = 0.f;
    b[i] = 0.f;
    a1[i] = 0.1f * float(i % 3) - 0.1f;
    b1[i] = 0.25f - 0.05f * float(i);
    a2[i] = -0.2f * float(i % 4);
  }
  TensorSpec tx("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4});
  TensorSpec tw("W", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_FLOAT_32, {4, 4}, w.data(), 64);
  TensorSpec ta("A", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {4, 2}, a.data(), 32);
  TensorSpec tb("B", QNN_TENSOR_TYPE_UPDATEABLE_STATIC, QNN_DATATYPE_FLOAT_32, {2, 4}, b.data(), 32);
  TensorSpec xw("xw", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 4});
  TensorSpec xa("xa", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 2});
  TensorSpec xab("xab", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 4});
  TensorSpec ty("y", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4});
  for (TensorSpec* t : {&tx, &tw, &ta, &tb, &xw, &xa, &xab, &ty})
    check(api.tensorCreateGraphTensor(graph, &t->tensor), "tensorCreateGraphTensor");
  auto node = [&](const char* name, const char* type, std::vector<Qnn_Tensor_t> in, Qnn_Tensor_t out) {
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name, "qti.aisw", type, 0, nullptr, uint32_t(in.size()), in.data(), 1, &out};
    check(api.graphAddNode(graph, op), name);
  };
  node("mm_w", "MatMul", {tx.tensor, tw.tensor}, xw.tensor);
  node("mm_a", "MatMul", {tx.tensor, ta.tensor}, xa.tensor);
  node("mm_b", "MatMul", {xa.tensor, tb.tensor}, xab.tensor);
  node("add", "ElementWiseAdd", {xw.tensor, xab.tensor}, ty.tensor);
  check(api.graphFinalize(graph, nullptr, nullptr), "graphFinalize");

  Qnn_ContextBinarySize_t size = 0, written = 0;
  check(api.contextGetBinarySize(ctx, &size), "contextGetBinarySize");
  std::vector<uint8_t> base(size);
  check(api.contextGetBinary(ctx, base.data(), size, &written), "contextGetBinary");
  base.resize(written);

  // The same binary in backend-owned pieces.
  std::vector<uint8_t> assembled(base.size());
  std::vector<std::pair<const void*, Qnn_ContextBinarySize_t>> pieces;
  for (int guard = 0; guard < 1000; ++guard) {
    const void* piece = nullptr;
    Qnn_ContextBinarySize_t offset = 0, n = 0;
    check(api.contextGetIncrementalBinary(ctx, &piece, &offset, &n), "getIncrementalBinary");
    if (n == 0 || offset + n > assembled.size()) break;
    std::memcpy(assembled.data() + offset, piece, n);
    pieces.emplace_back(piece, offset);
  }
  if (assembled != base) check(QNN_COMMON_ERROR_GENERAL, "incremental pieces differ from the binary");
  for (auto& [piece, offset] : pieces) check(api.contextReleaseIncrementalBinary(ctx, piece, offset), "releaseIncrementalBinary");

  std::vector<uint32_t> aDims{4, 2}, bDims{2, 4};
  Qnn_Tensor_t ua = updateOf(ta.tensor.v1.id, a1, aDims), ub = updateOf(tb.tensor.v1.id, b1, bDims);
  const Qnn_Tensor_t* updates[] = {&ua, &ub};
  check(api.tensorUpdateGraphTensors(graph, updates, 2), "tensorUpdateGraphTensors");
  check(api.graphFinalize(graph, nullptr, nullptr), "graphFinalize (updates)");
  check(api.contextGetBinarySectionSize(ctx, graph, QNN_CONTEXT_SECTION_UPDATABLE, &size), "getBinarySectionSize");
  std::vector<uint8_t> one(size);
  QnnContext_Buffer_t oneBuf = bufferOf(one);
  check(api.contextGetBinarySection(ctx, graph, QNN_CONTEXT_SECTION_UPDATABLE, &oneBuf, &written, nullptr, nullptr),
        "getBinarySection");
  one.resize(written);
  oneBuf = bufferOf(one);

  Qnn_Tensor_t ua2 = updateOf(ta.tensor.v1.id, a2, aDims);
  const Qnn_Tensor_t* second[] = {&ua2};
  QnnContext_Buffer_t two{};
  check(api.contextGetBinarySectionUpdate(&oneBuf, nullptr, second, 1, 1, nullptr, nullptr, nullptr, &two),
        "getBinarySectionUpdate");
  std::vector<uint8_t> twoBytes;
  if (two.v1.binaryBuf.data)
    twoBytes.assign(static_cast<uint8_t*>(two.v1.binaryBuf.data),
                    static_cast<uint8_t*>(two.v1.binaryBuf.data) + two.v1.binaryBuf.dataSize);
  check(api.contextFreeBinarySectionUpdate(two, nullptr), "freeBinarySectionUpdate");
  check(api.contextFree(ctx, nullptr), "contextFree");

  Qnn_ContextHandle_t loaded = nullptr;
  QnnContext_Config_t defer = QNN_CONTEXT_CONFIG_INIT;
  defer.option = QNN_CONTEXT_CONFIG_OPTION_DEFER_GRAPH_INIT;
  defer.isGraphInitDeferred = 1;
  const QnnContext_Config_t* loadConfig[] = {&defer, nullptr};
  Qnn_ContextBinaryCallback_t callback;
  std::memset(&callback, 0, sizeof callback);
  callback.type = QNN_CONTEXT_CALLBACK_RAW_BUFFER;
  callback.rawBufferCallback.version = QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1;
  callback.rawBufferCallback.v1.dataProvide = [](Qnn_ContextBinaryDataRequest_t, Qnn_ContextBinaryRawDataResponse_t*,
                                                 void*) -> Qnn_ErrorHandle_t { return QNN_CONTEXT_ERROR_MEM_ALLOC; };
  callback.rawBufferCallback.v1.dataRelease = [](Qnn_ContextBinaryRawDataMem_t, void*) -> Qnn_ErrorHandle_t {
    return QNN_SUCCESS;
  };
  check(api.contextCreateFromBinaryWithCallback(backend, nullptr, loadConfig, &callback, base.data(), base.size(),
                                                &loaded, nullptr, nullptr),
        "contextCreateFromBinaryWithCallback");
  check(api.contextFinalize(loaded, nullptr), "contextFinalize");
  Qnn_GraphHandle_t g = nullptr;
  check(api.graphRetrieve(loaded, "lora", &g), "graphRetrieve");
  std::vector<float> outputs;
  auto execute = [&] {
    std::vector<float> y(4, 0.f);
    Qnn_Tensor_t in = tx.tensor, out = ty.tensor;
    in.v1.clientBuf = {x.data(), 16};
    out.v1.clientBuf = {y.data(), 16};
    check(api.graphExecute(g, &in, 1, &out, 1, nullptr, nullptr), "graphExecute");
    outputs.insert(outputs.end(), y.begin(), y.end());
  };
  execute();
  check(api.contextApplyBinarySection(loaded, g, QNN_CONTEXT_SECTION_UPDATABLE, &oneBuf, nullptr, nullptr),
        "applyBinarySection (one)");
  execute();
  QnnContext_Buffer_t twoBuf = bufferOf(twoBytes);
  check(api.contextApplyBinarySection(loaded, nullptr, QNN_CONTEXT_SECTION_UPDATABLE, &twoBuf, nullptr, nullptr),
        "applyBinarySection (two)");
  execute();
  // Once more in the backend's own buffers (POPULATE_CLIENT_BUFS environment).
  Qnn_Tensor_t envIn[] = {tx.tensor}, envOut[] = {ty.tensor};
  QnnGraph_ExecuteEnvironment_t env;
  std::memset(&env, 0, sizeof env);
  env.option = QNN_GRAPH_EXECUTE_ENVIRONMENT_OPTION_POPULATE_CLIENT_BUFS;
  env.tensorSet.version = QNN_TENSOR_SET_VERSION_1;
  env.tensorSet.v1 = {1, envIn, 1, envOut};
  QnnGraph_ExecuteEnvironment_t* envs[] = {&env};
  check(api.graphPrepareExecutionEnvironment(g, envs, 1), "prepareExecutionEnvironment");
  if (envIn[0].v1.clientBuf.data && envOut[0].v1.clientBuf.data) {
    std::memcpy(envIn[0].v1.clientBuf.data, x.data(), 16);
    check(api.graphExecute(g, envIn, 1, envOut, 1, nullptr, nullptr), "graphExecute (environment)");
    const float* y = static_cast<const float*>(envOut[0].v1.clientBuf.data);
    outputs.insert(outputs.end(), y, y + 4);
  }
  const QnnGraph_ExecuteEnvironment_t* release[] = {&env};
  check(api.graphReleaseExecutionEnvironment(g, release, 1), "releaseExecutionEnvironment");
  check(api.contextFree(loaded, nullptr), "contextFree");

  // The base binary twice through the list: version-1 params, and version-2
  // params with a data callback serving ranges of it.
  struct Slot {
    Qnn_ContextHandle_t context = nullptr;
    Qnn_GraphHandle_t graph = nullptr;
    Qnn_ErrorHandle_t status = QNN_COMMON_ERROR_GENERAL;
  } slots[2];
  auto note = [](Qnn_ContextHandle_t c, Qnn_GraphHandle_t graph, const char*,
                 QnnContext_createFromBinaryAsyncNotifyType_t type, void* param, Qnn_ErrorHandle_t status) {
    auto* slot = static_cast<Slot*>(param);
    if (c) slot->context = c;
    if (graph) slot->graph = graph;
    if (type == QNN_CONTEXT_NOTIFY_TYPE_CONTEXT_INIT) slot->status = status;
  };
  Qnn_ContextBinaryCallback_t ranges;
  std::memset(&ranges, 0, sizeof ranges);
  ranges.type = QNN_CONTEXT_CALLBACK_RAW_BUFFER;
  ranges.rawBufferCallback.version = QNN_CONTEXT_CALLBACK_RAW_BUFFER_VERSION_1;
  ranges.rawBufferCallback.v1.notifyParam = &base;
  ranges.rawBufferCallback.v1.dataProvide = [](Qnn_ContextBinaryDataRequest_t req, Qnn_ContextBinaryRawDataResponse_t* out,
                                               void* param) -> Qnn_ErrorHandle_t {
    auto* bytes = static_cast<std::vector<uint8_t>*>(param);
    if (req.offset > bytes->size() || req.size > bytes->size() - req.offset) return QNN_CONTEXT_ERROR_INVALID_ARGUMENT;
    out->memPtr = bytes->data() + req.offset;
    out->dataStartOffset = 0;
    out->alignedSize = req.size;
    return QNN_SUCCESS;
  };
  ranges.rawBufferCallback.v1.dataRelease = [](Qnn_ContextBinaryRawDataMem_t, void*) -> Qnn_ErrorHandle_t {
    return QNN_SUCCESS;
  };
  QnnContext_Params_t first{QNN_CONTEXT_PARAMS_VERSION_1,
                            {QnnContext_ParamsV1_t{nullptr, base.data(), base.size(), nullptr, note, &slots[0]}}};
  QnnContext_ParamsV2_t withCallbackV2{nullptr, base.data(), base.size(), nullptr, note, &slots[1], &ranges};
  QnnContext_Params_t withCallback{QNN_CONTEXT_PARAMS_VERSION_2, {}};
  withCallback.v2 = &withCallbackV2;
  const QnnContext_Params_t* list[] = {&first, &withCallback, nullptr};
  check(api.contextCreateFromBinaryListAsync(backend, nullptr, list, nullptr, nullptr), "contextCreateFromBinaryListAsync");
  for (Slot& slot : slots) {
    check(slot.status, "a load of the list");
    if (!slot.graph) continue;
    g = slot.graph;
    execute();
    check(api.contextFree(slot.context, nullptr), "contextFree (list)");
  }
  check(api.backendFree(backend), "backendFree");
  std::FILE* f = std::fopen(argv[2], "wb");
  if (!f) return 4;
  std::fwrite(outputs.data(), 4, outputs.size(), f);
  std::fclose(f);
  return failures ? 1 : 0;
}
