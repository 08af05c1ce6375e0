#include "cpu/cpu_graph_config.h"

#include <string>
#include <vector>

#include "CPU/QnnCpuGraph.h"

namespace qnn::cpu {
namespace {

// The op as the callback sees it. QnnCpuGraph.h: "Only outputTensor id and data
// buffer is valid"; names, types and dimensions are filled too, inputs and
// params are not. Everything lives until the callback returns.
struct DebugOpView {
  std::vector<Qnn_Tensor_t> outputs;
  Qnn_OpConfig_t op = QNN_OPCONFIG_INIT;

  DebugOpView(const sdk::GraphIR& graph, const sdk::NodeInfo& node, const std::vector<void*>& data) {
    for (size_t i = 0; i < node.outputIds.size(); ++i) {
      Qnn_Tensor_t t = QNN_TENSOR_INIT;
      t.version = QNN_TENSOR_VERSION_1;
      Qnn_TensorV1_t& v = t.v1;
      v.id = node.outputIds[i];
      if (const sdk::TensorInfo* info = graph.findTensor(node.outputIds[i])) {
        v.name = info->name.c_str();
        v.type = static_cast<Qnn_TensorType_t>(info->qnnTensorType());
        v.dataFormat = info->dataFormat;
        v.dataType = static_cast<Qnn_DataType_t>(info->dtype);
        if (info->quant.kind == sdk::QuantInfo::Kind::kScaleOffset && info->quant.bitwidth == 0) {
          v.quantizeParams.encodingDefinition = QNN_DEFINITION_DEFINED;
          v.quantizeParams.quantizationEncoding = QNN_QUANTIZATION_ENCODING_SCALE_OFFSET;
          v.quantizeParams.scaleOffsetEncoding = {info->quant.scale, info->quant.offset};
        }
        v.rank = static_cast<uint32_t>(info->dims.size());
        v.dimensions = const_cast<uint32_t*>(info->dims.data());
        v.memType = QNN_TENSORMEMTYPE_RAW;
        v.clientBuf.data = i < data.size() ? data[i] : nullptr;
        v.clientBuf.dataSize = v.clientBuf.data ? static_cast<uint32_t>(info->byteSize()) : 0;
      }
      outputs.push_back(t);
    }
    op.version = QNN_OPCONFIG_VERSION_1;
    op.v1.name = node.name.c_str();
    op.v1.packageName = node.packageName.c_str();
    op.v1.typeName = node.typeName.c_str();
    op.v1.numOfOutputs = static_cast<uint32_t>(outputs.size());
    op.v1.outputTensors = outputs.empty() ? nullptr : outputs.data();
  }
};

}  // namespace

sdk::Status applyCpuGraphCustomConfig(const void* custom, sdk::GraphIR* graph, sdk::ConfigWarnings* warnings) {
  const auto& c = *static_cast<const QnnCpuGraph_CustomConfig_t*>(custom);
  switch (c.option) {
    case QNN_CPU_GRAPH_CONFIG_OPTION_OP_DEBUG_CALLBACK: {
      QnnCpuGraph_OpDebugCallback_t fn = c.cpuGraphOpDebug.cpuGraphOpDebugCallback;
      void* param = c.cpuGraphOpDebug.callBackParam;
      if (!fn) {  // "NULL callback function indicate no debug option"
        graph->afterNode = nullptr;
        return sdk::Status::ok();
      }
      graph->afterNode = [fn, param](const sdk::GraphIR& g, const sdk::NodeInfo& node, const std::vector<void*>& data) {
        DebugOpView view(g, node, data);
        fn(&view.op, param);  // its return value asks nothing of the backend
      };
      return sdk::Status::ok();
    }
    case QNN_CPU_GRAPH_CONFIG_OPTION_USE_QMX:
      if (c.cpuGraphUseQmx.useQmx)
        warnings->push_back("CPU graph config: QMX is an Arm matrix extension this machine does not have; not used");
      return sdk::Status::ok();
    default:
      return sdk::invalidArgument("CPU graph config: unknown option " + std::to_string(c.option));
  }
}

}  // namespace qnn::cpu
