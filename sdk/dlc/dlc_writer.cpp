#include "dlc/dlc_writer.h"

#include <zlib.h>

#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "byte_io/crc.h"
#include "core/dtype.h"
#include "dlc/dlc_layout.h"

namespace qnn::dlc {
namespace {

using Json = nlohmann::ordered_json;
using sdk::Status;

using layout::kAlign;
using layout::kPreambleSize;
using layout::kVersion;

template <typename T>
T load(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

// One element of a param's storage as the JSON number the reader's appendValue takes back.
bool valueOf(Qnn_DataType_t t, const uint8_t* p, Json* out) {
  switch (t) {
    case QNN_DATATYPE_BOOL_8: *out = load<uint8_t>(p) != 0; return true;
    case QNN_DATATYPE_FLOAT_32: {
      const float f = load<float>(p);  // the format's conventions: ±inf as ±FLT_MAX, NaN as 0
      *out = std::isnan(f) ? 0.0 : std::isinf(f) ? (f > 0 ? double(FLT_MAX) : -double(FLT_MAX)) : double(f);
      return true;
    }
    case QNN_DATATYPE_INT_8: *out = load<int8_t>(p); return true;
    case QNN_DATATYPE_INT_16: *out = load<int16_t>(p); return true;
    case QNN_DATATYPE_INT_32: *out = load<int32_t>(p); return true;
    case QNN_DATATYPE_INT_64: *out = load<int64_t>(p); return true;
    case QNN_DATATYPE_UINT_8: *out = load<uint8_t>(p); return true;
    case QNN_DATATYPE_UINT_16: *out = load<uint16_t>(p); return true;
    case QNN_DATATYPE_UINT_32: *out = load<uint32_t>(p); return true;
    case QNN_DATATYPE_UINT_64: *out = load<uint64_t>(p); return true;
    default: return false;
  }
}

Status paramJson(const std::string& node, const Param& p, Json* out) {
  const size_t elementSize = sdk::dtypeSize(static_cast<sdk::DType>(p.dataType));
  const std::string where = "node '" + node + "' param '" + p.name + "'";
  Json v;
  if (elementSize == 0 || !valueOf(p.dataType, p.bytes.data(), &v) || p.bytes.size() % elementSize != 0)
    return sdk::notSupported(where + ": data type " + std::string(sdk::dtypeName(static_cast<sdk::DType>(p.dataType))) +
                             " has no DLC param form (bool, float32 and 8-64-bit integers do)");
  Json j;
  j["kind"] = p.isTensor ? "tensor" : "scalar";
  j["data_type"] = std::string("QNN_DATATYPE_") + sdk::dtypeName(static_cast<sdk::DType>(p.dataType));
  if (p.isTensor) {
    j["dims"] = p.dims;
    Json values = Json::array();
    for (size_t at = 0; at < p.bytes.size(); at += elementSize) {
      valueOf(p.dataType, p.bytes.data() + at, &v);
      values.push_back(v);
    }
    j["value"] = std::move(values);
  } else {
    j["value"] = v;
  }
  *out = std::move(j);
  return Status::ok();
}

Json quantJson(const QuantParams& q) {
  Json j;
  j["bitwidth"] = q.bitwidth;
  j["scale"] = q.scales;
  j["offset"] = q.offsets;
  if (q.axis >= 0) j["axis"] = q.axis;
  if (q.blockwise)
    j["blockwise_expansion"] = {{"num_blocks", q.numBlocks},
                                {"block_scale_bitwidth", q.blockScaleBitwidth},
                                {"block_scales", q.blockScales}};
  return j;
}

}  // namespace

Status writeDlc(const std::vector<const Graph*>& graphs, const Metadata& metadata, std::vector<uint8_t>* out,
                const std::vector<const ContextBinary*>& contextBinaries) {
  if (graphs.empty()) return sdk::invalidArgument("a DLC needs at least one graph");
  std::vector<uint8_t> bytes(kPreambleSize, 0);
  std::set<std::string> graphNames;
  Json graphDocs = Json::array();
  for (const Graph* g : graphs) {
    if (!graphNames.insert(g->name).second)
      return sdk::invalidArgument("graph '" + g->name + "' twice: graph names in a DLC are unique");
    Json tensors = Json::object();
    for (const Tensor& t : g->tensors) {
      const char* type = layout::tensorTypeName(t.type);
      if (!type) return sdk::notSupported("tensor '" + t.name + "': tensor type " + std::to_string(int(t.type)) + " has no DLC form");
      Json d;
      d["type"] = type;
      d["data_type"] = std::string("QNN_DATATYPE_") + sdk::dtypeName(static_cast<sdk::DType>(t.dataType));
      d["dims"] = t.dims;
      if (!t.axisFormat.empty()) d["axis_format"] = t.axisFormat;
      if (!t.sourceName.empty()) d["source_name"] = t.sourceName;
      if (t.quant.defined) d["quant_params"] = quantJson(t.quant);
      if (t.type == QNN_TENSOR_TYPE_STATIC || t.type == QNN_TENSOR_TYPE_UPDATEABLE_STATIC) {
        if (!t.data && t.size > 0) return sdk::invalidArgument("static tensor '" + t.name + "' has no data");
        bytes.resize((bytes.size() + kAlign - 1) / kAlign * kAlign, 0);
        const uint64_t offset = bytes.size();
        bytes.insert(bytes.end(), t.data, t.data + t.size);
        const uint32_t crc = sdk::binary::crc32Of(t.data, size_t(t.size));
        d["data"] = {{"offset", offset}, {"size", t.size}, {"crc32", crc}};
      }
      if (tensors.contains(t.name)) return sdk::invalidArgument("graph '" + g->name + "': tensor name '" + t.name + "' twice");
      tensors[t.name] = std::move(d);
    }
    Json nodes = Json::array();
    for (const Node& n : g->nodes) {
      Json params = Json::object();
      for (const Param& p : n.params) {
        Json pj;
        QNN_SDK_RETURN_IF_ERROR(paramJson(n.name, p, &pj));
        params[p.name] = std::move(pj);
      }
      nodes.push_back({{"name", n.name}, {"package", n.package}, {"type", n.type}, {"input_names", n.inputs},
                       {"output_names", n.outputs}, {"params", std::move(params)}});
    }
    Json doc = {{"name", g->name}, {"inputs", g->inputs}, {"outputs", g->outputs}, {"tensors", std::move(tensors)},
                {"nodes", std::move(nodes)}};
    if (!g->opPackages.empty()) {
      Json packages = Json::array();
      for (const OpPackageRef& p : g->opPackages)
        packages.push_back({{"name", p.name}, {"domain", p.domain}, {"version", p.version}});
      doc["op_packages"] = std::move(packages);
    }
    graphDocs.push_back(std::move(doc));
  }
  Json binaries = Json::array();
  std::set<std::string> binaryNames;
  for (const ContextBinary* c : contextBinaries) {
    if (!c->data || c->size == 0) return sdk::invalidArgument("context binary '" + c->name + "' is empty");
    if (!binaryNames.insert(c->name).second) return sdk::invalidArgument("context binary name '" + c->name + "' twice");
    bytes.resize((bytes.size() + kAlign - 1) / kAlign * kAlign, 0);
    const uint64_t offset = bytes.size();
    bytes.insert(bytes.end(), c->data, c->data + c->size);
    const uint32_t crc = sdk::binary::crc32Of(c->data, size_t(c->size));
    binaries.push_back({{"name", c->name}, {"record_type", c->recordType}, {"backend_id", c->backendId},
                        {"data", {{"offset", offset}, {"size", c->size}, {"crc32", crc}}}});
  }
  Json md = {{"converter", metadata.converter}, {"converter_command", metadata.converterCommand},
             {"model_version", metadata.modelVersion},
             {"source_model", {{"path", metadata.sourceModel}, {"sha256", metadata.sourceSha256}}}};
  if (!metadata.quantizer.empty()) {
    md["quantizer"] = metadata.quantizer;
    md["quantizer_command"] = metadata.quantizerCommand;
  }
  Json header = {{"format", "openqnn-dlc"}, {"version", kVersion}, {"metadata", std::move(md)},
                 {"graphs", std::move(graphDocs)}};
  if (!binaries.empty()) header["context_binaries"] = std::move(binaries);
  const std::string raw = header.dump();
  uLongf packedSize = compressBound(uLong(raw.size()));
  std::vector<uint8_t> packed(packedSize);
  if (compress2(packed.data(), &packedSize, reinterpret_cast<const Bytef*>(raw.data()), uLong(raw.size()), 6) != Z_OK)
    return sdk::internalError("compressing the DLC header failed");
  packed.resize(packedSize);
  bytes.resize((bytes.size() + kAlign - 1) / kAlign * kAlign, 0);
  const uint64_t headerOffset = bytes.size();
  bytes.insert(bytes.end(), packed.begin(), packed.end());
  layout::Preamble pre;
  pre.headerOffset = headerOffset, pre.headerSize = packed.size(), pre.headerRawSize = raw.size();
  pre.headerCrc = sdk::binary::crc32Of(packed.data(), packed.size());
  pre.fileSize = bytes.size();
  layout::writePreamble(pre, bytes.data());
  *out = std::move(bytes);
  return Status::ok();
}

Status graphFromIr(const sdk::GraphIR& ir, Graph* out) {
  Graph g;
  g.name = ir.name;
  // Tensor names by id; a name the graph repeats (allowed with a warning) gets its id appended.
  std::map<uint32_t, std::string> names;
  std::set<std::string> used;
  for (const auto& [id, t] : ir.tensors) used.insert(t.name);
  std::map<std::string, int> seen;
  for (const auto& [id, t] : ir.tensors) {
    std::string name = t.name.empty() ? "tensor_" + std::to_string(id) : t.name;
    if (seen[name]++ > 0) {
      std::string renamed = name + "_id" + std::to_string(id);
      while (used.count(renamed)) renamed += "_";
      used.insert(renamed);
      name = renamed;
    }
    names[id] = name;
  }
  for (const auto& [id, t] : ir.tensors) {
    Tensor d;
    d.name = names[id];
    switch (t.kind) {  // an updateable tensor keeps its updateability only where the format has a type for it
      case sdk::TensorKind::kStatic:
        d.type = t.updateable ? QNN_TENSOR_TYPE_UPDATEABLE_STATIC : QNN_TENSOR_TYPE_STATIC;
        break;
      default: d.type = static_cast<Qnn_TensorType_t>(t.kind); break;
    }
    d.dataType = static_cast<Qnn_DataType_t>(t.dtype);
    if (sdk::dtypeSize(t.dtype) == 0)
      return sdk::notSupported("graph '" + ir.name + "' tensor '" + d.name + "': data type " +
                               std::to_string(uint32_t(t.dtype)) + " has no DLC form");
    d.dims = t.dims;
    const sdk::QuantInfo& q = t.quant;
    if (q.kind != sdk::QuantInfo::Kind::kNone) {
      d.quant.defined = true;
      d.quant.bitwidth = q.bitwidth ? q.bitwidth : uint32_t(sdk::dtypeSize(t.dtype) * 8);
      if (q.kind == sdk::QuantInfo::Kind::kScaleOffset) {
        d.quant.scales = {q.scale};
        d.quant.offsets = {q.offset};
      } else {
        d.quant.axis = q.axis;
        d.quant.scales = q.scales;
        d.quant.offsets = q.offsets;
        if (q.kind == sdk::QuantInfo::Kind::kBlockwiseExpansion) {
          d.quant.blockwise = true;
          d.quant.numBlocks = q.numBlocks;
          d.quant.blockScaleBitwidth = q.blockScaleBitwidth;
          d.quant.blockScales = q.blockScales;
        }
      }
    }
    if (t.kind == sdk::TensorKind::kStatic) {
      d.data = t.staticData.data();
      d.size = t.staticData.size();
    }
    if (t.isGraphInput()) g.inputs.push_back(d.name);
    if (t.isGraphOutput()) g.outputs.push_back(d.name);
    g.tensors.push_back(std::move(d));
  }
  for (const sdk::NodeInfo& n : ir.nodes) {
    Node node;
    node.name = n.name;
    node.package = n.packageName;
    node.type = n.typeName;
    for (uint32_t id : n.inputIds) node.inputs.push_back(names.count(id) ? names[id] : "");
    for (uint32_t id : n.outputIds) node.outputs.push_back(names.count(id) ? names[id] : "");
    for (const auto& [pname, v] : n.params.all()) {
      Param p;
      p.name = pname;
      p.isTensor = v.isTensor;
      p.dataType = static_cast<Qnn_DataType_t>(v.dtype);
      if (v.isTensor) {
        p.dims = v.dims;
        p.bytes = v.data;
      } else {
        const size_t size = sdk::dtypeSize(v.dtype);
        if (size == 0 || size > sizeof v.scalar)
          return sdk::notSupported("node '" + n.name + "' param '" + pname + "': scalar data type has no DLC form");
        p.bytes.assign(reinterpret_cast<const uint8_t*>(&v.scalar), reinterpret_cast<const uint8_t*>(&v.scalar) + size);
      }
      node.params.push_back(std::move(p));
    }
    if (n.packageName != "qti.aisw" && !n.packageName.empty()) {
      bool listed = false;
      for (const auto& p : g.opPackages) listed = listed || p.name == n.packageName;
      if (!listed) g.opPackages.push_back({n.packageName, "", ""});
    }
    g.nodes.push_back(std::move(node));
  }
  *out = std::move(g);
  return Status::ok();
}

}  // namespace qnn::dlc
