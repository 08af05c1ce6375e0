#include "tools/common/adapter_encodings.h"

#include <algorithm>
#include <cmath>
#include <fstream>

#include <nlohmann/json.hpp>

#include "tools/common/tool_error.h"

namespace qnn::tools {
namespace {

using nlohmann::json;

constexpr double kMinRange = 1e-4;  // as the converter's encodings: a range spans at least this

double number(const json& v, const char* field, const std::string& where) {
  if (!v.is_number()) throw ToolError(where + ": '" + field + "' must be a number");
  double d = v.get<double>();
  if (!std::isfinite(d)) throw ToolError(where + ": '" + field + "' must be finite");
  return d;
}

AdapterEncoding entryOf(const json& e, const std::string& where) {
  if (!e.is_object()) throw ToolError(where + ": an encoding must be an object");
  for (const auto& [key, value] : e.items())
    if (key != "bitwidth" && key != "min" && key != "max" && key != "scale" && key != "offset" &&
        key != "is_symmetric" && key != "dtype" && key.rfind("qnn_", 0) != 0)
      throw ToolError(where + ": unknown field '" + key + "'");
  if (e.contains("dtype") && e["dtype"] != "int")
    throw ToolError(where + ": only \"int\" encodings apply to an adapter's fixed-point tensors");
  if (!e.contains("bitwidth")) throw ToolError(where + ": 'bitwidth' is missing");
  AdapterEncoding out;
  double bw = number(e["bitwidth"], "bitwidth", where);
  if (bw != 4 && bw != 8 && bw != 16 && bw != 32) throw ToolError(where + ": bitwidth must be 4, 8, 16 or 32");
  out.bitwidth = uint32_t(bw);
  if (e.contains("is_symmetric")) {
    const json& s = e["is_symmetric"];
    if (s.is_boolean()) out.symmetric = s.get<bool>();
    else if (s == "True" || s == "true") out.symmetric = true;
    else if (s == "False" || s == "false") out.symmetric = false;
    else throw ToolError(where + ": 'is_symmetric' must be \"True\" or \"False\"");
  }
  if (e.contains("scale") && e.contains("offset")) {
    out.hasScale = true;
    out.scale = number(e["scale"], "scale", where);
    out.offset = number(e["offset"], "offset", where);
    if (out.scale <= 0) throw ToolError(where + ": 'scale' must be positive");
    if (out.offset != std::rint(out.offset)) throw ToolError(where + ": 'offset' must be an integer");
  } else if (e.contains("min") && e.contains("max")) {
    out.min = number(e["min"], "min", where);
    out.max = number(e["max"], "max", where);
    if (out.min > out.max) throw ToolError(where + ": 'min' is above 'max'");
  } else {
    throw ToolError(where + ": needs 'scale' and 'offset', or 'min' and 'max'");
  }
  return out;
}

bool isSigned(Qnn_DataType_t t) {
  return t == QNN_DATATYPE_SFIXED_POINT_8 || t == QNN_DATATYPE_SFIXED_POINT_16 || t == QNN_DATATYPE_SFIXED_POINT_32;
}

uint32_t bitsOf(Qnn_DataType_t t) {
  switch (t) {
    case QNN_DATATYPE_UFIXED_POINT_8: case QNN_DATATYPE_SFIXED_POINT_8: return 8;
    case QNN_DATATYPE_UFIXED_POINT_16: case QNN_DATATYPE_SFIXED_POINT_16: return 16;
    case QNN_DATATYPE_UFIXED_POINT_32: case QNN_DATATYPE_SFIXED_POINT_32: return 32;
    default: return 0;
  }
}

}  // namespace

std::map<std::string, AdapterEncoding> readAdapterEncodings(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ToolError("cannot open the adapter encodings file " + path);
  json doc = json::parse(in, nullptr, false);
  if (doc.is_discarded() || !doc.is_object()) throw ToolError(path + ": not a JSON object (AIMET encodings)");
  if (!doc.contains("param_encodings")) throw ToolError(path + ": no \"param_encodings\"");
  const json& params = doc["param_encodings"];
  if (!params.is_object()) throw ToolError(path + ": \"param_encodings\" must be an object of tensor names");
  std::map<std::string, AdapterEncoding> out;
  for (const auto& [name, entries] : params.items()) {
    const std::string where = path + ": param_encodings of '" + name + "'";
    if (!entries.is_array() || entries.empty()) throw ToolError(where + ": must be a non-empty list");
    if (entries.size() > 1)
      throw ToolError(where + ": " + std::to_string(entries.size()) +
                      " per-channel encodings; an adapter tensor takes one per-tensor encoding");
    out[name] = entryOf(entries[0], where);
  }
  return out;
}

TensorSpec withAdapterEncoding(const TensorSpec& spec, const AdapterEncoding& e, const std::string& who) {
  const uint32_t bits = bitsOf(spec.dataType);
  if (!bits || spec.perAxisQuantized)
    throw ToolError(who + ": an encoding applies to a per-tensor fixed-point tensor; the graph's is " +
                    std::string(spec.perAxisQuantized ? "per-axis quantized" : "not fixed-point"));
  if (e.bitwidth != bits)
    throw ToolError(who + ": the encoding is " + std::to_string(e.bitwidth) + "-bit, the graph's tensor " +
                    std::to_string(bits) + "-bit (an update keeps the tensor's datatype)");
  // The encoding in unsigned storage (real = scale * (q + offset), offset <= 0),
  // as the converter makes it (tf / symmetric).
  double scale = 0, offset = 0;
  const double steps = std::ldexp(1.0, int(bits)) - 1;
  const double half = std::ldexp(1.0, int(bits) - 1);
  if (e.symmetric) {
    scale = e.hasScale ? e.scale
                       : float(std::max(std::max(std::fabs(e.min), std::fabs(e.max)), kMinRange / 2) / (half - 1));
    offset = -half;  // signed 0 is unsigned 2^(bits-1)
  } else if (e.hasScale) {
    scale = e.scale;
    offset = -std::fabs(e.offset);  // AIMET files write it with either sign
  } else {
    double mn = std::min(e.min, 0.0), mx = std::max(e.max, 0.0);
    mx = std::max(mx, mn + kMinRange);
    scale = (mx - mn) / steps;
    offset = std::rint(mn / scale);
    scale = float(scale);
  }
  TensorSpec out = spec;
  out.quantized = true;
  out.scale = float(scale);
  out.offset = int32_t(isSigned(spec.dataType) ? offset + half : offset);
  return out;
}

}  // namespace qnn::tools
