#include "tools/common/graph_spec.h"

#include <fstream>
#include <nlohmann/json.hpp>

#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

nlohmann::json toJson(const TensorSpec& t) {
  nlohmann::json j = {{"id", t.id}, {"name", t.name}, {"type", static_cast<int>(t.type)},
                      {"dataFormat", t.dataFormat}, {"dataType", static_cast<int>(t.dataType)}, {"dims", t.dims}};
  if (t.quantized) j["quantization"] = {{"scale", t.scale}, {"offset", t.offset}};
  if (t.perAxisQuantized) j["perAxisQuantized"] = true;
  return j;
}

// An enumerator's value read from the record: within the enum's range (0 .. 2^31-1, as the API's
// enums end in ..._UNDEFINED = 0x7fffffff), or the record is refused.
template <typename Enum>
Enum enumValue(const nlohmann::json& j, const char* key) {
  const int64_t v = j.at(key).get<int64_t>();
  if (v < 0 || v > 0x7fffffff) throw ToolError(std::string("tensor record: '") + key + "' " + std::to_string(v) +
                                                " is not a value of the API's enum");
  return static_cast<Enum>(v);
}

TensorSpec fromJson(const nlohmann::json& j) {
  TensorSpec t;
  t.id = j.at("id").get<uint32_t>();
  t.name = j.at("name").get<std::string>();
  t.type = enumValue<Qnn_TensorType_t>(j, "type");
  t.dataFormat = j.value("dataFormat", 0u);
  t.dataType = enumValue<Qnn_DataType_t>(j, "dataType");
  t.dims = j.at("dims").get<std::vector<uint32_t>>();
  if (j.contains("quantization")) {
    t.quantized = true;
    t.scale = j["quantization"].at("scale").get<float>();
    t.offset = j["quantization"].at("offset").get<int32_t>();
  }
  t.perAxisQuantized = j.value("perAxisQuantized", false);
  return t;
}

}  // namespace

GraphSpec graphSpecFromInfo(const GraphInfo_t& info) {
  GraphSpec g;
  g.name = info.graphName;
  for (uint32_t i = 0; i < info.numInputTensors; ++i) g.inputs.push_back(TensorSpec::fromQnn(info.inputTensors[i]));
  for (uint32_t i = 0; i < info.numOutputTensors; ++i) g.outputs.push_back(TensorSpec::fromQnn(info.outputTensors[i]));
  return g;
}

std::string tensorRecordPath(const std::string& binaryPath) { return binaryPath + ".json"; }

void writeTensorRecord(const std::string& path, const std::vector<GraphSpec>& graphs) {
  nlohmann::json doc = {{"format", "openqnn-context-tensors"}, {"version", 1}, {"graphs", nlohmann::json::array()}};
  for (const auto& g : graphs) {
    nlohmann::json jg = {{"name", g.name}, {"inputs", nlohmann::json::array()}, {"outputs", nlohmann::json::array()}};
    for (const auto& t : g.inputs) jg["inputs"].push_back(toJson(t));
    for (const auto& t : g.outputs) jg["outputs"].push_back(toJson(t));
    doc["graphs"].push_back(jg);
  }
  std::ofstream out(path);
  out << doc.dump(2) << "\n";
  if (!out) throw ToolError("cannot write '" + path + "'");
}

std::vector<GraphSpec> readTensorRecord(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ToolError("cannot open '" + path + "'");
  try {
    auto doc = nlohmann::json::parse(in);
    if (doc.value("format", "") != "openqnn-context-tensors" || doc.value("version", 0) != 1)
      throw ToolError("'" + path + "' is not an OpenQNN context tensor record");
    std::vector<GraphSpec> graphs;
    for (const auto& jg : doc.at("graphs")) {
      GraphSpec g;
      g.name = jg.at("name").get<std::string>();
      for (const auto& t : jg.at("inputs")) g.inputs.push_back(fromJson(t));
      for (const auto& t : jg.at("outputs")) g.outputs.push_back(fromJson(t));
      graphs.push_back(std::move(g));
    }
    return graphs;
  } catch (const nlohmann::json::exception& e) {
    throw ToolError("malformed tensor record '" + path + "': " + e.what());
  }
}

}  // namespace qnn::tools
