// Reading <Default> texts: scalars of a given datatype, bracketed tensor lists and
// enumeration names. Shared by the validator (is the default legal?) and the
// generator (what value does the generated code fall back to?).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "oppackage/op_package_config.h"
#include "oppackage/op_package_vocabulary.h"

namespace qnn::oppackage {

// "1.5", "-3", "true" ... as a value of type; nullopt when it is not one (not a
// number, not an integer for an integer type, out of the type's range).
std::optional<double> parseScalarValue(const std::string& text, const DatatypeInfo& type);

// "[[1, 2], [3, 4]]" or "[]" or "7" -> the elements in row-major order; each must be a
// value of type. nullopt when the text is not such a list.
std::optional<std::vector<double>> parseTensorValues(const std::string& text, const DatatypeInfo& type);

// The index of text in param.enumeration: an <Enum> name or its index written as
// a number. nullopt when it is neither.
std::optional<size_t> enumerationIndex(const TensorDef& param, const std::string& text);

// The first concrete datatype of t (skipping BACKEND_SPECIFIC), or nullptr.
const DatatypeInfo* primaryDatatype(const TensorDef& t);

}  // namespace qnn::oppackage
