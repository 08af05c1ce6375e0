// qnn-dlc-info: prints what a DLC holds (docs/dlc-format.md): the converter
// metadata, and per graph its inputs and outputs, every node (type, inputs,
// outputs, params, weight bytes) and every tensor with its encoding, as text
// or (--json) as one JSON document. Every failure is one
// "qnn-dlc-info: error: ..." line and exit 1; the output file is written only
// after the DLC was read successfully.
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "tools/common/arg_parser.h"
#include "core/dtype.h"
#include "dlc/dlc_file.h"
#include "adapters/client_datatypes.h"
#include "tools/common/output_path.h"
#include "tools/common/raw_file.h"
#include "tools/common/tool_error.h"
#include "tools/common/tool_main.h"

namespace {

constexpr const char* kTool = "qnn-dlc-info";
using qnn::dlc::DlcFile;
using Json = nlohmann::json;

std::string dataTypeName(Qnn_DataType_t t) {
  return "QNN_DATATYPE_" + qnn::sdk::qnnDatatypeName(t);  // packed SFIXED_POINT_4 weights too
}

std::string dimsText(const std::vector<uint32_t>& dims) {
  std::string s = "[";
  for (size_t i = 0; i < dims.size(); ++i) s += (i ? ", " : "") + std::to_string(dims[i]);
  return s + "]";
}

Json quantJson(const qnn::dlc::QuantParams& q) {
  Json j = {{"bitwidth", q.bitwidth}, {"scale", q.scales}, {"offset", q.offsets}};
  if (q.axis >= 0) j["axis"] = q.axis;
  if (q.blockwise)
    j["blockwise_expansion"] = {{"num_blocks", q.numBlocks}, {"block_scale_bitwidth", q.blockScaleBitwidth},
                                {"block_scales", q.blockScales}};
  return j;
}

std::string quantText(const qnn::dlc::QuantParams& q) {
  if (!q.defined) return "";
  std::ostringstream s;
  s << q.bitwidth << "-bit";
  if (q.blockwise)
    s << " blockwise-expansion axis " << q.axis << " (" << q.scales.size() << " channels x " << q.numBlocks
      << " blocks, " << q.blockScaleBitwidth << "-bit block scales)";
  else if (q.axis >= 0)
    s << " per-axis " << q.axis << " (" << q.scales.size() << " scales)";
  else
    s << " scale " << q.scales[0] << " offset " << q.offsets[0];
  return s.str();
}

Json toJson(const DlcFile& f) {
  const auto& m = f.metadata();
  Json doc = {{"file", f.path()},
              {"metadata",
               {{"converter", m.converter},
                {"converter_command", m.converterCommand},
                {"model_version", m.modelVersion},
                {"source_model", m.sourceModel},
                {"source_sha256", m.sourceSha256}}},
              {"graphs", Json::array()}};
  if (!m.quantizer.empty()) {
    doc["metadata"]["quantizer"] = m.quantizer;
    doc["metadata"]["quantizer_command"] = m.quantizerCommand;
  }
  for (const auto& g : f.graphs()) {
    std::map<std::string, const qnn::dlc::Tensor*> byName;
    for (const auto& t : g.tensors) byName[t.name] = &t;
    Json graph = {{"name", g.name}, {"inputs", g.inputs}, {"outputs", g.outputs}, {"nodes", Json::array()},
                  {"tensors", Json::array()}};
    uint64_t weights = 0;
    for (const auto& n : g.nodes) {
      uint64_t bytes = 0;
      for (const auto& in : n.inputs)
        if (auto it = byName.find(in); it != byName.end() && it->second->data) bytes += it->second->size;
      weights += bytes;
      Json params = Json::array();
      for (const auto& p : n.params) params.push_back(p.name);
      graph["nodes"].push_back({{"name", n.name}, {"type", n.type}, {"package", n.package}, {"inputs", n.inputs},
                                {"outputs", n.outputs}, {"params", params}, {"weight_bytes", bytes}});
    }
    for (const auto& t : g.tensors) {
      Json tj = {{"name", t.name}, {"data_type", dataTypeName(t.dataType)}, {"dims", t.dims},
                 {"static_bytes", t.data ? t.size : 0}};
      if (t.quant.defined) tj["quant_params"] = quantJson(t.quant);
      if (!t.axisFormat.empty()) tj["axis_format"] = t.axisFormat;
      graph["tensors"].push_back(tj);
    }
    graph["weight_bytes"] = weights;
    if (!g.opPackages.empty()) {
      graph["op_packages"] = Json::array();
      for (const auto& p : g.opPackages)
        graph["op_packages"].push_back({{"name", p.name}, {"domain", p.domain}, {"version", p.version}});
    }
    doc["graphs"].push_back(graph);
  }
  if (!f.contextBinaries().empty()) {  // kept by QnnContext_addToDlc (docs/dlc-format.md)
    doc["context_binaries"] = Json::array();
    for (const auto& c : f.contextBinaries())
      doc["context_binaries"].push_back(
          {{"name", c.name}, {"record_type", c.recordType}, {"backend_id", c.backendId}, {"bytes", c.size}});
  }
  return doc;
}

std::string toText(const Json& doc) {
  std::ostringstream s;
  const Json& m = doc["metadata"];
  s << "DLC: " << doc["file"].get<std::string>() << "\n";
  s << "Converter: " << m["converter"].get<std::string>() << "  (" << m["converter_command"].get<std::string>()
    << ")\n";
  if (m.contains("quantizer"))
    s << "Quantizer: " << m["quantizer"].get<std::string>() << "  (" << m["quantizer_command"].get<std::string>()
      << ")\n";
  s << "Source model: " << m["source_model"].get<std::string>() << "  sha256 " << m["source_sha256"].get<std::string>()
    << "\n";
  if (!m["model_version"].get<std::string>().empty()) s << "Model version: " << m["model_version"].get<std::string>() << "\n";
  if (doc.contains("context_binaries"))
    for (const Json& c : doc["context_binaries"])
      s << "Context binary '" << c["name"].get<std::string>() << "': backend id " << c["backend_id"].get<uint32_t>()
        << ", " << c["bytes"].get<uint64_t>() << " bytes (record type " << c["record_type"].get<uint32_t>() << ")\n";
  for (const Json& g : doc["graphs"]) {
    std::map<std::string, const Json*> tensors;
    for (const Json& t : g["tensors"]) tensors[t["name"].get<std::string>()] = &t;
    auto describe = [&](const std::string& n) {
      const Json& t = *tensors.at(n);
      std::string d = n + " " + dimsText(t["dims"].get<std::vector<uint32_t>>()) + " " + t["data_type"].get<std::string>();
      if (t.contains("axis_format")) d += " " + t["axis_format"].get<std::string>();
      return d;
    };
    s << "\nGraph '" << g["name"].get<std::string>() << "': " << g["nodes"].size() << " nodes, "
      << g["tensors"].size() << " tensors, " << g["weight_bytes"].get<uint64_t>() << " weight bytes\n";
    if (g.contains("op_packages"))
      for (const Json& p : g["op_packages"])
        s << "  needs op package " << p["name"].get<std::string>() << " " << p["version"].get<std::string>() << " ("
          << p["domain"].get<std::string>() << "): register it with the backend (--op_packages)\n";
    for (const Json& n : g["inputs"]) s << "  input  " << describe(n) << "\n";
    for (const Json& n : g["outputs"]) s << "  output " << describe(n) << "\n";
    s << "  #    node                                      type                      weight bytes  outputs\n";
    size_t i = 0;
    for (const Json& n : g["nodes"]) {
      char line[256];
      std::snprintf(line, sizeof line, "  %-4zu %-41s %-25s %12llu  ", i++, n["name"].get<std::string>().c_str(),
                    n["type"].get<std::string>().c_str(), (unsigned long long)n["weight_bytes"].get<uint64_t>());
      s << line;
      bool first = true;
      for (const Json& o : n["outputs"]) {
        s << (first ? "" : ", ") << describe(o.get<std::string>());
        first = false;
      }
      s << "\n";
    }
    bool anyQuant = false;
    for (const Json& t : g["tensors"])
      if (t.contains("quant_params")) anyQuant = true;
    if (anyQuant) {
      s << "  encodings:\n";
      for (const Json& t : g["tensors"])
        if (t.contains("quant_params")) {
          qnn::dlc::QuantParams q;
          q.defined = true;
          q.bitwidth = t["quant_params"]["bitwidth"];
          q.scales = t["quant_params"]["scale"].get<std::vector<float>>();
          q.offsets = t["quant_params"]["offset"].get<std::vector<int32_t>>();
          q.axis = t["quant_params"].value("axis", -1);
          s << "    " << t["name"].get<std::string>() << ": " << quantText(q) << "\n";
        }
    }
  }
  return s.str();
}

// The flags it takes.
qnn::tools::ArgParser parser() {
  using namespace qnn::tools;
  return {kTool, "Prints the graphs, nodes, tensors, encodings and weight sizes a DLC holds.",
          withVersionAndHelp(
              {{"input_dlc", true, "FILE", "DLC to read (required)", "i"},
               {"json", false, "", "write JSON instead of text"},
               {"output_file", true, "FILE", "write to FILE instead of stdout; its directory must exist", "o"}})};
}

int run(const qnn::tools::ArgParser& args) {
  using namespace qnn::tools;
  args.require("input_dlc");
  std::unique_ptr<DlcFile> file;
  const qnn::sdk::Status st = DlcFile::open(args.value("input_dlc"), &file);
  if (!st.isOk()) throw ToolError(st.message());
  const Json doc = toJson(*file);
  const std::string text =
      args.has("json") ? doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n" : toText(doc);
  if (args.has("output_file")) {
    requireParentDirectory(args.value("output_file"));
    writeBinaryFile(args.value("output_file"), text.data(), text.size());
  } else {
    std::fwrite(text.data(), 1, text.size(), stdout);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) { return qnn::tools::runToolWithArgs(argc, argv, parser(), run); }
