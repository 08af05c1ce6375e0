#include "trace/cgen/c_literals.h"

#include <cmath>
#include <cstdio>

namespace qnn::trace::cgen {

std::string cString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\' && c != '?') {
      out += char(c);
    } else {
      char esc[8];
      std::snprintf(esc, sizeof esc, "\\%03o", unsigned(c));
      out += esc;
    }
  }
  return out + "\"";
}

std::string cFloat(double v) {
  if (std::isnan(v)) return "(0.0f / 0.0f)";
  if (std::isinf(v)) return v > 0 ? "(1.0f / 0.0f)" : "(-1.0f / 0.0f)";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", v);
  return buf;
}

}  // namespace qnn::trace::cgen
