// C source literals for generated code: exact floats, escaped strings.
#pragma once

#include <cstdint>
#include <string>

#include "trace/trace_value.h"

namespace qnn::trace::cgen {

// "text" with every byte outside printable ASCII (and quotes, backslashes,
// '?' against trigraphs) as a three-digit octal escape.
std::string cString(const std::string& s);
// A float literal that converts back to exactly `v` (hex float; INFINITY/NAN
// spelled as expressions).
std::string cFloat(double v);
// A recorded string as a C literal; "NULL" for anything else.
inline std::string cStringOrNull(const Value& v) { return v.kind == Value::Kind::String ? cString(v.s) : "NULL"; }

}  // namespace qnn::trace::cgen
