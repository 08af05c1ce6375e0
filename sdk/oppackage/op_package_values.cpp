#include "oppackage/op_package_values.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>

namespace qnn::oppackage {

namespace {

std::string trimmed(const std::string& s) {
  const char* ws = " \t\r\n";
  const size_t b = s.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

}  // namespace

std::optional<double> parseScalarValue(const std::string& rawText, const DatatypeInfo& type) {
  const std::string text = trimmed(rawText);
  if (text.empty()) return std::nullopt;
  if (type.kind == ValueKind::Bool) {
    auto b = parseBool(text);
    if (!b) return std::nullopt;
    return *b ? 1.0 : 0.0;
  }
  errno = 0;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (errno != 0 || end == text.c_str() || *end != '\0' || !std::isfinite(v)) return std::nullopt;
  if (type.kind == ValueKind::Float) return v;
  if (v != std::floor(v)) return std::nullopt;
  const double limit = std::ldexp(1.0, type.bits - (type.kind == ValueKind::Signed ? 1 : 0));
  const double lowest = type.kind == ValueKind::Signed ? -limit : 0.0;
  if (v < lowest || v > limit - 1) return std::nullopt;
  return v;
}

std::optional<std::vector<double>> parseTensorValues(const std::string& text, const DatatypeInfo& type) {
  // Brackets (or braces) only group; commas and whitespace separate numbers. Depth
  // must balance so that "[1, 2" is rejected.
  std::vector<double> values;
  int depth = 0;
  std::string token;
  auto flush = [&]() -> bool {
    if (token.empty()) return true;
    auto v = parseScalarValue(token, type);
    token.clear();
    if (!v) return false;
    values.push_back(*v);
    return true;
  };
  for (char c : text) {
    if (c == '[' || c == '{') {
      if (!flush()) return std::nullopt;
      ++depth;
    } else if (c == ']' || c == '}') {
      if (!flush() || --depth < 0) return std::nullopt;
    } else if (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
      if (!flush()) return std::nullopt;
    } else {
      token += c;
    }
  }
  if (!flush() || depth != 0) return std::nullopt;
  return values;
}

std::optional<size_t> enumerationIndex(const TensorDef& param, const std::string& rawText) {
  const std::string text = trimmed(rawText);
  for (size_t i = 0; i < param.enumeration.size(); ++i)
    if (param.enumeration[i] == text) return i;
  char* end = nullptr;
  errno = 0;
  const long v = std::strtol(text.c_str(), &end, 10);
  if (errno == 0 && !text.empty() && *end == '\0' && v >= 0 && static_cast<size_t>(v) < param.enumeration.size())
    return static_cast<size_t>(v);
  return std::nullopt;
}

const DatatypeInfo* primaryDatatype(const TensorDef& t) {
  for (const auto& name : t.datatypes)
    if (const DatatypeInfo* d = findDatatype(name)) return d;
  return nullptr;
}

}  // namespace qnn::oppackage
