// The op package description of an OpDefCollection XML file (the vendor's schema),
// as plain values. Parsing and validation live in op_package_xml.h; everything
// here is owned by value, so a config outlives the XML document it came from.
#pragma once

#include <optional>
#include <string>
#include <vector>

namespace qnn::oppackage {

// Rank of a tensor as the schema spells it: SCALAR = 0, 1D..5D, ND = any.
constexpr int kAnyRank = -1;

// One input, output or parameter of an OpDef.
struct TensorDef {
  std::string name;
  std::string description;
  bool mandatory = true;
  // Canonical QNN_DATATYPE_* names, or "BACKEND_SPECIFIC" (narrowed per backend by
  // a SupplementalOpDef). Never empty after a successful parse.
  std::vector<std::string> datatypes;
  int rank = kAnyRank;
  std::string layout;     // NHWC, NCHW, ..., UNDEFINED, BACKEND_SPECIFIC; empty = not given
  std::string shapeText;  // free-form <Shape><Text>
  std::optional<std::string> defaultValue;  // verbatim <Default> text
  bool repeated = false;        // variadic (inputs/outputs; only the last one)
  bool isStaticTensor = false;  // inputs only
  bool onlyDefaultSupported = false;  // set by a backend's supplement
  std::vector<std::string> enumeration;  // parameters only: <Enum> names, value = index
  int line = 0;
  int defaultLine = 0;      // of <Default>, for diagnostics
  int enumerationLine = 0;  // of <Enumeration>
};

struct Reference {
  std::string source;
  std::string url;
};

struct OpDef {
  std::string name;
  std::string description;  // <Content> and <Code> pieces joined by newlines
  std::vector<Reference> references;
  std::vector<TensorDef> inputs;
  std::vector<TensorDef> outputs;
  std::vector<TensorDef> params;
  bool useDefaultTranslation = false;
  std::vector<std::string> supportedBackends;  // <SupportedBackend>, canonical upper case
  int line = 0;
};

// A SupplementalOpDef's tensor: only the fields a backend may narrow.
struct SupplementalTensor {
  std::string name;
  std::vector<std::string> datatypes;  // empty = keep the OpDef's
  std::string layout;                  // empty = keep the OpDef's
  bool onlyDefaultSupported = false;
  int line = 0;
};

struct SupplementalOpDef {
  std::string name;
  std::vector<SupplementalTensor> inputs;
  std::vector<SupplementalTensor> outputs;
  std::vector<SupplementalTensor> params;
  int line = 0;
};

struct SupplementalOpDefList {
  std::string backend;  // canonical upper case, e.g. CPU, HTP, DSP_V68
  std::vector<std::string> supportedOps;
  std::vector<int> supportedOpLines;  // line of each <OpName>
  std::vector<SupplementalOpDef> defs;
  int line = 0;
};

struct OpPackageConfig {
  std::string file;  // path it was read from (as given), used in diagnostics
  std::string packageName;
  std::string domain;
  std::string version;
  std::vector<OpDef> ops;
  std::vector<SupplementalOpDefList> supplements;
};

// The family a backend name belongs to: "DSP_V68" -> "DSP", "HTP_FP16" -> "HTP", "CPU" -> "CPU".
std::string backendFamily(const std::string& backend);

// Backend families the package targets, in first-mention order (OpDef SupportedBackend
// first, then SupplementalOpDefList Backend).
std::vector<std::string> packageBackends(const OpPackageConfig& config);

// The ops one backend family supports, with that backend's supplements applied
// (datatypes and layouts narrowed, OnlyDefaultSupported noted). An op counts as
// supported when it names the backend in SupportedBackend or is listed in the
// backend's SupportedOps. Returned by value; the config is not modified.
std::vector<OpDef> opsForBackend(const OpPackageConfig& config, const std::string& family);

}  // namespace qnn::oppackage
