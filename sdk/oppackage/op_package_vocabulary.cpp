#include "oppackage/op_package_vocabulary.h"

#include <algorithm>
#include <cctype>

#include "oppackage/op_package_config.h"

namespace qnn::oppackage {

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

}  // namespace

const std::vector<DatatypeInfo>& allDatatypes() {
  // Values are Qnn_DataType_t (QnnTypes.h); the CPU op package interface carries
  // only the six types of QnnCpuOpPackage_DataType_t.
  static const std::vector<DatatypeInfo> table = {
      {"QNN_DATATYPE_INT_8", 0x0008, "int8_t", true, ValueKind::Signed, 8},
      {"QNN_DATATYPE_INT_16", 0x0016, "int16_t", false, ValueKind::Signed, 16},
      {"QNN_DATATYPE_INT_32", 0x0032, "int32_t", true, ValueKind::Signed, 32},
      {"QNN_DATATYPE_INT_64", 0x0064, "int64_t", false, ValueKind::Signed, 64},
      {"QNN_DATATYPE_UINT_8", 0x0108, "uint8_t", true, ValueKind::Unsigned, 8},
      {"QNN_DATATYPE_UINT_16", 0x0116, "uint16_t", false, ValueKind::Unsigned, 16},
      {"QNN_DATATYPE_UINT_32", 0x0132, "uint32_t", true, ValueKind::Unsigned, 32},
      {"QNN_DATATYPE_UINT_64", 0x0164, "uint64_t", false, ValueKind::Unsigned, 64},
      {"QNN_DATATYPE_FLOAT_16", 0x0216, "uint16_t", false, ValueKind::Float, 16},
      {"QNN_DATATYPE_FLOAT_32", 0x0232, "float", true, ValueKind::Float, 32},
      {"QNN_DATATYPE_SFIXED_POINT_8", 0x0308, "int8_t", false, ValueKind::Signed, 8},
      {"QNN_DATATYPE_SFIXED_POINT_16", 0x0316, "int16_t", false, ValueKind::Signed, 16},
      {"QNN_DATATYPE_SFIXED_POINT_32", 0x0332, "int32_t", false, ValueKind::Signed, 32},
      {"QNN_DATATYPE_UFIXED_POINT_8", 0x0408, "uint8_t", false, ValueKind::Unsigned, 8},
      {"QNN_DATATYPE_UFIXED_POINT_16", 0x0416, "uint16_t", false, ValueKind::Unsigned, 16},
      {"QNN_DATATYPE_UFIXED_POINT_32", 0x0432, "uint32_t", false, ValueKind::Unsigned, 32},
      {"QNN_DATATYPE_BOOL_8", 0x0508, "uint8_t", true, ValueKind::Bool, 8},
  };
  return table;
}

const DatatypeInfo* findDatatype(const std::string& word) {
  const std::string w = upper(word);
  for (const auto& d : allDatatypes()) {
    const std::string full = d.name;
    if (w == full || "QNN_DATATYPE_" + w == full) return &d;
  }
  return nullptr;
}

std::optional<int> parseRank(const std::string& word) {
  const std::string w = upper(word);
  if (w == "SCALAR") return 0;
  if (w == "ND") return kAnyRank;
  if (w.size() == 2 && w[1] == 'D' && w[0] >= '1' && w[0] <= '5') return w[0] - '0';
  return std::nullopt;
}

std::string rankName(int rank) {
  if (rank == kAnyRank) return "ND";
  if (rank == 0) return "SCALAR";
  return std::to_string(rank) + "D";
}

bool isKnownLayout(const std::string& word) {
  static const char* const layouts[] = {"NHWC", "NCHW", "NDHWC", "NCDHW", "NHCW", "NONTRIVIAL", "UNDEFINED",
                                        kBackendSpecific};
  const std::string w = upper(word);
  return std::any_of(std::begin(layouts), std::end(layouts), [&](const char* l) { return w == l; });
}

std::optional<std::string> parseBackend(const std::string& word) {
  static const char* const families[] = {"CPU", "GPU", "DSP", "HTP", "HTA", "LPAI"};
  const std::string w = upper(word);
  for (const char* f : families) {
    const std::string family = f;
    if (w == family) return w;
    // A variant: DSP_V68, HTP_V73, HTP_FP16 ... letters and digits after one underscore.
    if (w.size() > family.size() + 1 && w.compare(0, family.size(), family) == 0 && w[family.size()] == '_' &&
        std::all_of(w.begin() + static_cast<std::ptrdiff_t>(family.size()) + 1, w.end(),
                    [](unsigned char c) { return std::isalnum(c) != 0; }))
      return w;
  }
  return std::nullopt;
}

std::string backendFamily(const std::string& backend) {
  return backend.substr(0, backend.find('_'));
}

std::optional<bool> parseBool(const std::string& word) {
  const std::string w = upper(word);
  if (w == "TRUE" || w == "1") return true;
  if (w == "FALSE" || w == "0") return false;
  return std::nullopt;
}

}  // namespace qnn::oppackage
