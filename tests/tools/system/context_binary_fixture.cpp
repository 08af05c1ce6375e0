#include "tests/tools/system/context_binary_fixture.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "HTP/QnnHtpCommon.h"
#include "HTP/QnnHtpContext.h"
#include "tests/api/backend_loader.h"

namespace qnn::test {
namespace {

ExpectedTensor expect(const TensorSpec& t) {
  ExpectedTensor e;
  const Qnn_TensorV1_t& v = t.tensor.v1;
  e.id = v.id;
  e.name = t.name;
  e.type = v.type;
  e.dtype = v.dataType;
  e.dims = t.dims;
  if (v.quantizeParams.encodingDefinition == QNN_DEFINITION_DEFINED) {
    e.encoding = v.quantizeParams.quantizationEncoding;
    if (e.encoding == QNN_QUANTIZATION_ENCODING_SCALE_OFFSET) {
      e.scale = v.quantizeParams.scaleOffsetEncoding.scale;
      e.offset = v.quantizeParams.scaleOffsetEncoding.offset;
    } else {
      const auto& a = v.quantizeParams.axisScaleOffsetEncoding;
      e.axis = a.axis;
      for (uint32_t i = 0; i < a.numScaleOffsets; ++i) {
        e.scales.push_back(a.scaleOffset[i].scale);
        e.offsets.push_back(a.scaleOffset[i].offset);
      }
    }
  }
  return e;
}

void quantize(TensorSpec& t, float scale, int32_t offset) {
  t.tensor.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
  t.tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
  t.tensor.v1.quantizeParams.scaleOffsetEncoding = {scale, offset};
}

// so is pointed to, not copied: it must outlive the creation of t.
void quantizePerAxis(TensorSpec& t, int32_t axis, std::vector<Qnn_ScaleOffset_t>& so) {
  t.tensor.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
  t.tensor.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET;
  t.tensor.v1.quantizeParams.axisScaleOffsetEncoding = {axis, static_cast<uint32_t>(so.size()), so.data()};
}

// Builds both graphs in one context; returns an error message or "".
std::string build(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx, ContextBinaryFixture* out) {
  // float_graph
  {
    Qnn_GraphHandle_t g = nullptr;
    if (api.graphCreate(ctx, "float_graph", nullptr, &g) != QNN_SUCCESS) return "graphCreate float_graph";
    TensorSpec x("x", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4, 4, 3});
    TensorSpec y("y", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_FLOAT_32, {1, 4, 4, 3});
    TensorSpec sum("sum", QNN_TENSOR_TYPE_NATIVE, QNN_DATATYPE_FLOAT_32, {1, 4, 4, 3});
    TensorSpec o("out", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_FLOAT_32, {1, 4, 4, 3});
    for (TensorSpec* t : {&x, &y, &sum, &o})
      if (api.tensorCreateGraphTensor(g, &t->tensor) != QNN_SUCCESS) return "tensor " + t->name;
    Qnn_Tensor_t addIn[] = {x.tensor, y.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"add0", "qti.aisw", "ElementWiseAdd", 0, nullptr, 2, addIn, 1, &sum.tensor};
    if (api.graphAddNode(g, op) != QNN_SUCCESS) return "add0";
    op.v1 = {"relu0", "qti.aisw", "Relu", 0, nullptr, 1, &sum.tensor, 1, &o.tensor};
    if (api.graphAddNode(g, op) != QNN_SUCCESS) return "relu0";
    if (api.graphFinalize(g, nullptr, nullptr) != QNN_SUCCESS) return "finalize float_graph";
    out->graphs.push_back({"float_graph", {expect(x), expect(y)}, {expect(o)}});
  }
  // quant_graph
  {
    Qnn_GraphHandle_t g = nullptr;
    if (api.graphCreate(ctx, "quant_graph", nullptr, &g) != QNN_SUCCESS) return "graphCreate quant_graph";
    std::vector<int8_t> weights(4 * 8);
    for (size_t i = 0; i < weights.size(); ++i) weights[i] = static_cast<int8_t>(int(i % 7) - 3);
    std::vector<Qnn_ScaleOffset_t> wStaticQ = {{0.01f, 0}, {0.02f, 0}, {0.03f, 0}, {0.04f, 0}};
    std::vector<Qnn_ScaleOffset_t> wInQ = {{0.5f, 0}, {0.25f, 0}, {0.125f, 0}, {0.0625f, 0}};
    TensorSpec x("qx", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_UFIXED_POINT_8, {1, 8});
    quantize(x, 0.05f, -128);
    TensorSpec ws("w_static", QNN_TENSOR_TYPE_STATIC, QNN_DATATYPE_SFIXED_POINT_8, {4, 8}, weights.data(),
                  static_cast<uint32_t>(weights.size()));
    quantizePerAxis(ws, 0, wStaticQ);
    TensorSpec wi("w_in", QNN_TENSOR_TYPE_APP_WRITE, QNN_DATATYPE_SFIXED_POINT_8, {4, 8});
    quantizePerAxis(wi, 0, wInQ);
    TensorSpec y1("qy1", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 4});
    quantize(y1, 0.1f, -10);
    TensorSpec y2("qy2", QNN_TENSOR_TYPE_APP_READ, QNN_DATATYPE_UFIXED_POINT_8, {1, 4});
    quantize(y2, 0.2f, -20);
    // The HTP takes FullyConnected weights as static tensors only: there, fc_static alone.
    const bool inputWeights = out->backendId != QNN_BACKEND_ID_HTP;
    std::vector<TensorSpec*> tensors = {&x, &ws, &y1};
    if (inputWeights) tensors.insert(tensors.end(), {&wi, &y2});
    for (TensorSpec* t : tensors)
      if (api.tensorCreateGraphTensor(g, &t->tensor) != QNN_SUCCESS) return "tensor " + t->name;
    Qnn_Tensor_t fc1In[] = {x.tensor, ws.tensor};
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {"fc_static", "qti.aisw", "FullyConnected", 0, nullptr, 2, fc1In, 1, &y1.tensor};
    if (api.graphAddNode(g, op) != QNN_SUCCESS) return "fc_static";
    if (inputWeights) {
      Qnn_Tensor_t fc2In[] = {x.tensor, wi.tensor};
      op.v1 = {"fc_input", "qti.aisw", "FullyConnected", 0, nullptr, 2, fc2In, 1, &y2.tensor};
      if (api.graphAddNode(g, op) != QNN_SUCCESS) return "fc_input";
    }
    if (api.graphFinalize(g, nullptr, nullptr) != QNN_SUCCESS) return "finalize quant_graph";
    if (inputWeights) out->graphs.push_back({"quant_graph", {expect(x), expect(wi)}, {expect(y1), expect(y2)}});
    else out->graphs.push_back({"quant_graph", {expect(x)}, {expect(y1)}});
  }
  return "";
}

