// Runs one conformance case through the QNN C API of a loaded backend library:
// a single-node graph built, finalized, executed and compared with the
// independent reference's expected outputs (gtest assertions). Shared by the
// CPU runner (test_conformance_api.cpp) and the HTP runner (tests/htp).
#pragma once

#include <gtest/gtest.h>

#include <cstring>
#include <memory>

#include "tests/api/backend_loader.h"
#include "tests/conformance/compare.h"
#include "tests/conformance/op_case.h"
#include "opdefs/op_catalog.h"

namespace qnn::test {

using conformance::CaseTensor;
using conformance::OpCase;

// Keeps the name/dims/quant storage that Qnn_Tensor_t points into.
struct TensorHolder {
  std::string name;
  std::vector<uint32_t> dims;
  std::vector<Qnn_ScaleOffset_t> scaleOffsets;
  std::vector<uint8_t> data;
  Qnn_Tensor_t t = QNN_TENSOR_INIT;

  // onnxRuntimeNull: a NULL tensor as ONNX Runtime's QNN EP sends an omitted input
  // (QNN_DATATYPE_UNDEFINED, rank 1, dims {0}); else the case's rank-0 form.
  TensorHolder(std::string n, Qnn_TensorType_t type, const CaseTensor& c, bool withData, bool onnxRuntimeNull = false)
      : name(std::move(n)) {
    dims = c.dims;
    t.version = QNN_TENSOR_VERSION_1;
    t.v1.name = name.c_str();
    t.v1.type = type;
    t.v1.dataType = static_cast<Qnn_DataType_t>(c.dtype);
    if (onnxRuntimeNull && type == QNN_TENSOR_TYPE_NULL) {
      dims = {0};
      t.v1.dataType = QNN_DATATYPE_UNDEFINED;
    }
    t.v1.rank = static_cast<uint32_t>(dims.size());
    t.v1.dimensions = dims.data();
    t.v1.memType = QNN_TENSORMEMTYPE_RAW;
    const auto& q = c.quant;
    if (q.kind == sdk::QuantInfo::Kind::kScaleOffset) {
      t.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
      t.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
      t.v1.quantizeParams.scaleOffsetEncoding = {q.scale, q.offset};
    } else if (q.kind == sdk::QuantInfo::Kind::kAxisScaleOffset) {
      for (size_t i = 0; i < q.scales.size(); ++i) scaleOffsets.push_back({q.scales[i], q.offsets[i]});
      t.v1.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
      t.v1.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_AXIS_SCALE_OFFSET;
      t.v1.quantizeParams.axisScaleOffsetEncoding = {q.axis, static_cast<uint32_t>(scaleOffsets.size()),
                                                     scaleOffsets.data()};
    }
    if (withData) data = c.bytes;
    else data.assign(c.bytes.size(), 0);
    t.v1.clientBuf = {data.data(), static_cast<uint32_t>(data.size())};
  }
};

// graphConfig: null-terminated list for QnnGraph_create (may be null). With
// refused non-null, a node the backend refuses at graphAddNode is not a failure:
// *refused is set and the case stops there. onnxRuntimeNulls: the case's NULL
// inputs in ONNX Runtime's form (see TensorHolder).
inline void runCaseThroughApi(const LoadedBackend* lib, const OpCase& c, const QnnGraph_Config_t** graphConfig = nullptr,
                              bool* refused = nullptr, bool onnxRuntimeNulls = false) {
  const auto& api = lib->api();
  Qnn_BackendHandle_t backend = nullptr;
  Qnn_ContextHandle_t ctx = nullptr;
  Qnn_GraphHandle_t graph = nullptr;
  ASSERT_EQ(api.backendCreate(nullptr, nullptr, &backend), QNN_SUCCESS);
  ASSERT_EQ(api.contextCreate(backend, nullptr, nullptr, &ctx), QNN_SUCCESS);
  ASSERT_EQ(api.graphCreate(ctx, "case", graphConfig, &graph), QNN_SUCCESS);

  std::vector<std::unique_ptr<TensorHolder>> ins, outs, params;
  for (size_t i = 0; i < c.inputs.size(); ++i) {
    auto type = c.inputs[i].isNull     ? QNN_TENSOR_TYPE_NULL
                : c.inputs[i].isStatic ? QNN_TENSOR_TYPE_STATIC
                                       : QNN_TENSOR_TYPE_APP_WRITE;
    ins.push_back(
        std::make_unique<TensorHolder>("in" + std::to_string(i), type, c.inputs[i], c.inputs[i].isStatic, onnxRuntimeNulls));
    ASSERT_EQ(api.tensorCreateGraphTensor(graph, &ins.back()->t), QNN_SUCCESS);
  }
  for (size_t i = 0; i < c.expected.size(); ++i) {
    outs.push_back(std::make_unique<TensorHolder>("out" + std::to_string(i), QNN_TENSOR_TYPE_APP_READ, c.expected[i], false));
    ASSERT_EQ(api.tensorCreateGraphTensor(graph, &outs.back()->t), QNN_SUCCESS);
  }
  std::vector<Qnn_Param_t> qparams;
  for (auto& [name, value] : c.params) {
    Qnn_Param_t p = QNN_PARAM_INIT;
    p.name = name.c_str();
    if (value.isTensor) {
      CaseTensor ct;
      ct.dtype = value.dtype;
      ct.dims = value.dims;
      ct.bytes = value.data;
      params.push_back(std::make_unique<TensorHolder>(name, QNN_TENSOR_TYPE_STATIC, ct, true));
      p.paramType = QNN_PARAMTYPE_TENSOR;
      p.tensorParam = params.back()->t;
    } else {
      p.paramType = QNN_PARAMTYPE_SCALAR;
      p.scalarParam.dataType = static_cast<Qnn_DataType_t>(value.dtype);
      std::memcpy(&p.scalarParam.uint32Value, &value.scalar, sizeof(uint32_t));
    }
    qparams.push_back(p);
  }
  std::vector<Qnn_Tensor_t> inT, outT;
  for (auto& h : ins) inT.push_back(h->t);
  for (auto& h : outs) outT.push_back(h->t);
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;
  op.v1 = {"node", "qti.aisw", c.opType.c_str(), static_cast<uint32_t>(qparams.size()), qparams.data(),
           static_cast<uint32_t>(inT.size()), inT.data(), static_cast<uint32_t>(outT.size()), outT.data()};
  // With ONNX Runtime's NULL tensors, the EP's partitioning step (backendValidateOpConfig) takes
  // what graphAddNode takes.
  const Qnn_ErrorHandle_t validated = onnxRuntimeNulls ? api.backendValidateOpConfig(backend, op) : QNN_SUCCESS;
  Qnn_ErrorHandle_t added = api.graphAddNode(graph, op);
  if (added == QNN_SUCCESS) {
    EXPECT_EQ(validated, QNN_SUCCESS) << "backendValidateOpConfig refused what graphAddNode took";
  }
  if (refused && added != QNN_SUCCESS) {
    *refused = true;
    EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
    EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
    return;
  }
  ASSERT_EQ(added, QNN_SUCCESS);
  ASSERT_EQ(api.graphFinalize(graph, nullptr, nullptr), QNN_SUCCESS);

  std::vector<Qnn_Tensor_t> execIn;
  for (size_t i = 0; i < ins.size(); ++i) {
    if (c.inputs[i].isStatic || c.inputs[i].isNull) continue;
    ins[i]->data = c.inputs[i].bytes;
    ins[i]->t.v1.clientBuf = {ins[i]->data.data(), static_cast<uint32_t>(ins[i]->data.size())};
    execIn.push_back(ins[i]->t);
  }
  ASSERT_EQ(api.graphExecute(graph, execIn.data(), static_cast<uint32_t>(execIn.size()), outT.data(),
                             static_cast<uint32_t>(outT.size()), nullptr, nullptr),
            QNN_SUCCESS);
  for (size_t i = 0; i < outs.size(); ++i) {
    std::string err = conformance::compareOutput(c.expected[i], outs[i]->data.data(), outs[i]->data.size(), c.atol, c.rtol,
                                                 c.fixedPointAsReal);
    EXPECT_EQ(err, "") << "output " << i;
  }
  EXPECT_EQ(api.contextFree(ctx, nullptr), QNN_SUCCESS);
  EXPECT_EQ(api.backendFree(backend), QNN_SUCCESS);
}

// The cases whose inputs hold omitted optional inputs once filled up to the op's
// largest input count with NULL tensors (Lstm: all 24, as ONNX Runtime's QNN EP
// builds it), or that already hold one; renamed "<name>_nulls". Run with
// onnxRuntimeNulls, they must give the reference's outputs: an omitted input is absent.
inline std::vector<OpCase> casesWithOmittedInputs(const std::vector<OpCase>& cases) {
  std::vector<OpCase> out;
  for (const OpCase& c : cases) {
    const sdk::OpDef* def = sdk::findOpDef(c.opType);
    if (!def) continue;
    OpCase padded = c;
    if (def->maxInputs != sdk::kUnboundedCount)
      while (padded.inputs.size() < def->maxInputs) padded.inputs.push_back(conformance::nullTensor());
    bool anyNull = false;
    for (const CaseTensor& t : padded.inputs) anyNull |= t.isNull;
    if (!anyNull) continue;
    padded.name += "_nulls";
    out.push_back(std::move(padded));
  }
  return out;
}

}  // namespace qnn::test
