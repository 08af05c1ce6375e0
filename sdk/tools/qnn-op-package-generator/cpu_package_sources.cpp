#include "tools/qnn-op-package-generator/cpu_package_sources.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <set>

#include "oppackage/op_package_values.h"
#include "oppackage/op_package_vocabulary.h"
#include "tools/qnn-op-package-generator/cpu_templates.h"

namespace qnn::tools::oppackage_gen {

using qnn::oppackage::DatatypeInfo;
using qnn::oppackage::OpDef;
using qnn::oppackage::OpPackageConfig;
using qnn::oppackage::TensorDef;

namespace {

std::string replaceAll(std::string text, const std::string& from, const std::string& to) {
  for (size_t pos = text.find(from); pos != std::string::npos; pos = text.find(from, pos + to.size()))
    text.replace(pos, from.size(), to);
  return text;
}

// A C string literal holding s.
std::string cString(const std::string& s) {
  std::string out = "\"";
  for (unsigned char c : s) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c < 0x20 || c >= 0x7f) {
      char escaped[8];
      std::snprintf(escaped, sizeof(escaped), "\\%03o", c);
      out += escaped;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out + "\"";
}

// XML names such as "in[0]" or "default" made into C++ identifiers.
std::string identifier(const std::string& name) {
  static const std::set<std::string> keywords = {
      "alignas", "alignof", "and", "auto", "bool", "break", "case", "catch", "char", "class", "const", "continue",
      "default", "delete", "do", "double", "else", "enum", "explicit", "export", "extern", "false", "float", "for",
      "friend", "goto", "if", "inline", "int", "long", "mutable", "namespace", "new", "not", "operator", "or",
      "private", "protected", "public", "register", "return", "short", "signed", "sizeof", "static", "struct",
      "switch", "template", "this", "throw", "true", "try", "typedef", "union", "unsigned", "using", "virtual",
      "void", "volatile", "while", "xor", "params", "context"};
  std::string out;
  for (unsigned char c : name) out += std::isalnum(c) ? static_cast<char>(c) : '_';
  if (out.empty() || std::isdigit(static_cast<unsigned char>(out[0]))) out = "v" + out;
  if (keywords.count(out)) out += '_';
  return out;
}

std::string capitalized(std::string s) {
  if (!s.empty()) s[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(s[0])));
  return s;
}

// Comment lines ("// ...") holding text, one per source line.
std::string commentLines(const std::string& text, const std::string& indent) {
  std::string out;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? std::string::npos : end - start);
    out += indent + "//" + (line.empty() ? "" : " " + line) + "\n";
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

std::vector<const DatatypeInfo*> concreteTypes(const TensorDef& t) {
  std::vector<const DatatypeInfo*> out;
  for (const auto& name : t.datatypes)
    if (const DatatypeInfo* d = qnn::oppackage::findDatatype(name)) out.push_back(d);
  return out;
}

std::string typeList(const TensorDef& t) {
  std::string out;
  for (const DatatypeInfo* d : concreteTypes(t)) out += std::string(out.empty() ? "" : "|") + (d->name + 13);
  return out;
}

std::string numberLiteral(double v, const DatatypeInfo& type) {
  char text[64];
  if (type.kind == qnn::oppackage::ValueKind::Float) {
    std::snprintf(text, sizeof(text), "%.9g", v);
    std::string s = text;
    if (s.find_first_of(".eEn") == std::string::npos) s += ".0";
    return s + "f";
  }
  if (type.kind == qnn::oppackage::ValueKind::Bool) return v != 0 ? "true" : "false";
  std::snprintf(text, sizeof(text), "%.0f", v);
  return text;
}

class OpWriter {
 public:
  OpWriter(const OpDef& op, std::vector<std::string>& warnings) : op_(op), warnings_(warnings) {}

  std::string declarations() const {
    std::string out = "\n// ---- op " + op_.name + " ----\n";
    if (!op_.description.empty()) out += commentLines(op_.description, "");
    out += describeTensors("Inputs", op_.inputs) + describeTensors("Outputs", op_.outputs);
    for (const auto& p : op_.params) {
      if (p.enumeration.empty()) continue;
      out += "enum class " + enumType(p) + " : uint32_t {\n";
      for (size_t i = 0; i < p.enumeration.size(); ++i)
        out += "  " + identifier(p.enumeration[i]) + " = " + std::to_string(i) + ",\n";
      out += "};\n";
    }
    out += "struct " + op_.name + "Params {\n";
    for (const auto& p : op_.params) {
      out += "  " + fieldType(p) + " " + identifier(p.name) + defaultInitializer(p) + ";  // " +
             (p.mandatory ? "mandatory" : "optional") + ", " + qnn::oppackage::rankName(p.rank) + " " + typeList(p) +
             (p.onlyDefaultSupported ? ", only the default is supported" : "") + "\n";
      out += "  bool " + identifier(p.name) + "Given = false;  // the node set it\n";
    }
    out += "};\n";
    out += "// The kernel, written by the package author in src/ops/" + op_.name +
           ".cpp: QNN_SUCCESS or an error code.\n";
    out += "Qnn_ErrorHandle_t execute" + op_.name + "(const OpContext& context, const " + op_.name +
           "Params& params);\n";
    return out;
  }

