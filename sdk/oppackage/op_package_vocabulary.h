// The fixed words of the OpDefCollection schema: datatypes, ranks, layouts,
// backends, booleans. Each lookup returns nullopt for a word it does not know;
// callers turn that into a diagnostic naming the element.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace qnn::oppackage {

inline constexpr const char* kBackendSpecific = "BACKEND_SPECIFIC";

enum class ValueKind { Float, Signed, Unsigned, Bool };

struct DatatypeInfo {
  const char* name;      // canonical QNN_DATATYPE_* spelling
  uint32_t value;        // Qnn_DataType_t
  const char* cppType;   // element type a kernel sees ("float", "int32_t", ...)
  bool cpuOpPackage;     // representable as a QnnCpuOpPackage_DataType_t
  ValueKind kind;        // how a <Default> of this type is read
  int bits;
};

// Accepts "QNN_DATATYPE_FLOAT_32" and the short "FLOAT_32"; nullptr when unknown.
// BACKEND_SPECIFIC is not a datatype: check for it first.
const DatatypeInfo* findDatatype(const std::string& word);
const std::vector<DatatypeInfo>& allDatatypes();

// "SCALAR" -> 0, "1D".."5D" -> 1..5, "ND" -> kAnyRank.
std::optional<int> parseRank(const std::string& word);
std::string rankName(int rank);

// NHWC, NCHW, NDHWC, NCDHW, NHCW, NONTRIVIAL, UNDEFINED, BACKEND_SPECIFIC.
bool isKnownLayout(const std::string& word);

// CPU, GPU, DSP, HTP, HTA, LPAI, optionally with a variant suffix (DSP_V68, HTP_FP16),
// case-insensitive. Returns the upper-case spelling.
std::optional<std::string> parseBackend(const std::string& word);

// true/false/1/0, case-insensitive.
std::optional<bool> parseBool(const std::string& word);

}  // namespace qnn::oppackage
