// libFuzzer harness: random graphs built through the public API of libQnnCpu.so and libQnnHtp.so.
// The input is a stream of decisions: how many nodes, which op of the op definitions (sdk/opdefs), how
// many inputs and outputs within the op's counts, which earlier tensors or new static tensors feed it,
// every mandatory param and some optional ones (scalars and small tensors of the definition's
// datatype), the outputs' dims and datatypes (often those of the first input, so element-wise ops get
// through). Each node goes through QnnBackend_validateOpConfig and QnnGraph_addNode; a graph whose nodes
// were accepted is finalized and executed with input data from the stream. Whatever the backend
// refuses must be refused with an error code: no crash, hang, leak or sanitizer report. Tensors hold at
// most 8^4 elements, so nothing legitimate is slow.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <deque>
#include <string>
#include <vector>

#include "QnnInterface.h"
#include "tests/fuzz/fuzz_backend.h"
#include "opdefs/op_catalog.h"

namespace {

using qnn::sdk::DType;

// Reads decisions from the fuzzer's bytes; zeros once they run out.
class Stream {
 public:
  Stream(const uint8_t* data, size_t size) : p_(data), end_(data + size) {}
  uint8_t byte() { return p_ < end_ ? *p_++ : 0; }
  uint32_t below(uint32_t n) { return n ? byte() % n : 0; }
  bool flag() { return byte() & 1; }
  float real() {
    const int8_t b = static_cast<int8_t>(byte());
    return b / 16.0f;
  }
  bool done() const { return p_ >= end_; }

 private:
  const uint8_t* p_;
  const uint8_t* end_;
};

using qnn::fuzz::Backend;

// A tensor of the graph being built, with the storage its Qnn_Tensor_t points into.
struct Tensor {
  std::string name;
  std::vector<uint32_t> dims;
  Qnn_DataType_t dtype = QNN_DATATYPE_FLOAT_32;
  Qnn_TensorType_t type = QNN_TENSOR_TYPE_NATIVE;
  std::vector<uint8_t> data;  // static tensors, and client buffers at execute
  Qnn_Tensor_t qnn = QNN_TENSOR_INIT;