  std::string readerDeclaration() const {
    return op_.name + "Params read" + op_.name + "Params(const QnnCpuOpPackage_Node_t& node);\n";
  }

  std::string reader() const {
    std::string out = op_.name + "Params read" + op_.name + "Params(const QnnCpuOpPackage_Node_t& node) {\n";
    out += "  " + op_.name + "Params params;\n";
    bool scalars = false, tensors = false;
    for (const auto& p : op_.params) (p.rank == 0 ? scalars : tensors) = true;
    if (scalars) out += "  double scalar = 0.0;\n";
    if (tensors) out += "  std::vector<double> values;\n";
    if (op_.params.empty()) out += "  (void)node;\n";
    for (const auto& p : op_.params) {
      const std::string field = "params." + identifier(p.name);
      if (p.rank == 0) {
        out += "  if (readScalarParam(node, " + cString(p.name) + ", scalar)) {\n";
        out += "    " + field + " = " + scalarConversion(p) + ";\n";
      } else {
        out += "  if (readTensorParam(node, " + cString(p.name) + ", values)) {\n";
        out += "    " + field + ".clear();\n";
        out += "    for (double v : values) " + field + ".push_back(static_cast<" + elementType(p) + ">(v));\n";
      }
      out += "    " + field + "Given = true;\n  }\n";
    }
    return out + "  return params;\n}\n";
  }

  std::string ruleTable() const {
    std::string out = "      {" + cString(op_.name) + ",\n";
    out += "       {" + tensorRules(op_.inputs) + "},\n";
    out += "       {" + tensorRules(op_.outputs) + "},\n";
    out += "       {";
    for (size_t i = 0; i < op_.params.size(); ++i) {
      const TensorDef& p = op_.params[i];
      out += std::string(i ? ",\n        " : "") + "{" + cString(p.name) + ", " + (p.mandatory ? "true" : "false") +
             ", " + (p.rank == 0 ? "true" : "false") + ", " + std::to_string(p.rank) + ", " + datatypeValues(p) + ", " +
             std::to_string(p.enumeration.size()) + "}";
    }
    return out + "}},\n";
  }

 private:
  std::string enumType(const TensorDef& p) const { return op_.name + capitalized(identifier(p.name)); }

  const DatatypeInfo* primary(const TensorDef& t) const {
    auto types = concreteTypes(t);
    return types.empty() ? nullptr : types.front();
  }

  std::string elementType(const TensorDef& p) const {
    const DatatypeInfo* d = primary(p);
    return d ? d->cppType : "float";
  }

  std::string fieldType(const TensorDef& p) const {
    if (!p.enumeration.empty()) return enumType(p);
    const DatatypeInfo* d = primary(p);
    if (p.rank != 0) return "std::vector<" + elementType(p) + ">";
    if (d && d->kind == qnn::oppackage::ValueKind::Bool) return "bool";
    return elementType(p);
  }

  std::string scalarConversion(const TensorDef& p) const {
    if (!p.enumeration.empty()) return "static_cast<" + enumType(p) + ">(static_cast<uint32_t>(scalar))";
    if (fieldType(p) == "bool") return "scalar != 0.0";
    return "static_cast<" + fieldType(p) + ">(scalar)";
  }

  std::string defaultInitializer(const TensorDef& p) const {
    const DatatypeInfo* d = primary(p);
    if (!p.defaultValue || p.defaultValue->empty()) return "{}";
    if (!p.enumeration.empty()) {
      auto index = qnn::oppackage::enumerationIndex(p, *p.defaultValue);
      return index ? " = " + enumType(p) + "::" + identifier(p.enumeration[*index]) : "{}";
    }
    if (!d) return "{}";
    if (p.rank == 0) {
      auto v = qnn::oppackage::parseScalarValue(*p.defaultValue, *d);
      return v ? " = " + numberLiteral(*v, *d) : "{}";
    }
    auto values = qnn::oppackage::parseTensorValues(*p.defaultValue, *d);
    if (!values) return "{}";
    std::string out = " = {";
    for (size_t i = 0; i < values->size(); ++i)
      out += (i ? ", " : "") + std::string(d->kind == qnn::oppackage::ValueKind::Bool
                                               ? ((*values)[i] != 0 ? "1" : "0")
                                               : numberLiteral((*values)[i], *d));
    return out + "}";
  }