// The backend's answer to QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE (0 if refused).
uint64_t htpSpillFill(const QNN_INTERFACE_VER_TYPE& api, Qnn_ContextHandle_t ctx) {
  QnnHtpContext_CustomProperty_t custom = QNN_HTP_CONTEXT_CUSTOM_PROPERTY_INIT;
  custom.option = QNN_HTP_CONTEXT_GET_PROP_MAX_SPILLFILL_BUFFER_SIZE;
  QnnContext_Property_t property{};
  property.option = QNN_CONTEXT_PROPERTY_OPTION_CUSTOM;
  property.customProperty = &custom;
  QnnContext_Property_t* list[] = {&property, nullptr};
  return api.contextGetProperty(ctx, list) == QNN_SUCCESS ? custom.spillfillBufferSize : 0;
}

ContextBinaryFixture makeFixture(const std::string& backendPath) {
  ContextBinaryFixture f;
  LoadedBackend lib(backendPath);
  if (!lib.ok()) {
    f.error = "cannot load the backend: " + lib.error();
    return f;
  }
  const auto& api = lib.api();
  f.backendId = lib.provider().backendId;
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  if (api.backendCreate(nullptr, nullptr, &backend) != QNN_SUCCESS) {
    f.error = "backendCreate failed";
    return f;
  }
  if (api.contextCreate(backend, nullptr, nullptr, &ctx) != QNN_SUCCESS) f.error = "contextCreate failed";
  if (f.error.empty()) f.error = build(api, ctx, &f);
  if (f.error.empty() && f.backendId == QNN_BACKEND_ID_HTP) f.htpSpillFill = htpSpillFill(api, ctx);
  Qnn_ContextBinarySize_t size = 0, written = 0;
  if (f.error.empty() && api.contextGetBinarySize(ctx, &size) != QNN_SUCCESS) f.error = "contextGetBinarySize failed";
  if (f.error.empty()) {
    f.bytes.resize(size);
    if (api.contextGetBinary(ctx, f.bytes.data(), size, &written) != QNN_SUCCESS) f.error = "contextGetBinary failed";
    f.bytes.resize(written);
  }
  if (ctx) api.contextFree(ctx, nullptr);
  api.backendFree(backend);
  if (!f.error.empty()) f.error = "building the context binary: " + f.error;
  return f;
}

}  // namespace

const ContextBinaryFixture& contextBinaryFixture() {
  static const ContextBinaryFixture fixture = makeFixture(cpuBackendPath());
  return fixture;
}

const ContextBinaryFixture& htpContextBinaryFixture() {
  static const ContextBinaryFixture fixture = makeFixture(QNN_TEST_HTP_BACKEND_PATH);
  return fixture;
}

TempDir::TempDir() {
  const char* base = std::getenv("TMPDIR");
  std::string pattern = std::string(base && *base ? base : "/tmp") + "/qnn-system-test-XXXXXX";
  std::vector<char> buf(pattern.begin(), pattern.end());
  buf.push_back('\0');
  if (mkdtemp(buf.data())) path_ = buf.data();
}

TempDir::~TempDir() {
  std::error_code ec;
  if (!path_.empty()) std::filesystem::remove_all(path_, ec);
}

void writeFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

bool fileExists(const std::string& path) {
  std::error_code ec;
  return std::filesystem::exists(path, ec);
}

}  // namespace qnn::test
