#include "oppackage/op_package_xml.h"

#include <tinyxml2.h>

#include <cctype>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "oppackage/op_package_checks.h"
#include "oppackage/op_package_vocabulary.h"

namespace qnn::oppackage {

using tinyxml2::XMLElement;

std::string Diagnostic::format() const {
  return file + ":" + std::to_string(line) + ": " + message;
}

namespace {

std::string joinDiagnostics(const std::vector<Diagnostic>& diagnostics) {
  std::string out;
  for (const auto& d : diagnostics) out += (out.empty() ? "" : "\n") + d.format();
  return out;
}

std::string trim(const char* s) {
  if (!s) return "";
  std::string t = s;
  const char* ws = " \t\r\n";
  const size_t b = t.find_first_not_of(ws);
  if (b == std::string::npos) return "";
  return t.substr(b, t.find_last_not_of(ws) - b + 1);
}

bool isCIdentifier(const std::string& s) {
  if (s.empty() || std::isdigit(static_cast<unsigned char>(s[0]))) return false;
  for (unsigned char c : s)
    if (!std::isalnum(c) && c != '_') return false;
  return true;
}

// What tinyxml2 found wrong, in words (its own strings carry internal ids).
std::string xmlErrorText(tinyxml2::XMLError e) {
  switch (e) {
    case tinyxml2::XML_ERROR_EMPTY_DOCUMENT: return "malformed XML: the document is empty";
    case tinyxml2::XML_ERROR_MISMATCHED_ELEMENT: return "malformed XML: closing tag does not match the open element";
    case tinyxml2::XML_ERROR_PARSING_ELEMENT: return "malformed XML: element not closed or badly formed";
    case tinyxml2::XML_ERROR_PARSING_ATTRIBUTE: return "malformed XML: badly formed attribute";
    case tinyxml2::XML_ERROR_PARSING_TEXT: return "malformed XML: badly formed text";
    case tinyxml2::XML_ERROR_PARSING_COMMENT: return "malformed XML: unterminated comment";
    case tinyxml2::XML_ERROR_PARSING_CDATA: return "malformed XML: unterminated CDATA section";
    case tinyxml2::XML_ERROR_PARSING_DECLARATION: return "malformed XML: badly formed declaration";
    default: return std::string("malformed XML: ") + tinyxml2::XMLDocument::ErrorIDToName(e);
  }
}

enum class TensorKind { Input, Output, Parameter };

const char* kindWord(TensorKind k) {
  return k == TensorKind::Input ? "input" : k == TensorKind::Output ? "output" : "parameter";
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  std::vector<Diagnostic>& diagnostics() { return diagnostics_; }

  void readCollection(const XMLElement* root, OpPackageConfig& config) {
    config.file = file_;
    if (std::string(root->Name()) != "OpDefCollection") {
      error(root, std::string("root element is <") + root->Name() + ">, expected <OpDefCollection>");
      return;
    }
    for (const tinyxml2::XMLAttribute* a = root->FirstAttribute(); a; a = a->Next()) {
      const std::string n = a->Name();
      if (n != "PackageName" && n != "Domain" && n != "Version" && n.rfind("xmlns", 0) != 0 && n.find(':') == std::string::npos)
        error(root, "<OpDefCollection> has an unknown attribute '" + n + "'");
    }
    config.packageName = requiredAttribute(root, "PackageName");
    if (!config.packageName.empty() && !isCIdentifier(config.packageName))
      error(root, "<OpDefCollection> PackageName '" + config.packageName +
                      "' is not a C identifier (it names the library and its functions)");
    config.domain = trim(root->Attribute("Domain"));
    config.version = trim(root->Attribute("Version"));
    checkChildren(root, {"OpDefList", "SupplementalOpDefList"}, "<OpDefCollection>");
    const XMLElement* list = single(root, "OpDefList", "<OpDefCollection>");
    if (!list) {
      error(root, "<OpDefCollection> has no <OpDefList>");
      return;
    }
    checkChildren(list, {"OpDef"}, "<OpDefList>");
    for (const XMLElement* op = list->FirstChildElement("OpDef"); op; op = op->NextSiblingElement("OpDef"))
      config.ops.push_back(readOpDef(op));
    if (config.ops.empty()) error(list, "<OpDefList> defines no <OpDef>");
    for (const XMLElement* s = root->FirstChildElement("SupplementalOpDefList"); s;
         s = s->NextSiblingElement("SupplementalOpDefList"))
      config.supplements.push_back(readSupplementalList(s));
  }

 private:
  void error(const XMLElement* at, const std::string& message) {
    diagnostics_.push_back({file_, at ? at->GetLineNum() : 0, message});
  }

  std::string requiredAttribute(const XMLElement* e, const char* name) {
    std::string v = trim(e->Attribute(name));
    if (v.empty()) error(e, std::string("<") + e->Name() + "> has no " + name + " attribute");
    return v;
  }

  // Every child element must be one of allowed; where names the parent in messages.
  void checkChildren(const XMLElement* e, std::initializer_list<const char*> allowed, const std::string& where) {
    for (const XMLElement* c = e->FirstChildElement(); c; c = c->NextSiblingElement()) {
      bool known = false;
      for (const char* a : allowed) known = known || std::string(c->Name()) == a;
      if (!known) error(c, std::string("unknown element <") + c->Name() + "> in " + where);
    }
  }

  // The one child called name (nullptr if absent); a second one is an error.
  const XMLElement* single(const XMLElement* e, const char* name, const std::string& where) {
    const XMLElement* first = e->FirstChildElement(name);
    if (first)
      if (const XMLElement* second = first->NextSiblingElement(name))
        error(second, std::string("second <") + name + "> in " + where);
    return first;
  }

  std::string singleText(const XMLElement* e, const char* name, const std::string& where) {
    const XMLElement* c = single(e, name, where);
    return c ? trim(c->GetText()) : "";
  }

  std::optional<bool> boolChild(const XMLElement* e, const char* name, const std::string& where) {
    const XMLElement* c = single(e, name, where);
    if (!c) return std::nullopt;
    const std::string t = trim(c->GetText());
    auto b = parseBool(t);
    if (!b) error(c, std::string("<") + name + "> '" + t + "' of " + where + " is not a boolean (true/false/1/0)");
    return b;
  }

  std::string readDescription(const XMLElement* d, const std::string& where) {
    checkChildren(d, {"Content", "Code"}, "<Description> of " + where);
    std::string out = trim(d->GetText());
    for (const XMLElement* c = d->FirstChildElement(); c; c = c->NextSiblingElement()) {
      const std::string t = trim(c->GetText());
      if (!t.empty()) out += (out.empty() ? "" : "\n") + t;
    }
    return out;
  }

  OpDef readOpDef(const XMLElement* e) {
    OpDef op;
    op.line = e->GetLineNum();
    op.name = singleText(e, "Name", "<OpDef>");
    if (op.name.empty()) {
      error(e, "<OpDef> has no <Name>");
      op.name = "<unnamed>";
    } else if (!isCIdentifier(op.name)) {
      error(e->FirstChildElement("Name"), "<Name> '" + op.name + "' of <OpDef> is not a C identifier");
    }
    const std::string where = "op '" + op.name + "'";
    checkChildren(e, {"Name", "Description", "Reference", "Input", "Output", "Parameter", "UseDefaultTranslation",
                      "SupportedBackend"},
                  "<OpDef> " + where);
    if (const XMLElement* d = single(e, "Description", where)) op.description = readDescription(d, where);
    for (const XMLElement* r = e->FirstChildElement("Reference"); r; r = r->NextSiblingElement("Reference"))
      op.references.push_back({trim(r->Attribute("Source")), trim(r->Attribute("Url"))});
    for (const XMLElement* t = e->FirstChildElement("Input"); t; t = t->NextSiblingElement("Input"))
      op.inputs.push_back(readTensor(t, TensorKind::Input, where));
    for (const XMLElement* t = e->FirstChildElement("Output"); t; t = t->NextSiblingElement("Output"))
      op.outputs.push_back(readTensor(t, TensorKind::Output, where));
    for (const XMLElement* t = e->FirstChildElement("Parameter"); t; t = t->NextSiblingElement("Parameter"))
      op.params.push_back(readTensor(t, TensorKind::Parameter, where));
    if (op.inputs.empty()) error(e, "<OpDef> " + where + " has no <Input> (at least one is required)");
    if (op.outputs.empty()) error(e, "<OpDef> " + where + " has no <Output> (at least one is required)");
    op.useDefaultTranslation = boolChild(e, "UseDefaultTranslation", where).value_or(false);
    for (const XMLElement* b = e->FirstChildElement("SupportedBackend"); b;
         b = b->NextSiblingElement("SupportedBackend")) {
      const std::string t = trim(b->GetText());
      if (auto backend = parseBackend(t))
        op.supportedBackends.push_back(*backend);
      else
        error(b, "<SupportedBackend> '" + t + "' of " + where + " is not a known backend (CPU, GPU, DSP, HTP, HTA, LPAI)");
    }
    return op;
  }

  void readDatatypes(const XMLElement* e, std::vector<std::string>& out, const std::string& where) {
    for (const XMLElement* d = e->FirstChildElement("Datatype"); d; d = d->NextSiblingElement("Datatype")) {
      const std::string t = trim(d->GetText());
      if (t == kBackendSpecific)
        out.push_back(t);
      else if (const DatatypeInfo* info = findDatatype(t))
        out.push_back(info->name);
      else
        error(d, "<Datatype> '" + t + "' of " + where + " is not a known datatype (QNN_DATATYPE_* or BACKEND_SPECIFIC)");
    }
  }

  void readLayout(const XMLElement* shape, std::string& out, const std::string& where) {
    if (const XMLElement* l = single(shape, "Layout", "<Shape> of " + where)) {
      const std::string t = trim(l->GetText());
      if (t.empty()) return;
      if (isKnownLayout(t))
        out = t;
      else
        error(l, "<Layout> '" + t + "' of " + where + " is not a known layout");
    }
  }

  TensorDef readTensor(const XMLElement* e, TensorKind kind, const std::string& opWhere) {
    TensorDef t;
    t.line = e->GetLineNum();
    t.name = singleText(e, "Name", std::string("<") + e->Name() + "> of " + opWhere);
    if (t.name.empty()) {
      error(e, std::string("<") + e->Name() + "> of " + opWhere + " has no <Name>");
      t.name = "<unnamed>";
    }
    const std::string where = std::string(kindWord(kind)) + " '" + t.name + "' of " + opWhere;
    switch (kind) {
      case TensorKind::Input:
        checkChildren(e, {"Name", "Description", "Mandatory", "Constraint", "Datatype", "Shape", "Default", "Repeated",
                          "IsStaticTensor"},
                      where);
        break;
      case TensorKind::Output:
        checkChildren(e, {"Name", "Description", "Mandatory", "Constraint", "Datatype", "Shape", "Repeated"}, where);
        break;
      case TensorKind::Parameter:
        checkChildren(e, {"Name", "Description", "Mandatory", "Constraint", "Datatype", "Shape", "Default",
                          "Enumeration"},
                      where);
        break;
    }
    if (const XMLElement* d = single(e, "Description", where)) t.description = readDescription(d, where);
    if (auto m = boolChild(e, "Mandatory", where))
      t.mandatory = *m;
    else if (!e->FirstChildElement("Mandatory"))
      error(e, std::string("<") + e->Name() + "> " + where + " has no <Mandatory>");
    readDatatypes(e, t.datatypes, where);
    if (!e->FirstChildElement("Datatype")) error(e, std::string("<") + e->Name() + "> " + where + " has no <Datatype>");
    if (const XMLElement* shape = single(e, "Shape", where)) {
      checkChildren(shape, {"Rank", "Layout", "Text"}, "<Shape> of " + where);
      const XMLElement* rank = single(shape, "Rank", "<Shape> of " + where);
      if (!rank) {
        error(shape, "<Shape> of " + where + " has no <Rank>");
      } else {
        const std::string r = trim(rank->GetText());
        if (auto parsed = parseRank(r))
          t.rank = *parsed;
        else
          error(rank, "<Rank> '" + r + "' of " + where + " is not one of SCALAR, 1D, 2D, 3D, 4D, 5D, ND");
      }
      readLayout(shape, t.layout, where);
      t.shapeText = singleText(shape, "Text", "<Shape> of " + where);
    } else {
      error(e, std::string("<") + e->Name() + "> " + where + " has no <Shape>");
    }
    if (const XMLElement* d = single(e, "Default", where)) {
      t.defaultValue = trim(d->GetText());
      t.defaultLine = d->GetLineNum();
    }
    t.repeated = boolChild(e, "Repeated", where).value_or(false);
    t.isStaticTensor = boolChild(e, "IsStaticTensor", where).value_or(false);
    if (const XMLElement* en = single(e, "Enumeration", where)) {
      t.enumerationLine = en->GetLineNum();
      checkChildren(en, {"Enum"}, "<Enumeration> of " + where);
      for (const XMLElement* v = en->FirstChildElement("Enum"); v; v = v->NextSiblingElement("Enum")) {
        const std::string name = trim(v->GetText());
        if (name.empty()) error(v, "<Enum> of " + where + " is empty");
        t.enumeration.push_back(name);
      }
      if (t.enumeration.empty()) error(en, "<Enumeration> of " + where + " has no <Enum>");
    }
    return t;
  }

  SupplementalTensor readSupplementalTensor(const XMLElement* e, const std::string& opWhere) {
    SupplementalTensor t;
    t.line = e->GetLineNum();
    t.name = singleText(e, "Name", std::string("<") + e->Name() + "> of " + opWhere);
    if (t.name.empty()) error(e, std::string("<") + e->Name() + "> of " + opWhere + " has no <Name>");
    const std::string where = std::string("supplemental ") + e->Name() + " '" + t.name + "' of " + opWhere;
    checkChildren(e, {"Name", "Constraint", "Datatype", "Shape", "OnlyDefaultSupported"}, where);
    readDatatypes(e, t.datatypes, where);
    for (const auto& d : t.datatypes)
      if (d == kBackendSpecific)
        error(e->FirstChildElement("Datatype"), "<Datatype> of " + where + " must be concrete, not BACKEND_SPECIFIC");
    if (const XMLElement* shape = single(e, "Shape", where)) {
      checkChildren(shape, {"Layout", "Text"}, "<Shape> of " + where);
      readLayout(shape, t.layout, where);
    }
    t.onlyDefaultSupported = boolChild(e, "OnlyDefaultSupported", where).value_or(false);
    return t;
  }

  SupplementalOpDefList readSupplementalList(const XMLElement* e) {
    SupplementalOpDefList list;
    list.line = e->GetLineNum();
    const std::string b = requiredAttribute(e, "Backend");
    if (auto backend = parseBackend(b))
      list.backend = *backend;
    else if (!b.empty())
      error(e, "<SupplementalOpDefList> Backend '" + b + "' is not a known backend (CPU, GPU, DSP, HTP, HTA, LPAI)");
    const std::string where = "<SupplementalOpDefList Backend=\"" + b + "\">";
    checkChildren(e, {"SupportedOps", "SupplementalOpDef"}, where);
    if (const XMLElement* ops = single(e, "SupportedOps", where)) {
      checkChildren(ops, {"OpName"}, "<SupportedOps>");
      for (const XMLElement* n = ops->FirstChildElement("OpName"); n; n = n->NextSiblingElement("OpName"))
      {
        list.supportedOps.push_back(trim(n->GetText()));
        list.supportedOpLines.push_back(n->GetLineNum());
      }
    }
    for (const XMLElement* d = e->FirstChildElement("SupplementalOpDef"); d;
         d = d->NextSiblingElement("SupplementalOpDef")) {
      SupplementalOpDef def;
      def.line = d->GetLineNum();
      def.name = singleText(d, "Name", "<SupplementalOpDef>");
      if (def.name.empty()) error(d, "<SupplementalOpDef> has no <Name>");
      const std::string opWhere = "op '" + def.name + "'";
      checkChildren(d, {"Name", "Input", "Output", "Parameter"}, "<SupplementalOpDef> " + opWhere);
      for (const XMLElement* t = d->FirstChildElement("Input"); t; t = t->NextSiblingElement("Input"))
        def.inputs.push_back(readSupplementalTensor(t, opWhere));
      for (const XMLElement* t = d->FirstChildElement("Output"); t; t = t->NextSiblingElement("Output"))
        def.outputs.push_back(readSupplementalTensor(t, opWhere));
      for (const XMLElement* t = d->FirstChildElement("Parameter"); t; t = t->NextSiblingElement("Parameter"))
        def.params.push_back(readSupplementalTensor(t, opWhere));
      list.defs.push_back(std::move(def));
    }
    return list;
  }

  std::string file_;
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace

OpPackageConfigError::OpPackageConfigError(std::vector<Diagnostic> diagnostics)
    : std::runtime_error(joinDiagnostics(diagnostics)), diagnostics_(std::move(diagnostics)) {}

OpPackageConfig parseOpPackageConfigText(const std::string& xml, const std::string& displayPath) {
  tinyxml2::XMLDocument doc;
  if (doc.Parse(xml.data(), xml.size()) != tinyxml2::XML_SUCCESS)
    throw OpPackageConfigError({{displayPath, doc.ErrorLineNum(), xmlErrorText(doc.ErrorID())}});
  Reader reader(displayPath);
  OpPackageConfig config;
  if (!doc.RootElement()) throw OpPackageConfigError({{displayPath, 1, "malformed XML: no root element"}});
  reader.readCollection(doc.RootElement(), config);
  // Cross-element rules only make sense on a structurally sound file.
  if (reader.diagnostics().empty()) checkOpPackageConfig(config, reader.diagnostics());
  if (!reader.diagnostics().empty()) throw OpPackageConfigError(std::move(reader.diagnostics()));
  return config;
}

OpPackageConfig parseOpPackageConfigFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw OpPackageConfigError({{path, 0, "cannot open the file"}});
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw OpPackageConfigError({{path, 0, "cannot read the file"}});
  return parseOpPackageConfigText(text.str(), path);
}

}  // namespace qnn::oppackage