  size_t elements() const {
    size_t n = 1;
    for (uint32_t d : dims) n *= d;
    return n;
  }
  void bind() {  // (re)points qnn at name/dims/data
    qnn.version = QNN_TENSOR_VERSION_1;
    qnn.v1.name = name.c_str();
    qnn.v1.type = type;
    qnn.v1.dataType = dtype;
    qnn.v1.rank = static_cast<uint32_t>(dims.size());
    qnn.v1.dimensions = dims.data();
    qnn.v1.memType = QNN_TENSORMEMTYPE_RAW;
    qnn.v1.clientBuf = {data.empty() ? nullptr : data.data(), static_cast<uint32_t>(data.size())};
  }
};

const Qnn_DataType_t kDtypes[] = {QNN_DATATYPE_FLOAT_32, QNN_DATATYPE_UFIXED_POINT_8, QNN_DATATYPE_INT_32,
                                  QNN_DATATYPE_UINT_8,   QNN_DATATYPE_BOOL_8,         QNN_DATATYPE_SFIXED_POINT_8,
                                  QNN_DATATYPE_UFIXED_POINT_16, QNN_DATATYPE_FLOAT_16};

// Bytes per element: QNN datatype values carry the size in their low byte (0x0X8 = 1, 0x0X16 = 2, ...).
size_t dtypeBytes(Qnn_DataType_t t) {
  switch (uint32_t(t) & 0xff) {
    case 0x16: return 2;
    case 0x32: return 4;
    case 0x64: return 8;
    default: return 1;
  }
}

bool quantized(Qnn_DataType_t t) {
  return t == QNN_DATATYPE_UFIXED_POINT_8 || t == QNN_DATATYPE_SFIXED_POINT_8 || t == QNN_DATATYPE_UFIXED_POINT_16;
}

void setQuant(Tensor& t, Stream& s) {
  if (!quantized(t.dtype)) return;
  t.qnn.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
  t.qnn.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
  t.qnn.v1.quantizeParams.scaleOffsetEncoding = {0.01f + 0.01f * float(s.below(16)), -int32_t(s.below(200))};
}

Qnn_DataType_t paramDtype(DType d, Stream& s) {
  switch (d) {
    case DType::kUndefined: return s.flag() ? QNN_DATATYPE_UINT_32 : QNN_DATATYPE_FLOAT_32;
    default: return static_cast<Qnn_DataType_t>(d);
  }
}

// Writes one scalar of `dtype` (small values: indices, sizes, flags) into `out`.
void scalarValue(Qnn_DataType_t dtype, Stream& s, Qnn_Scalar_t* out) {
  out->dataType = dtype;
  switch (dtype) {
    case QNN_DATATYPE_FLOAT_32: out->floatValue = s.real(); break;
    case QNN_DATATYPE_BOOL_8: out->bool8Value = s.flag(); break;
    case QNN_DATATYPE_INT_32: out->int32Value = int32_t(s.below(9)) - 2; break;
    case QNN_DATATYPE_INT_64: out->int64Value = int64_t(s.below(9)) - 2; break;
    case QNN_DATATYPE_UINT_8: out->uint8Value = s.below(9); break;
    case QNN_DATATYPE_INT_8: out->int8Value = int8_t(s.below(9)) - 2; break;
    case QNN_DATATYPE_UINT_16: out->uint16Value = s.below(9); break;
    case QNN_DATATYPE_INT_16: out->int16Value = int16_t(s.below(9)) - 2; break;
    default: out->uint32Value = s.below(9); break;
  }
}

void fill(Tensor& t, Stream& s) {
  t.data.resize(t.elements() * dtypeBytes(t.dtype));
  for (size_t i = 0; i < t.data.size(); ++i) t.data[i] = s.byte();
  if (t.dtype == QNN_DATATYPE_FLOAT_32)  // finite values, mostly small
    for (size_t i = 0; i < t.elements(); ++i) {
      const float v = float(int8_t(t.data[i * 4])) / 16.0f;
      std::memcpy(&t.data[i * 4], &v, 4);
    }
  if (t.dtype == QNN_DATATYPE_FLOAT_16)
    for (size_t i = 0; i < t.elements(); ++i) t.data[i * 2 + 1] &= 0x3b;  // finite halves
}

void buildAndRun(const Backend& b, Stream& s) {
  if (!b.api) return;
  const auto& api = *b.api;
  const auto& ops = qnn::sdk::allOpDefs();
  Qnn_ContextHandle_t ctx = nullptr;
  if (api.contextCreate(b.handle, nullptr, nullptr, &ctx) != QNN_SUCCESS) return;
  Qnn_GraphHandle_t graph = nullptr;
  if (api.graphCreate(ctx, "fuzz", nullptr, &graph) != QNN_SUCCESS) {
    api.contextFree(ctx, nullptr);
    return;
  }
  std::deque<Tensor> tensors;  // stable addresses
  std::vector<Tensor*> inputs, available, produced;
  auto newTensor = [&](Qnn_TensorType_t type, std::vector<uint32_t> dims, Qnn_DataType_t dtype) -> Tensor* {
    tensors.emplace_back();
    Tensor& t = tensors.back();
    t.name = "t" + std::to_string(tensors.size());
    t.dims = std::move(dims);
    t.dtype = dtype;
    t.type = type;
    if (type == QNN_TENSOR_TYPE_STATIC) fill(t, s);
    t.bind();
    setQuant(t, s);
    if (api.tensorCreateGraphTensor(graph, &t.qnn) != QNN_SUCCESS) {
      tensors.pop_back();
      return nullptr;
    }
    return &t;
  };
  auto randomDims = [&]() {
    std::vector<uint32_t> dims(1 + s.below(4));
    for (auto& d : dims) d = 1 + s.below(8);
    return dims;
  };
  // Graph inputs.
  for (uint32_t i = 0, n = 1 + s.below(2); i < n; ++i)
    if (Tensor* t = newTensor(QNN_TENSOR_TYPE_APP_WRITE, randomDims(), kDtypes[s.below(8)])) {
      inputs.push_back(t);
      available.push_back(t);
    }
  bool added = false;
  for (uint32_t node = 0, numNodes = 1 + s.below(3); node < numNodes && !s.done(); ++node) {
    const qnn::sdk::OpDef& def = *ops[s.below(uint32_t(ops.size()))];
    const uint32_t maxIn = def.maxInputs == qnn::sdk::kUnboundedCount ? 3 : std::min<uint32_t>(def.maxInputs, 4);
    const uint32_t numIn = def.minInputs + s.below(maxIn - std::min<uint32_t>(def.minInputs, maxIn) + 1);
    std::vector<Qnn_Tensor_t> in;
    std::vector<Tensor*> used;
    for (uint32_t k = 0; k < numIn; ++k) {
      Tensor* t = nullptr;
      if (!available.empty() && s.below(4) != 0) {
        t = available[s.below(uint32_t(available.size()))];
      } else {
        std::vector<uint32_t> dims = used.empty() || s.flag() ? randomDims() : used[0]->dims;
        t = newTensor(QNN_TENSOR_TYPE_STATIC, dims, used.empty() ? kDtypes[s.below(8)] : used[0]->dtype);
      }
      if (!t) continue;
      used.push_back(t);
      in.push_back(t->qnn);
    }
    // Params: every mandatory one, some optional ones.
    std::deque<Tensor> paramTensors;
    std::vector<Qnn_Param_t> params;
    for (uint8_t k = 0; k < def.numParams; ++k) {
      const qnn::sdk::ParamDef& pd = def.params[k];
      if (!pd.mandatory && !s.flag()) continue;
      Qnn_Param_t p = QNN_PARAM_INIT;
      p.name = pd.name;
      const Qnn_DataType_t dt = paramDtype(pd.dtype, s);
      if (!pd.isTensor) {
        p.paramType = QNN_PARAMTYPE_SCALAR;
        scalarValue(dt, s, &p.scalarParam);
      } else {
        paramTensors.emplace_back();
        Tensor& t = paramTensors.back();
        t.name = std::string("p_") + pd.name + std::to_string(node);
        const int rank = pd.rank > 0 ? pd.rank : 1 + int(s.below(2));
        t.dims.assign(size_t(rank), 0);
        for (auto& d : t.dims) d = 1 + s.below(4);
        t.dtype = dt;
        t.type = QNN_TENSOR_TYPE_STATIC;
        t.data.resize(t.elements() * dtypeBytes(dt));
        for (size_t e = 0; e < t.elements(); ++e) {
          Qnn_Scalar_t v;
          scalarValue(dt, s, &v);
          std::memcpy(&t.data[e * dtypeBytes(dt)], &v.uint64Value, dtypeBytes(dt));  // the union's first bytes
        }
        t.bind();
        p.paramType = QNN_PARAMTYPE_TENSOR;
        p.tensorParam = t.qnn;
      }
      params.push_back(p);
    }
    // Outputs: mostly the first input's dims and datatype. They are graph outputs (APP_READ, so a
    // graph of any shape has something to return), created in the graph only once the backend has
    // validated the op: a refused node leaves no unproduced output behind.
    const uint32_t numOut = def.minOutputs + s.below(std::min<uint32_t>(def.maxOutputs, 2) -
                                                     std::min<uint32_t>(def.minOutputs, 2) + 1);
    std::vector<Tensor*> outs;
    for (uint32_t k = 0; k < numOut; ++k) {
      const bool likeInput = !used.empty() && s.below(4) != 0;
      tensors.emplace_back();
      Tensor& t = tensors.back();
      t.name = "t" + std::to_string(tensors.size());
      t.dims = likeInput ? used[0]->dims : randomDims();
      t.dtype = likeInput ? used[0]->dtype : kDtypes[s.below(8)];
      t.type = QNN_TENSOR_TYPE_APP_READ;
      t.bind();
      setQuant(t, s);
      outs.push_back(&t);
    }
    std::vector<Qnn_Tensor_t> out;
    for (Tensor* t : outs) out.push_back(t->qnn);
    const std::string name = "n" + std::to_string(node);
    Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
    op.v1 = {name.c_str(), "qti.aisw", def.name, uint32_t(params.size()), params.empty() ? nullptr : params.data(),
             uint32_t(in.size()), in.empty() ? nullptr : in.data(), uint32_t(out.size()),
             out.empty() ? nullptr : out.data()};
    if (api.backendValidateOpConfig(b.handle, op) != QNN_SUCCESS) continue;
    bool created = true;
    for (size_t k = 0; k < outs.size(); ++k) {
      created = created && api.tensorCreateGraphTensor(graph, &outs[k]->qnn) == QNN_SUCCESS;
      out[k] = outs[k]->qnn;  // with its id
    }
    if (created && api.graphAddNode(graph, op) == QNN_SUCCESS) {
      added = true;
      for (Tensor* t : outs) {
        available.push_back(t);
        produced.push_back(t);
      }
    }
  }
  if (added && api.graphFinalize(graph, nullptr, nullptr) == QNN_SUCCESS) {
    std::vector<Qnn_Tensor_t> in, out;
    for (Tensor* t : inputs) {
      const uint32_t id = t->qnn.v1.id;
      fill(*t, s);
      t->bind();
      t->qnn.v1.id = id;
      in.push_back(t->qnn);
    }
    for (Tensor* t : produced) {
      const uint32_t id = t->qnn.v1.id;
      t->data.assign(t->elements() * dtypeBytes(t->dtype), 0);
      t->bind();
      t->qnn.v1.id = id;
      out.push_back(t->qnn);
    }
    (void)api.graphExecute(graph, in.data(), uint32_t(in.size()), out.data(), uint32_t(out.size()), nullptr,
                           nullptr);
  }
  api.contextFree(ctx, nullptr);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  static const Backend cpu = qnn::fuzz::loadBackend(QNN_FUZZ_CPU_BACKEND);
  static const Backend htp = qnn::fuzz::loadBackend(QNN_FUZZ_HTP_BACKEND);
  if (size == 0) return 0;
  Stream s(data + 1, size - 1);
  buildAndRun(data[0] & 1 ? htp : cpu, s);
  return 0;
}