  std::string describeTensors(const char* title, const std::vector<TensorDef>& tensors) const {
    std::string out = std::string("// ") + title + ":";
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorDef& t = tensors[i];
      out += "\n//   " + std::to_string(i) + " '" + t.name + "' " + qnn::oppackage::rankName(t.rank) + " " + typeList(t) +
             (t.mandatory ? "" : ", optional") + (t.repeated ? ", repeated" : "") +
             (t.isStaticTensor ? ", static" : "") + (t.layout.empty() ? "" : ", layout " + t.layout);
    }
    return out + "\n";
  }

  std::string datatypeValues(const TensorDef& t) const {
    std::string out = "{";
    for (const DatatypeInfo* d : concreteTypes(t)) {
      if (!d->cpuOpPackage)
        warnings_.push_back("op '" + op_.name + "': '" + t.name + "' allows " + d->name +
                            ", which the CPU op package interface does not carry; the CPU backend will not accept it");
      char value[16];
      std::snprintf(value, sizeof(value), "0x%04x", d->value);
      out += std::string(out.size() > 1 ? ", " : "") + value;
    }
    return out + "}";
  }

  std::string tensorRules(const std::vector<TensorDef>& tensors) const {
    std::string out;
    for (size_t i = 0; i < tensors.size(); ++i) {
      const TensorDef& t = tensors[i];
      out += std::string(i ? ",\n        " : "") + "{" + cString(t.name) + ", " + (t.mandatory ? "true" : "false") +
             ", " + (t.repeated ? "true" : "false") + ", " + std::to_string(t.rank) + ", " + datatypeValues(t) + "}";
    }
    return out;
  }

  const OpDef& op_;
  std::vector<std::string>& warnings_;
};

std::string versionTriple(const std::string& version) {
  unsigned parts[3] = {0, 0, 0};
  size_t start = 0;
  for (int i = 0; i < 3 && start < version.size(); ++i) {
    parts[i] = static_cast<unsigned>(std::strtoul(version.c_str() + start, nullptr, 10));
    const size_t dot = version.find('.', start);
    if (dot == std::string::npos) break;
    start = dot + 1;
  }
  return std::to_string(parts[0]) + ", " + std::to_string(parts[1]) + ", " + std::to_string(parts[2]);
}

}  // namespace

std::vector<GeneratedFile> cpuPackageFiles(const OpPackageConfig& config, const std::vector<OpDef>& ops,
                                           const std::string& xmlText, std::vector<std::string>& warnings) {
  std::string declarations, readerDeclarations, readers, rules, opTable, opNames, opSources;
  std::vector<GeneratedFile> kernels;
  for (const auto& op : ops) {
    OpWriter w(op, warnings);
    declarations += w.declarations();
    readerDeclarations += w.readerDeclaration();
    readers += (readers.empty() ? "" : "\n") + w.reader();
    rules += w.ruleTable();
    opTable += "    {" + cString(op.name) + ", &createOp<" + op.name + "Params, &read" + op.name + "Params, &execute" +
               op.name + ">},\n";
    opNames += "    " + cString(op.name) + ",\n";
    opSources += "  src/ops/" + op.name + ".cpp\n";
    kernels.push_back({"src/ops/" + op.name + ".cpp",
                       replaceAll(replaceAll(kCpuOpSource, "@OP@", op.name), "@PKG@", config.packageName), true});
  }
  auto fill = [&](std::string text) {
    text = replaceAll(text, "@OP_DECLARATIONS@", declarations);
    text = replaceAll(text, "@PARAM_READER_DECLARATIONS@", readerDeclarations);
    text = replaceAll(text, "@PARAM_READERS@", readers);
    text = replaceAll(text, "@RULE_TABLES@", rules);
    text = replaceAll(text, "@OP_TABLE@", opTable);
    text = replaceAll(text, "@OP_NAMES@", opNames);
    text = replaceAll(text, "@OP_SOURCES@", opSources);
    text = replaceAll(text, "@VERSION_TRIPLE@", versionTriple(config.version));
    return replaceAll(text, "@PKG@", config.packageName);
  };
  const std::string& pkg = config.packageName;
  std::vector<GeneratedFile> files = {
      {"CMakeLists.txt", fill(kCpuCMakeLists), false},
      {"config/" + pkg + ".xml", xmlText, false},
      {"include/" + pkg + "Ops.h", fill(kCpuOpsHeader), false},
      {"src/" + pkg + "Package.h", fill(kCpuPackageHeader), false},
      {"src/" + pkg + "Interface.cpp", fill(kCpuInterfaceSource), false},
      {"src/" + pkg + "Validation.cpp", fill(kCpuValidationSource), false},
  };
  files.insert(files.end(), kernels.begin(), kernels.end());
  return files;
}

}  // namespace qnn::tools::oppackage_gen
